package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.client.SextantClient;
import dev.sextant.testing.Cli;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.AddedBroker;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalMirrorMaker;
import io.micrometer.core.instrument.Counter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ElectionNotNeededException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * A mirror partition truncated for real (issue 48, item 2): the destination has two more brokers holding the mirror
 * partition (replication factor 2, {@code min.insync.replicas=1}); its follower is stopped, MirrorMaker 2 copies the
 * source's records 1,000 to 1,499 to the leader alone, a group commits there and Sextant writes it exact; then the
 * leader is stopped, the follower elected uncleanly, and the old leader started again gives up what only it had: the
 * mirror ends at 1,000 again, same topic id, and MirrorMaker 2 refills it with the source's records from 1,500 on.
 * The destination offset Sextant wrote (through syncs the truncation contradicts) now holds a record the group never
 * read; kept, its consumers would skip what lies between.
 *
 * <p>What must happen: the position is planned again through the syncs that are left, written at or below where the
 * mirror went back (the old exact offset is no floor), so a consumer resuming there skips none of the records the
 * mirror holds past its commit; neither {@code /v1/groups/G} nor {@code failover} calls it exact.
 *
 * <p>Clusters of its own: the test stops and starts brokers and MirrorMaker 2.
 */
class TruncatedMirrorIT {

    private static final String TOPIC = "truncated-ledger";
    private static final String MIRROR = LocalMirrorMaker.mirroredTopic(TOPIC);
    private static final TopicPartition MIRROR_0 = new TopicPartition(MIRROR, 0);
    private static final String GROUP = "truncated-app";
    private static final Duration SYNCED = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final LocalMirrorMaker.Options MIRROR_MAKER = LocalMirrorMaker.Options.builder()
            .topics("truncated-.*").groups("none").build();

    @Test
    void aPositionWrittenThroughSyncsATruncationContradictsIsWrittenAgainBelowIt() throws Exception {
        long started = System.nanoTime();
        // MirrorMaker 2 before the added brokers: its topics on the destination are made while node 1 is the only
        // broker there
        try (LocalClusters clusters = LocalClusters.builder().withoutMirrorMaker().start();
             LocalMirrorMaker mirrorMaker = mirrorMaker(clusters);
             AddedBroker two = AddedBroker.start(clusters.destination(), 2);
             AddedBroker three = AddedBroker.start(clusters.destination(), 3);
             Admin destination = clusters.admin(clusters.destination())) {
            try {
                destination.createTopics(List.of(new NewTopic(MIRROR, Map.of(0, List.of(2, 3)))
                        .configs(Map.of("min.insync.replicas", "1")))).all().get(30, TimeUnit.SECONDS);
                clusters.createTopic(clusters.source(), TOPIC, 1);
                Clients.produceNumbered(clusters.source(), TOPIC, 1, 1_000);
                clusters.awaitMirrored(TOPIC, SYNCED);
                Await.until(SYNCED, "node 2 leading, node 3 in sync", () -> leader(destination) == 2
                        && isr(destination).size() == 2);

                // node 3 stopped: MirrorMaker 2 copies 1,000 to 1,499 to node 2 alone
                three.stop();
                Clients.produceNumberedFrom(clusters.source(), TOPIC, 1, 1_000, 500);
                clusters.awaitMirrored(TOPIC, SYNCED);
                long commit = Await.value(SYNCED, "a MirrorMaker 2 sync between 1,100 and 1,499", () ->
                        Clients.mirrorMakerSyncs(clusters.source(), TOPIC, 0).stream()
                                .filter(u -> u >= 1_100 && u < 1_500).max(Long::compare).orElse(null));

                try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-truncated",
                        Map.of("groups.include", "truncated-.*"))) {
                    SextantClient client = SextantClient.create("http://" + sextant.app().queryAddress());
                    Clients.commit(clusters.source(), GROUP, TOPIC, Map.of(0, commit));
                    Await.until(SYNCED, GROUP + " written exact at " + commit, () -> {
                        OffsetAndMetadata om = committed(clusters);
                        return om != null && om.offset() == commit && om.metadata().contains(" b=0 ");
                    });

                    // node 2 stopped, node 3 elected uncleanly; node 2 back truncates to node 3's log
                    two.stop();
                    three.startAgain();
                    electUncleanly(destination);
                    Await.until(SYNCED, "node 3 leading", () -> leader(destination) == 3);
                    two.startAgain();
                    Await.until(SYNCED, "node 2 back in sync", () -> isr(destination).size() == 2);
                    assertEquals(1_000L, end(clusters), "the mirror truncated to node 3's log");

                    // MirrorMaker 2, which ran on through all this, copies the source's next records from 1,000 on
                    Clients.produceNumberedFrom(clusters.source(), TOPIC, 1, 1_500, 500);
                    Await.until(SYNCED, "the source's 1,500 to 1,999 at 1,000 to 1,499", () -> end(clusters) == 1_500);
                    Await.until(SYNCED, "the syncs the truncation contradicts forgotten", () ->
                            count(sextant, "sextant.offset.syncs.contradicted") >= 1);

                    // written again through what is left: below the truncation, and not exact
                    long written = writtenBelowTheTruncation(clusters, commit);
                    List<Integer> read = Clients.resumeAndReadToEnd(clusters.destination(), GROUP, MIRROR,
                            Map.of(0, 1_500L)).get(0);
                    // the first record it reads is at or before its commit, or the first one the mirror holds past
                    // it: the source's records from the commit to 1,499 went with the truncation
                    assertTrue(read.get(0) <= commit || read.get(0) == 1_500, GROUP + " resumes at " + written
                            + " on record " + read.get(0) + ", past its commit " + commit);
                    Set<Integer> missing = new HashSet<>();
                    for (int v = 1_500; v < 2_000; v++) {
                        missing.add(v);
                    }
                    missing.removeAll(read);
                    assertTrue(missing.isEmpty(), "records skipped: " + missing);

                    SextantClient.Partition served = client.group(GROUP).partitions().get(0);
                    assertEquals("APPLIED", served.status(), served.toString());
                    assertNotEquals("exact", served.precision(), "served: " + served);
                    assertEquals(written, served.translatedOffset(), "served: " + served);
                    JsonNode failover = failover(clusters);
                    assertNotEquals("exact", failover.path("precision").asText(), "failover: " + failover);
                    assertEquals(written, failover.path("offset").asLong(), "failover: " + failover);
                    System.out.printf("truncated mirror: commit %d written exact at %d; mirror truncated to 1000 and "
                            + "refilled; written again at %d (record %d, bound %d); %.0f syncs forgotten; %d s%n",
                            commit, commit, written, read.get(0), served.bound(),
                            count(sextant, "sextant.offset.syncs.contradicted"),
                            TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
                }
            } finally {
                mirrorMaker.close(); // before the brokers it writes to
            }
        }
    }

    /** Node 3, the only replica up, elected leader though it is behind (unless the controller already did). */
    private static void electUncleanly(Admin destination) throws Exception {
        Optional<Throwable> refused = destination.electLeaders(ElectionType.UNCLEAN, Set.of(MIRROR_0)).partitions()
                .get(30, TimeUnit.SECONDS).get(MIRROR_0);
        if (refused.isPresent() && !(refused.get() instanceof ElectionNotNeededException)) {
            throw new AssertionError("the unclean election was refused", refused.get());
        }
    }

    /** The group's destination offset once written at or below 1,000; fails naming what it holds otherwise. */
    private static long writtenBelowTheTruncation(LocalClusters clusters, long commit) {
        try {
            return Await.value(SYNCED, GROUP + " written again below the truncation", () -> {
                OffsetAndMetadata om = committed(clusters);
                return om != null && om.offset() <= 1_000 ? om.offset() : null;
            });
        } catch (AssertionError timedOut) {
            OffsetAndMetadata om = committed(clusters);
            throw new AssertionError(GROUP + " still at " + om.offset() + " ('" + om.metadata() + "'), on the "
                    + "source's record " + valueAt(clusters, om.offset()) + ": past its commit " + commit, timedOut);
        }
    }

    /** The value of the mirror's record at {@code offset} (the source offset it was produced at), or -1. */
    private static long valueAt(LocalClusters clusters, long offset) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(clusters.destination().clientProperties(),
                new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(List.of(MIRROR_0));
            consumer.seek(MIRROR_0, offset);
            List<ConsumerRecord<String, String>> records = consumer.poll(Duration.ofSeconds(5)).records(MIRROR_0);
            return records.isEmpty() ? -1 : Long.parseLong(records.get(0).value());
        }
    }

    private static LocalMirrorMaker mirrorMaker(LocalClusters clusters) {
        return LocalMirrorMaker.start(clusters.source().bootstrapServers(), clusters.destination().bootstrapServers(),
                MIRROR_MAKER, null);
    }

    /** The dry run of {@code failover} with the source gone: the group's partition as the destination's mark says. */
    private static JsonNode failover(LocalClusters clusters) throws Exception {
        Path config = Files.createTempFile("sextant-truncated", ".properties");
        Files.writeString(config, "source.bootstrap.servers=" + clusters.source().bootstrapServers()
                + "\ndestination.bootstrap.servers=" + clusters.destination().bootstrapServers()
                + "\napplication.id=sextant-it-truncated\n");
        Cli.Run run = Cli.run("failover", "-c", config.toString(), "--group", GROUP, "--json", "--no-instance");
        JsonNode report = JSON.readTree(run.out());
        return report.path("results").get(0).path("partitions").get(0);
    }

    private static OffsetAndMetadata committed(LocalClusters clusters) {
        return Clients.committed(clusters, clusters.destination(), GROUP, MIRROR).get(0);
    }

    private static long end(LocalClusters clusters) {
        try {
            return clusters.endOffsets(clusters.destination(), MIRROR).getOrDefault(0, -1L);
        } catch (RuntimeException e) {
            return -1;
        }
    }

    private static int leader(Admin admin) {
        return describe(admin).flatMap(d -> Optional.ofNullable(d.partitions().get(0).leader())).map(n -> n.id())
                .orElse(-1);
    }

    private static List<Integer> isr(Admin admin) {
        return describe(admin).map(d -> d.partitions().get(0).isr().stream().map(n -> n.id()).toList())
                .orElse(List.of());
    }

    private static Optional<TopicDescription> describe(Admin admin) {
        try {
            return Optional.of(admin.describeTopics(List.of(MIRROR)).allTopicNames().get(10, TimeUnit.SECONDS)
                    .get(MIRROR));
        } catch (Exception e) {
            return Optional.empty(); // asked again
        }
    }

    private static double count(SextantInstance sextant, String name) {
        Counter counter = sextant.registry().find(name).counter();
        return counter == null ? 0 : counter.count();
    }
}
