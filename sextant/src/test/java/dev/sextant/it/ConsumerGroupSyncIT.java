package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.cli.SextantCommand;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.Reason;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.testing.DeadLetters;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.OrdersTopic;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Consumer-group sync on real clusters with real MirrorMaker 2 ({@code offset.lag.max=100}): the failover scenarios
 * of the consumer-group sync issue, each with its own topics and groups.
 */
@ExtendWith(LocalClustersExtension.class)
class ConsumerGroupSyncIT {

    /** MirrorMaker 2's offset.lag.max in the shared clusters: the sync spacing a resumed consumer may replay. */
    private static final long SPACING = 100;
    private static final Duration SYNCED = Duration.ofSeconds(60);

    private static LocalClusters clusters;
    private static SextantInstance sextant;

    @BeforeAll
    static void start() {
        clusters = LocalClustersExtension.clusters();
        OrdersTopic.ensure(clusters);
        clusters.createTopic(clusters.source(), "orders-lag", 1);
        Clients.produceNumbered(clusters.source(), "orders-lag", 1, 20_000, 4_000);
        clusters.awaitMirrored("orders-lag", Duration.ofSeconds(60));
        sextant = SextantInstance.start(clusters, "sextant-it",
                Map.of("groups.include", "(billing|laggard|latency).*"));
    }

    @AfterAll
    static void stop() {
        if (sextant != null) {
            sextant.close();
        }
    }

    private static Map<Integer, OffsetAndMetadata> destinationOffsets(String group, String topic) {
        return Clients.committed(clusters, clusters.destination(), group, topic);
    }

    private static Map<Integer, OffsetAndMetadata> awaitSynced(String group, String topic, int partitions) {
        try {
            return Await.value(SYNCED, group + " synced on " + topic, () -> {
                Map<Integer, OffsetAndMetadata> offsets = destinationOffsets(group, topic);
                return offsets.size() == partitions ? offsets : null;
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; Sextant's positions: "
                    + sextant.app().positions().group(group) + "; destination: " + destinationOffsets(group, topic), e);
        }
    }

    @Test
    void failoverLosesNothingAndReplaysAtMostTheSyncSpacing() {
        Map<Integer, Long> committed = Map.of(0, 1_234L, 1, 2_001L, 2, 3_399L);
        Clients.commit(clusters.source(), "billing", "orders", committed);

        // Sextant syncs; wait until every partition holds the translation of what was committed
        Await.until(SYNCED, "billing synced", () -> {
            Map<Integer, OffsetAndMetadata> offsets = destinationOffsets("billing", "source.orders");
            return offsets.size() == 3 && offsets.values().stream().allMatch(om -> om.metadata().contains("src="))
                    && committed.entrySet().stream().allMatch(e ->
                    offsets.get(e.getKey()).metadata().endsWith("src=" + e.getValue()));
        });

        Map<Integer, Long> end = clusters.endOffsets(clusters.destination(), "source.orders");
        Map<Integer, List<Integer>> read = Clients.resumeAndReadToEnd(clusters.destination(), "billing",
                "source.orders", end);
        for (int p = 0; p < 3; p++) {
            List<Integer> values = read.get(p);
            long sourceCommit = committed.get(p);
            int first = values.get(0);
            int replayed = (int) (sourceCommit - first);
            List<Long> syncs = Clients.mirrorMakerSyncs(clusters.source(), "orders", p);
            long floor = syncs.stream().filter(u -> u <= sourceCommit).mapToLong(Long::longValue).max().orElse(0);
            long next = syncs.stream().filter(u -> u > floor).mapToLong(Long::longValue).min().orElse(sourceCommit + 1);
            long spacing = next - floor; // what MirrorMaker 2 actually emitted around the commit
            System.out.printf("billing orders-%d: committed %d, resumed at record %d, replayed %d; MirrorMaker 2's "
                    + "syncs around it: %d and %d (spacing %d, offset.lag.max %d)%n", p, sourceCommit, first,
                    replayed, floor, next, spacing, SPACING);
            assertTrue(first <= sourceCommit, "no record after the commit is skipped");
            // MirrorMaker 2 keeps to offset.lag.max only while it keeps up (it delays syncs beyond 10 in flight);
            // the replay is bounded by the spacing it actually emitted, which is offset.lag.max on a quiet machine
            assertTrue(replayed < Math.max(spacing, SPACING + 1),
                    "replayed " + replayed + " > sync spacing " + spacing);
            for (int i = 0; i < values.size(); i++) {
                assertEquals(first + i, values.get(i), "records arrive without a gap");
            }
            assertEquals(3_400, first + values.size(), "read to the end: 0 lost");
        }
    }

    @Test
    void aConsumerFarBehindTranslatesWithinTheSyncSpacing() {
        long committed = 2_345; // 17,655 records behind the head, with ~175 syncs after it
        Clients.commit(clusters.source(), "laggard", "orders-lag", Map.of(0, committed));
        OffsetAndMetadata synced = awaitSynced("laggard", "source.orders-lag", 1).get(0);

        long exact = committed; // MirrorMaker 2 copies 1:1 into a fresh topic: record i sits at offset i
        long replay = exact - synced.offset();
        List<Long> syncs = Clients.mirrorMakerSyncs(clusters.source(), "orders-lag", 0);
        long floor = syncs.stream().filter(u -> u <= committed).mapToLong(Long::longValue).max().orElse(0);
        long next = syncs.stream().filter(u -> u > floor).mapToLong(Long::longValue).min().orElse(committed + 1);
        long spacing = Math.max(next - floor, SPACING + 1); // what MirrorMaker 2 emitted (offset.lag.max when quiet)
        System.out.printf("laggard: committed %d (head 20000), destination %d, replay %d; MirrorMaker 2's syncs "
                + "around it: %d and %d%n", committed, synced.offset(), replay, floor, next);
        assertTrue(synced.offset() <= exact, "never overshoots");
        assertTrue(replay < spacing, "replay " + replay + " > sync spacing " + spacing);
        // Sextant reads the same syncs: it translates with MirrorMaker 2's newest sync at or below the commit, or a
        // closer one (the topic is compacted; Sextant's history is complete)
        assertTrue(replay <= committed - floor,
                "replay " + replay + " > " + (committed - floor) + " (sync at " + floor + ")");
        PartitionPosition position = positionOf("laggard", "orders-lag", 0);
        assertTrue(position.bound() < spacing, "reported bound " + position.bound());
        assertTrue(replay <= position.bound() || position.bound() == 0 && replay == 0);
    }

    private static PartitionPosition positionOf(String group, String topic, int partition) {
        return Await.value(SYNCED, "position of " + group, () -> sextant.app().positions()
                .get(new PositionKey(group, topic, partition)));
    }

    @Test
    void neverTouchesAGroupThatIsActiveOnTheDestination() throws Exception {
        String group = "billing-active";
        Clients.commit(clusters.source(), group, "orders", Map.of(0, 1_000L, 1, 1_000L, 2, 1_000L));
        Map<Integer, OffsetAndMetadata> before = awaitSynced(group, "source.orders", 3);

        AtomicBoolean running = new AtomicBoolean(true);
        Thread member = new Thread(() -> runDestinationMember(group, running), "destination-member");
        member.start();
        try {
            awaitDestinationState(group, GroupState.STABLE);
            Clients.commit(clusters.source(), group, "orders", Map.of(0, 2_000L, 1, 2_000L, 2, 2_000L));
            DeadLetterRecord record = awaitDeadLetter(group, Reason.GROUP_ACTIVE);
            assertEquals("consumer", record.groupType());
            assertEquals(before, destinationOffsets(group, "source.orders"), "an active group is never written");
        } finally {
            running.set(false);
            member.join(30_000);
        }
        // it left; the offsets there are still Sextant's own, so syncing resumes
        Await.until(SYNCED, group + " synced again", () -> destinationOffsets(group, "source.orders").values()
                .stream().allMatch(om -> om.metadata().endsWith("src=2000")));
    }

    private static void runDestinationMember(String group, AtomicBoolean running) {
        Map<String, Object> props = new HashMap<>(clusters.destination().clientProperties());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false); // reads, never commits: offsets stay Sextant's
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of("source.orders"));
            while (running.get()) {
                consumer.poll(Duration.ofMillis(100));
            }
        }
    }

    private static void awaitDestinationState(String group, GroupState state) {
        try (Admin admin = clusters.admin(clusters.destination())) {
            Await.until(SYNCED, group + " " + state + " on the destination", () -> {
                try {
                    return admin.describeConsumerGroups(List.of(group)).all().get(5, TimeUnit.SECONDS).get(group)
                            .groupState() == state;
                } catch (Exception e) {
                    return false;
                }
            });
        }
    }

    private static DeadLetterRecord awaitDeadLetter(String group, Reason reason) {
        return DeadLetters.await(clusters, group, reason, SYNCED);
    }

    @Test
    void aShareGroupOfTheSameNameOnTheDestinationIsATypeConflict() throws Exception {
        String group = "billing-shared";
        try (Admin admin = clusters.admin(clusters.destination())) {
            admin.alterShareGroupOffsets(group, Map.of(new TopicPartition("source.orders", 0), 0L)).all()
                    .get(30, TimeUnit.SECONDS); // creates the share group there
        }
        Clients.commit(clusters.source(), group, "orders", Map.of(0, 500L));
        Clients.commit(clusters.source(), "billing-neighbour", "orders", Map.of(0, 500L));

        DeadLetterRecord record = awaitDeadLetter(group, Reason.TYPE_CONFLICT);
        assertEquals(500L, record.partitions().get(0).sourceOffset());
        awaitSynced("billing-neighbour", "source.orders", 1);
        assertTrue(destinationOffsets(group, "source.orders").isEmpty(), "nothing written across types");

        // and the operator sees it with `sextant conflicts`
        Path config = Files.createTempFile("sextant-it", ".properties");
        Files.writeString(config, "source.bootstrap.servers=" + clusters.source().bootstrapServers()
                + "\ndestination.bootstrap.servers=" + clusters.destination().bootstrapServers() + "\n");
        StringWriter table = new StringWriter();
        picocli.CommandLine cli = SextantCommand.commandLine();
        cli.setOut(new PrintWriter(table));
        assertEquals(0, cli.execute("conflicts", "-c", config.toString(), "--group", group));
        assertTrue(table.toString().contains("TYPE_CONFLICT") && table.toString().contains(group), table.toString());
        StringWriter json = new StringWriter();
        cli = SextantCommand.commandLine();
        cli.setOut(new PrintWriter(json));
        assertEquals(0, cli.execute("conflicts", "-c", config.toString(), "--group", group, "--json"));
        assertTrue(json.toString().contains("\"reason\":\"TYPE_CONFLICT\""), json.toString());
    }

    @Test
    void reportsTheMedianCommitToDestinationLatencyOfFiftyGroups() throws Exception {
        int groups = 50;
        Map<String, Long> committedAt = new HashMap<>();
        Map<String, Long> visibleAt = new HashMap<>();
        try (Admin source = clusters.admin(clusters.source());
             Admin destination = clusters.admin(clusters.destination())) {
            for (int i = 0; i < groups; i++) {
                String group = String.format("latency-%02d", i);
                source.alterConsumerGroupOffsets(group, Map.of(new TopicPartition("orders", 0),
                        new OffsetAndMetadata(1_000 + i))).all().get(10, TimeUnit.SECONDS);
                committedAt.put(group, System.currentTimeMillis());
            }
            long deadline = System.currentTimeMillis() + 30_000;
            while (visibleAt.size() < groups && System.currentTimeMillis() < deadline) {
                for (String group : committedAt.keySet()) {
                    if (visibleAt.containsKey(group)) {
                        continue;
                    }
                    OffsetAndMetadata om = destination.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                            .get(5, TimeUnit.SECONDS).get(new TopicPartition("source.orders", 0));
                    if (om != null) {
                        visibleAt.put(group, System.currentTimeMillis());
                    }
                }
            }
        }
        assertEquals(groups, visibleAt.size(), "every group synced");
        List<Long> latencies = new ArrayList<>();
        committedAt.forEach((g, t) -> latencies.add(visibleAt.get(g) - t));
        latencies.sort(null);
        long median = latencies.get(groups / 2);
        System.out.printf("commit -> destination-visible, %d groups: median %d ms, max %d ms "
                + "(includes this test's own polling; see bench/ for the measured figures)%n", groups, median,
                latencies.get(groups - 1));
        assertTrue(median < 10_000, "median " + median + " ms");
    }
}
