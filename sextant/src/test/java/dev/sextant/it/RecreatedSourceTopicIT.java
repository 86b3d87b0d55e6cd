package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.client.SextantClient;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testing.TopicRecreation;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.LocalKafkaBroker;
import dev.sextant.testkit.LocalMirrorMaker;
import io.micrometer.core.instrument.Counter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.LongStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A source topic deleted and created again with the same name (edge 9 of the no-silent-loss work), on the shared
 * clusters: MirrorMaker 2 goes on mirroring the new incarnation onto the same mirror topic, after the old records.
 *
 * <ul>
 *   <li>{@code recreate-short}: the new incarnation holds fewer records than the old one's newest sync, so the source
 *       log end is evidence that the history no longer describes the log: it is reset, and a commit on the new
 *       incarnation translates through the new incarnation's syncs;</li>
 *   <li>{@code recreate-long}: more records than before, produced at once, so the log end is no evidence.
 *       MirrorMaker 2, whose task did not notice the deletion, goes on from its old position (1,000), so it never
 *       copies the new incarnation's records below it, and its syncs continue the old ones seamlessly. The source
 *       topic id tells the incarnations apart: the old syncs are forgotten, a commit above them translates through
 *       the new incarnation's syncs, and one below them (its records never reached the mirror) is
 *       {@code UNTRANSLATABLE}, reported as not clean, however it was written before the id was checked. A commit above
 *       the old syncs is written among the new records, or, when the new incarnation's syncs read before the
 *       recreation was told were forgotten with the old ones (seen once in CI), reported {@code UNTRANSLATABLE}:
 *       never written past a record, never reported clean.</li>
 * </ul>
 *
 * <p>In both, a group committed on the old incarnation loses its offsets with the topic (the group coordinator
 * tombstones them): Sextant forgets its position and never moves its destination offset again.
 */
@ExtendWith(LocalClustersExtension.class)
class RecreatedSourceTopicIT {

    private static final Duration SYNCED = Duration.ofSeconds(60);
    private static final int OLD_RECORDS = 1_000;
    private static final long OLD_COMMIT = 950;

    /**
     * One source topic through both incarnations.
     *
     * @param newRegionFrom commits on the new incarnation at or above this offset must be written among the new
     *                      incarnation's records on the mirror; below it (records MirrorMaker 2 never copied) they
     *                      must be reported {@code UNTRANSLATABLE}
     */
    private record Case(String topic, int newRecords, List<Long> newCommits, long newRegionFrom) {

        String mirrored() {
            return LocalMirrorMaker.mirroredTopic(topic);
        }

        String oldGroup() {
            return topic + "-old";
        }

        String newGroup(long commit) {
            return topic + "-new-at-" + commit;
        }
    }

    @Test
    void aCommitOnTheNewIncarnationTranslatesIntoItsRecordsAndTheOldPositionIsForgotten(LocalClusters clusters)
            throws Exception {
        // fewer records than the old newest sync (999): the log end is the evidence, every commit in the new region
        Case shorter = new Case("recreate-short", 300, List.of(200L), 0);
        // more, at once: no log-end evidence, the topic id is; above the old syncs the new ones translate
        Case longer = new Case("recreate-long", 2_500, List.of(500L, 2_000L), OLD_RECORDS);
        List<Case> cases = List.of(shorter, longer);
        long started = System.nanoTime();
        mirrorTheOldIncarnations(clusters, cases);
        try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-recreate",
                Map.of("groups.include", "recreate-.*"))) {
            SextantClient client = SextantClient.builder("http://" + sextant.app().queryAddress())
                    .deadline(Duration.ofSeconds(10)).build();
            for (Case c : cases) {
                Clients.commit(clusters.source(), c.oldGroup(), c.topic(), Map.of(0, OLD_COMMIT));
            }
            Map<String, Long> oldWritten = new HashMap<>();
            for (Case c : cases) {
                oldWritten.put(c.topic(), awaitWritten(clusters, c.oldGroup(), c.mirrored()));
            }

            // the source topics deleted (the coordinator tombstones the old group's offsets) and created again
            Map<String, Long> newRegion = new HashMap<>();
            for (Case c : cases) {
                newRegion.put(c.topic(), end(clusters, clusters.destination(), c.mirrored()));
            }
            deleteAndCreateAgain(clusters, client, cases);
            long recreatedAt = System.nanoTime();
            for (Case c : cases) {
                Clients.produceNumbered(clusters.source(), c.topic(), 1, c.newRecords());
            }
            for (Case c : cases) {
                Await.until(SYNCED, "the new incarnation of " + c.topic() + " mirrored", () ->
                        lastValue(clusters.destination(), c.mirrored()) == c.newRecords() - 1);
            }
            double mirroredSeconds = (System.nanoTime() - recreatedAt) / 1e9;
            // Sextant has read the new incarnation's syncs to the end: its last record translates into the new region
            for (Case c : cases) {
                long region = newRegion.get(c.topic());
                Await.until(SYNCED, "the syncs of the new " + c.topic() + " read", () ->
                        translation(client, c.topic(), c.newRecords() - 1) >= region);
            }

            // and has seen the recreation: no commit translates among the old incarnation's records any more. A commit
            // made in the second or so before that is written through the old syncs (replay, never a skip:
            // docs/reliability.md); this test is about what follows
            awaitTheRecreationSeen(client, cases, newRegion);
            double seenSeconds = (System.nanoTime() - recreatedAt) / 1e9;
            System.out.printf("recreated source topics: mirrored %.1f s and seen by Sextant %.1f s after the "
                    + "recreation%n", mirroredSeconds, seenSeconds);

            for (Case c : cases) {
                for (long commit : c.newCommits()) {
                    Clients.commit(clusters.source(), c.newGroup(commit), c.topic(), Map.of(0, commit));
                }
            }
            List<String> failures = new ArrayList<>();
            for (Case c : cases) {
                failures.addAll(judge(clusters, sextant, client, c, newRegion.get(c.topic()), mirroredSeconds));
                assertTheOldPositionStays(clusters, client, c, oldWritten.get(c.topic()));
            }
            System.out.printf("recreated source topics: %.1f s for the test%n", (System.nanoTime() - started) / 1e9);
            assertEquals(List.of(), failures);
        }
    }

    /** Until Sextant translates no commit of the new incarnations among the old records. */
    private static void awaitTheRecreationSeen(SextantClient client, List<Case> cases, Map<String, Long> newRegion) {
        for (Case c : cases) {
            long region = newRegion.get(c.topic());
            for (long commit : c.newCommits()) {
                Await.until(SYNCED, "the recreation of " + c.topic() + " seen at " + commit, () -> {
                    long t = translation(client, c.topic(), commit);
                    return t < 0 || t >= region;
                });
            }
        }
    }

    private static void mirrorTheOldIncarnations(LocalClusters clusters, List<Case> cases) {
        for (Case c : cases) {
            clusters.createTopic(clusters.source(), c.topic(), 1);
            Clients.produceNumbered(clusters.source(), c.topic(), 1, OLD_RECORDS);
        }
        for (Case c : cases) {
            clusters.awaitMirrored(c.topic(), SYNCED);
            Await.until(SYNCED, "a MirrorMaker 2 sync of " + c.topic() + " near its end", () ->
                    Clients.mirrorMakerSyncs(clusters.source(), c.topic(), 0).stream().anyMatch(u -> u >= 900));
        }
    }

    /** Deletes the source topics (the coordinator tombstones the old group's offsets) and creates them again. */
    private static void deleteAndCreateAgain(LocalClusters clusters, SextantClient client, List<Case> cases)
            throws Exception {
        try (Admin source = clusters.admin(clusters.source())) {
            source.deleteTopics(cases.stream().map(Case::topic).toList()).all().get(30, TimeUnit.SECONDS);
            for (Case c : cases) {
                Await.until(SYNCED, c.topic() + " deleted", () -> !names(source).contains(c.topic()));
            }
            for (Case c : cases) {
                Await.until(SYNCED, "Sextant forgot " + c.oldGroup(), () -> !knows(client, c.oldGroup()));
            }
            for (Case c : cases) {
                Await.until(SYNCED, c.topic() + " created again",
                        () -> TopicRecreation.tryCreate(source, c.topic()));
            }
        }
    }

    /** The old incarnation's group: forgotten by Sextant, its destination offset where it was before the deletion. */
    private static void assertTheOldPositionStays(LocalClusters clusters, SextantClient client, Case c,
                                                  long writtenBefore) {
        OffsetAndMetadata old = Clients.committed(clusters, clusters.destination(), c.oldGroup(),
                c.mirrored()).get(0);
        System.out.printf("recreated %s: the old incarnation's commit %d stays at %s on the destination%n",
                c.topic(), OLD_COMMIT, old == null ? "no offset" : Long.toString(old.offset()));
        assertEquals((Long) writtenBefore, old == null ? null : old.offset(), c.oldGroup()
                + ": the deleted topic's position does not move the destination");
        assertTrue(!knows(client, c.oldGroup()), c.oldGroup() + " forgotten");
    }

    /**
     * Where each commit on the new incarnation was written and what a consumer resuming there reads: the failures
     * (a skip, a position past the exact one, one below the new incarnation's records).
     */
    private static List<String> judge(LocalClusters clusters, SextantInstance sextant, SextantClient client, Case c,
                                      long region, double mirroredSeconds) {
        long mirrorEnd = end(clusters, clusters.destination(), c.mirrored());
        List<Integer> newValues = values(clusters.destination(), c.mirrored(), region, mirrorEnd);
        Set<Integer> onTheMirror = new HashSet<>(newValues);
        System.out.printf("recreated %s: old incarnation %d records on the mirror at [0, %d), the new one's %d "
                + "records from %d to %d (%d of them not on the mirror, %d copied twice), mirrored %.1f s after the "
                + "recreation; %.0f syncs skipped as copied again, %.0f refused%n", c.topic(), OLD_RECORDS, region,
                c.newRecords(), region, mirrorEnd, c.newRecords() - onTheMirror.size(),
                newValues.size() - onTheMirror.size(), mirroredSeconds,
                count(sextant, "sextant.offset.syncs.remirrored"), count(sextant, "sextant.offset.syncs.rejected"));
        List<String> failures = new ArrayList<>();
        for (long commit : c.newCommits()) {
            String group = c.newGroup(commit);
            // MirrorMaker 2 copies the new incarnation from its old position on (apache/kafka#22248) unless its task
            // noticed the deletion in time: only records that never reached the mirror make a commit untranslatable
            if (commit < c.newRegionFrom() && LongStream.range(commit, c.newRegionFrom())
                    .anyMatch(v -> !onTheMirror.contains((int) v))) {
                judgeUntranslatable(clusters, client, c, commit).ifPresent(failures::add);
                continue;
            }
            long written = awaitWrittenOrReported(clusters, client, group, c.mirrored());
            if (written < 0) {
                // the new incarnation's syncs read before the recreation was told were forgotten with the old ones:
                // not translated, and said so (never written past a record, never reported clean)
                System.out.printf("recreated %s: commit %d on the new incarnation reported UNTRANSLATABLE, not "
                        + "written: the syncs that covered it were forgotten with the old incarnation's%n",
                        c.topic(), commit);
                continue;
            }
            int firstAtOrAbove = 0;
            while (firstAtOrAbove < newValues.size() && newValues.get(firstAtOrAbove) < commit) {
                firstAtOrAbove++;
            }
            long exact = region + firstAtOrAbove;
            List<Integer> read = Clients.resumeAndReadToEnd(clusters.destination(), group, c.mirrored(),
                    Map.of(0, mirrorEnd)).get(0);
            // the records read from the new region on: offsets are contiguous, so the i-th value read is at
            // written + i
            List<Integer> readNew = read.subList((int) Math.max(0, region - written), read.size());
            Set<Integer> skipped = new HashSet<>();
            for (int v : onTheMirror) {
                if (v >= commit) {
                    skipped.add(v);
                }
            }
            skipped.removeAll(readNew);
            long neverMirrored = LongStream.range(commit, c.newRecords()).filter(v -> !onTheMirror.contains((int) v))
                    .count();
            System.out.printf("recreated %s: commit %d on the new incarnation written at %d (new records from %d, "
                    + "exact %d): %d records replayed (%d of the old incarnation), %d skipped; %d new records after "
                    + "the commit never mirrored%n", c.topic(), commit, written, region, exact,
                    Math.max(0, exact - written), Math.max(0, region - written), skipped.size(), neverMirrored);
            if (!skipped.isEmpty()) {
                failures.add(group + " at " + written + " skipped " + skipped.size() + " records");
            }
            if (written > exact) {
                failures.add(group + " at " + written + " is past the exact " + exact);
            }
            if (written < region) {
                failures.add(group + " at " + written + " is below the new incarnation's records at " + region
                        + " (replays the old incarnation)");
            }
        }
        return failures;
    }

    /** Where the group was written, or -1 once Sextant reports its partition {@code UNTRANSLATABLE} instead. */
    private static long awaitWrittenOrReported(LocalClusters clusters, SextantClient client, String group,
                                               String topic) {
        return Await.value(SYNCED, group + " written or reported UNTRANSLATABLE", () -> {
            OffsetAndMetadata om = Clients.committed(clusters, clusters.destination(), group, topic).get(0);
            if (om != null) {
                return om.offset();
            }
            return "UNTRANSLATABLE".equals(status(client, group)) ? -1L : null;
        });
    }

    /**
     * The group's destination offset once written and settled: the same for 2 s (a position first written bounded is
     * written again exact once the records prove its interval).
     */
    private static long awaitWritten(LocalClusters clusters, String group, String topic) {
        long[] seen = {-1, 0}; // offset, since (nanos)
        return Await.value(SYNCED, group + " written and settled", () -> {
            OffsetAndMetadata om = Clients.committed(clusters, clusters.destination(), group, topic).get(0);
            if (om == null) {
                return null;
            }
            if (om.offset() != seen[0]) {
                seen[0] = om.offset();
                seen[1] = System.nanoTime();
                return null;
            }
            return System.nanoTime() - seen[1] >= Duration.ofSeconds(2).toNanos() ? om.offset() : null;
        });
    }

    /** Sextant's translation of a source offset, or -1 when it has none. */
    private static long translation(SextantClient client, String topic, long offset) {
        try {
            return client.translate(topic, 0, offset).destinationOffset();
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /**
     * A commit whose records from it up to the old position never reached the mirror: the failure, if Sextant does
     * not report it {@code UNTRANSLATABLE}.
     */
    private static Optional<String> judgeUntranslatable(LocalClusters clusters, SextantClient client, Case c,
                                                        long commit) {
        String group = c.newGroup(commit);
        long started = System.nanoTime();
        boolean reported = reportedUntranslatable(client, group);
        OffsetAndMetadata there = Clients.committed(clusters, clusters.destination(), group, c.mirrored()).get(0);
        System.out.printf("recreated %s: commit %d on the new incarnation, below the old syncs: %s after %.1f s "
                + "(destination offset %s)%n", c.topic(), commit, status(client, group),
                (System.nanoTime() - started) / 1e9, there == null ? "none" : there.offset());
        return reported ? Optional.empty() : Optional.of(group + " at " + commit + " is " + status(client, group)
                + ", not UNTRANSLATABLE: the old incarnation's syncs translated it");
    }

    private static boolean reportedUntranslatable(SextantClient client, String group) {
        try {
            Await.until(SYNCED, group + " reported UNTRANSLATABLE", () -> "UNTRANSLATABLE".equals(
                    status(client, group)));
            return true;
        } catch (AssertionError e) {
            return false;
        }
    }

    /** The status Sextant reports for the group's partition 0, or null when it has none. */
    private static String status(SextantClient client, String group) {
        try {
            return client.group(group).partitions().stream().filter(p -> p.partition() == 0)
                    .map(SextantClient.Partition::status).findFirst().orElse(null);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Whether Sextant holds a position of the group. */
    private static boolean knows(SextantClient client, String group) {
        try {
            return !client.group(group).partitions().isEmpty();
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static Set<String> names(Admin admin) {
        try {
            return admin.listTopics().names().get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long end(LocalClusters clusters, LocalKafkaBroker cluster, String topic) {
        return clusters.endOffsets(cluster, topic).getOrDefault(0, 0L);
    }

    /** The values of partition 0's records at {@code [from, to)}. */
    private static List<Integer> values(LocalKafkaBroker cluster, String topic, long from, long to) {
        TopicPartition tp = new TopicPartition(topic, 0);
        List<Integer> out = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(cluster.clientProperties(),
                new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(List.of(tp));
            consumer.seek(tp, from);
            long deadline = System.nanoTime() + SYNCED.toNanos();
            while (consumer.position(tp) < to) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("could not read " + topic + " from " + from + " to " + to);
                }
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.offset() < to) {
                        out.add(Integer.parseInt(r.value()));
                    }
                }
            }
        }
        return out;
    }

    /** The value of partition 0's last record, or -1. */
    private static long lastValue(LocalKafkaBroker cluster, String topic) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(cluster.clientProperties(),
                new StringDeserializer(), new StringDeserializer())) {
            TopicPartition tp = new TopicPartition(topic, 0);
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            if (end == 0) {
                return -1;
            }
            List<Integer> last = new ArrayList<>();
            consumer.assign(List.of(tp));
            consumer.seek(tp, end - 1);
            consumer.poll(Duration.ofSeconds(5)).forEach(r -> last.add(Integer.parseInt(r.value())));
            return last.isEmpty() ? -1 : last.get(last.size() - 1);
        }
    }

    private static double count(SextantInstance sextant, String name) {
        Counter counter = sextant.registry().find(name).counter();
        return counter == null ? 0 : counter.count();
    }
}
