package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.client.SextantClient;
import dev.sextant.deadletter.DeadLetterReader;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.Reason;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testing.TopicRecreation;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalKafkaBroker;
import dev.sextant.testkit.LocalMirrorMaker;
import io.micrometer.core.instrument.Counter;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Offset syncs that do not move forward together (edge 5 of the no-silent-loss work), made by a real MirrorMaker 2:
 *
 * <ul>
 *   <li>killed under load and restarted, it copies again the records after its last committed offset, and its syncs
 *       come with the upstream behind the newest one and the downstream ahead. That is normal: no
 *       {@code INVALID_OFFSET_SYNC}, and a consumer resuming from any commit reads every record;</li>
 *   <li>restarted onto a recreated mirror topic, it writes from downstream 0 again while the upstream goes on: the
 *       older syncs point past the new log's records and are forgotten, so a lagging commit is not written past the
 *       records the new log holds.</li>
 * </ul>
 *
 * <p>Clusters of its own: the test kills and restarts MirrorMaker 2.
 */
class MirrorMakerRestartIT {

    private static final Duration SYNCED = Duration.ofSeconds(60);
    private static final LocalMirrorMaker.Options MIRROR = LocalMirrorMaker.Options.builder()
            .topics("remirror-.*|rewind-.*").groups("none").build();

    private static LocalClusters clusters;
    private static LocalMirrorMaker mirrorMaker;

    @BeforeAll
    static void start() {
        clusters = LocalClusters.builder().withoutMirrorMaker().start();
        mirrorMaker = startMirrorMaker();
    }

    @AfterAll
    static void stop() {
        if (mirrorMaker != null) {
            mirrorMaker.close();
        }
        if (clusters != null) {
            clusters.close();
        }
    }

    private static LocalMirrorMaker startMirrorMaker() {
        return LocalMirrorMaker.start(clusters.source().bootstrapServers(), clusters.destination().bootstrapServers(),
                MIRROR, null);
    }

    @Test
    void mirrorMakerCopyingAgainAfterACrashIsNotPoisonAndLosesNothing() throws Exception {
        String topic = "remirror-ledger";
        String mirrored = LocalMirrorMaker.mirroredTopic(topic);
        clusters.createTopic(clusters.source(), topic, 1);
        Clients.produceNumbered(clusters.source(), topic, 1, 2_000);
        clusters.awaitMirrored(topic, SYNCED);
        try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-remirror",
                Map.of("groups.include", "remirror-.*"))) {
            // under load (about 5,000 records a second), MirrorMaker 2 is killed and restarted
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread load = new Thread(() -> {
                try {
                    for (int first = 2_000; first < 22_000; first += 500) {
                        Clients.produceNumberedFrom(clusters.source(), topic, 1, first, 500);
                        Thread.sleep(50); // pacing the load, not a wait for a condition
                    }
                } catch (Throwable e) {
                    failed.set(e);
                }
            }, "remirror-load");
            load.start();
            Await.until(SYNCED, "the mirror halfway through the load", () ->
                    end(clusters.destination(), mirrored) >= 10_000);
            ProcessHandle.of(mirrorMaker.pid()).ifPresent(ProcessHandle::destroyForcibly);
            mirrorMaker.close();
            mirrorMaker = startMirrorMaker();
            load.join(TimeUnit.MINUTES.toMillis(2));
            assertEquals(null, failed.get(), "the load");

            long sourceEnd = end(clusters.source(), topic);
            Await.until(SYNCED, "everything mirrored", () -> lastValue(clusters.destination(), mirrored)
                    == sourceEnd - 1);
            long destinationEnd = end(clusters.destination(), mirrored);
            assertTrue(destinationEnd > sourceEnd, "MirrorMaker 2 copied records again after the kill (destination "
                    + destinationEnd + ", source " + sourceEnd + ")");
            Await.until(SYNCED, "MirrorMaker 2's syncs re-copied and skipped", () ->
                    count(sextant, "sextant.offset.syncs.remirrored") >= 1);

            // groups resuming at every stretch: before the kill, around it, after it
            List<Long> commits = List.of(1_500L, 8_000L, 10_000L, 12_000L, 16_000L, sourceEnd - 10);
            for (long commit : commits) {
                Clients.commit(clusters.source(), "remirror-at-" + commit, topic, Map.of(0, commit));
            }
            for (long commit : commits) {
                String group = "remirror-at-" + commit;
                long written = Await.value(SYNCED, group + " written", () -> {
                    OffsetAndMetadata om = Clients.committed(clusters, clusters.destination(), group, mirrored).get(0);
                    return om == null ? null : om.offset();
                });
                List<Integer> read = Clients.resumeAndReadToEnd(clusters.destination(), group, mirrored,
                        Map.of(0, destinationEnd)).get(0);
                Set<Integer> missing = new HashSet<>();
                for (long v = commit; v < sourceEnd; v++) {
                    missing.add((int) v);
                }
                missing.removeAll(read);
                assertTrue(missing.isEmpty(), group + " resumed at " + written + " and skipped " + missing.size()
                        + " records");
                System.out.printf("MirrorMaker 2 restart: commit %d resumed at %d on a mirror of %d records (source "
                        + "%d), %d records read, none skipped%n", commit, written, destinationEnd, sourceEnd,
                        read.size());
            }
            assertEquals(0.0, count(sextant, "sextant.offset.syncs.rejected"), "no sync refused");
            try (DeadLetterReader reader = new DeadLetterReader(clusters.source().clientProperties(),
                    "sextant.conflicts")) {
                List<DeadLetterRecord> invalid = reader.readToEnd(Duration.ofSeconds(10)).stream()
                        .filter(r -> r.reason() == Reason.INVALID_OFFSET_SYNC).toList();
                assertTrue(invalid.isEmpty(), "INVALID_OFFSET_SYNC dead letters: " + invalid);
            }
            System.out.printf("MirrorMaker 2 restart: %.0f re-copied syncs skipped, 0 refused%n",
                    count(sextant, "sextant.offset.syncs.remirrored"));
        }
    }

    @Test
    void aRecreatedMirrorTopicForgetsTheSyncsThatPointPastItsRecords() throws Exception {
        String topic = "rewind-ledger";
        String mirrored = LocalMirrorMaker.mirroredTopic(topic);
        clusters.createTopic(clusters.source(), topic, 1);
        Clients.produceNumbered(clusters.source(), topic, 1, 1_000);
        clusters.awaitMirrored(topic, SYNCED);
        Await.until(SYNCED, "a MirrorMaker 2 sync near the end", () ->
                Clients.mirrorMakerSyncs(clusters.source(), topic, 0).stream().anyMatch(u -> u >= 900));
        try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-rewind",
                Map.of("groups.include", "rewind-.*"))) {
            SextantClient client = SextantClient.builder("http://" + sextant.app().queryAddress())
                    .deadline(Duration.ofSeconds(10)).build();
            Await.until(SYNCED, "the history read", () -> translates(client, topic, 950));

            // the mirror topic is recreated: MirrorMaker 2 goes on from upstream 1000, writing at downstream 0
            mirrorMaker.close();
            try (Admin destination = clusters.admin(clusters.destination())) {
                destination.deleteTopics(List.of(mirrored)).all().get(30, TimeUnit.SECONDS);
                Await.until(SYNCED, mirrored + " created again",
                        () -> TopicRecreation.tryCreate(destination, mirrored));
            }
            mirrorMaker = startMirrorMaker();
            Clients.produceNumberedFrom(clusters.source(), topic, 1, 1_000, 500);
            Await.until(SYNCED, "the new records mirrored", () -> end(clusters.destination(), mirrored) == 500);
            // forgotten as a whole when the mirror's new topic id is seen first, else sync by sync as contradicted
            Await.until(SYNCED, "the old mirror's syncs forgotten", () ->
                    count(sextant, "sextant.offset.syncs.contradicted") >= 1
                            || count(sextant, "sextant.offset.sync.history.resets") >= 1);

            // a consumer still reading the old records on the source: none of them is on the new mirror log, so
            // any position past 0 would skip records the mirror holds
            Clients.commit(clusters.source(), "rewind-lagging", topic, Map.of(0, 950L));
            Clients.commit(clusters.source(), "rewind-current", topic, Map.of(0, 1_200L));
            long current = Await.value(SYNCED, "rewind-current written", () -> {
                OffsetAndMetadata om = Clients.committed(clusters, clusters.destination(), "rewind-current", mirrored)
                        .get(0);
                return om == null ? null : om.offset();
            });
            assertTrue(current <= 200, "1200 is at most downstream 200 of the new log: " + current);
            Await.until(SYNCED, "Sextant knows rewind-lagging", () -> knows(client, "rewind-lagging", 950));
            OffsetAndMetadata lagging = Clients.committed(clusters, clusters.destination(), "rewind-lagging", mirrored)
                    .get(0);
            assertTrue(lagging == null || lagging.offset() == 0, "rewind-lagging is not written past the new log's "
                    + "first record: " + lagging);
            System.out.printf("recreated mirror topic: %.0f contradicted syncs forgotten; commit 1200 at %d, commit "
                    + "950 at %s%n", count(sextant, "sextant.offset.syncs.contradicted"), current,
                    lagging == null ? "no offset" : Long.toString(lagging.offset()));
        }
    }

    private static boolean translates(SextantClient client, String topic, long offset) {
        try {
            return client.translate(topic, 0, offset).destinationOffset() > 0;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static boolean knows(SextantClient client, String group, long sourceOffset) {
        try {
            return client.group(group).partitions().stream().anyMatch(p -> p.sourceOffset() == sourceOffset);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The value of the last record of partition 0 (the source offset it was produced at), or -1. */
    private static long lastValue(LocalKafkaBroker cluster, String topic) {
        long end = end(cluster, topic);
        if (end == 0) {
            return -1;
        }
        TopicPartition tp = new TopicPartition(topic, 0);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(cluster.clientProperties(),
                new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(List.of(tp));
            consumer.seek(tp, end - 1);
            ConsumerRecords<String, String> records = consumer.poll(Duration.ofSeconds(5));
            return records.isEmpty() ? -1 : Long.parseLong(records.records(tp).get(records.count() - 1).value());
        }
    }

    private static long end(LocalKafkaBroker cluster, String topic) {
        try {
            return clusters.endOffsets(cluster, topic).getOrDefault(0, 0L);
        } catch (RuntimeException e) {
            return 0;
        }
    }

    private static double count(SextantInstance sextant, String name) {
        Counter counter = sextant.registry().find(name).counter();
        return counter == null ? 0 : counter.count();
    }
}
