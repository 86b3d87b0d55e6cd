package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.client.SextantClient;
import dev.sextant.deadletter.DeadLetterReader;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.CoordinatorPartitions;
import dev.sextant.domain.Reason;
import dev.sextant.testing.BackwardsSampler;
import dev.sextant.testing.RecordedFormats;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.LocalKafkaBroker;
import dev.sextant.testkit.LocalMirrorMaker;
import io.micrometer.core.instrument.Counter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * An upgrade (issue 38, item 7): the current build starts on the state an older build left, and syncs on. There is no
 * released build to run, so the older state is made from the recorded formats ({@code upgrade/recorded-formats.txt},
 * each template named by the commit whose code wrote it): the test writes, where that build wrote them, the changelogs
 * of the position and group stores, the offset-sync history (syncs, both topic ids, the destination cluster's pin),
 * the cutovers, a dead letter, the marked offsets on the destination, and Sextant's own input offsets (it had read
 * {@code __consumer_offsets} and MirrorMaker 2's offset syncs to their ends). One group is as the 0.1.0 baseline
 * (15fc7f1) wrote it, one as a build of 2026-12-02 (e8b0495: positions without the commit's log offset, marks without
 * {@code o=} and {@code c=}) that a compacted changelog keeps until the group commits again, one was cut over.
 *
 * <p>The current build then starts, with real brokers and MirrorMaker 2, twice: on an empty state directory (a new pod,
 * or a lost volume: every store restored from the changelogs the older build wrote), then again on the state directory
 * that left (a rolling upgrade that keeps the volume: its stores hold the older build's values byte for byte, as a
 * restore copies them). The destination's offsets are sampled every 100 ms from before the first start: none may move
 * backwards; each time the restored groups show the positions the old build left; their next commits are written, in
 * the current mark; the cut-over group is not moved; nothing is dead-lettered or counted undecodable.
 */
@ExtendWith(LocalClustersExtension.class)
class UpgradeIT {

    private static final String APP = "sextant-it-upgrade";
    private static final String TOPIC = "upgrade-ledger";
    private static final int PARTITIONS = 2;
    private static final int RECORDS = 1_000;
    private static final String BASELINE = "upgrade-synced-15fc7f1";
    private static final String OLDER = "upgrade-synced-e8b0495";
    private static final String CUT_OVER = "upgrade-cut-over-15fc7f1";
    /** Where the older build had synced each group (every partition; the cut-over group partition 0 only). */
    private static final Map<String, Long> SYNCED = Map.of(BASELINE, 300L, OLDER, 400L, CUT_OVER, 500L);
    /** Where each group commits once the current build runs. */
    private static final Map<String, Long> NEXT = Map.of(BASELINE, 700L, OLDER, 800L, CUT_OVER, 900L);
    private static final String DEAD_LETTERS = APP + "-conflicts";
    private static final String OFFSET_SYNCS = "mm2-offset-syncs.destination.internal";

    private final RecordedFormats recorded = RecordedFormats.load();

    @Test
    void theCurrentBuildRestoresAnOlderBuildsStateAndSyncsOnWithoutMovingBack(LocalClusters clusters,
                                                                              @TempDir Path dir) throws Exception {
        String mirror = LocalMirrorMaker.mirroredTopic(TOPIC);
        clusters.createTopic(clusters.source(), TOPIC, PARTITIONS);
        clusters.produceMirroredFromFirstSyncs(TOPIC, PARTITIONS, RECORDS, Duration.ofSeconds(120));
        for (int p = 0; p < PARTITIONS; p++) {
            int partition = p;
            Await.until(Duration.ofSeconds(90), "MirrorMaker 2's sync of the last record of " + TOPIC + "-" + p,
                    () -> Clients.mirrorMakerSyncs(clusters.source(), TOPIC, partition).contains(RECORDS - 1L));
        }
        try (Admin source = clusters.admin(clusters.source());
             Admin destination = clusters.admin(clusters.destination())) {
            Run run = Run.of(source, destination, mirror);
            writeOlderBuildsState(clusters, source, destination, run);

            try (BackwardsSampler sampler = new BackwardsSampler(() -> offsetsOn(destination, mirror))) {
                Await.until(Duration.ofSeconds(30), "the destination sampled before the start",
                        () -> sampler.forwardMoves() >= PARTITIONS * 2 + 1);
                Path stateDir = dir.resolve("state");
                Map<String, Object> config = Map.of("groups.include", "upgrade-.*", "dlq.topic", DEAD_LETTERS);
                // a new pod: every store restored from the older build's changelogs into an empty state directory
                try (SextantInstance sextant = SextantInstance.start(clusters, APP, stateDir, config)) {
                    assertRestored(SextantClient.create("http://" + sextant.app().queryAddress()), "from changelogs");
                }
                // a rolling restart that keeps the volume: the stores open from the state directory, which holds the
                // older build's values byte for byte (a restore copies them), and nothing is restored
                try (SextantInstance sextant = SextantInstance.start(clusters, APP, stateDir, config)) {
                    assertRestored(SextantClient.create("http://" + sextant.app().queryAddress()),
                            "from the state directory");

                    commit(clusters.source(), NEXT);
                    Await.until(Duration.ofSeconds(120), "the next commits of the restored groups on the destination",
                            () -> {
                                Map<String, Long> there = offsetsOn(destination, mirror);
                                return List.of(BASELINE, OLDER).stream().allMatch(group -> partitions(group).stream()
                                        .allMatch(p -> NEXT.get(group).equals(there.get(group + "-" + p))));
                            });
                    for (String group : List.of(BASELINE, OLDER)) {
                        Map<TopicPartition, OffsetAndMetadata> written = destination.listConsumerGroupOffsets(group)
                                .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
                        written.values().forEach(o -> assertTrue(o.metadata().startsWith("sextant/" + APP + " c="
                                + run.sourceCluster() + " "), group + " written in the current mark: " + o));
                    }
                    List<DeadLetterRecord> letters = awaitDeadLetter(clusters.source(), CUT_OVER, Reason.CUT_OVER);
                    assertEquals(SYNCED.get(CUT_OVER), offsetsOn(destination, mirror).get(CUT_OVER + "-0"),
                            "the cut-over group is not moved by its zombie commit");
                    List<String> others = letters.stream()
                            .filter(r -> r.group().startsWith("upgrade-") && !"previous-build".equals(r.instance()))
                            .filter(r -> !(r.group().equals(CUT_OVER) && r.reason() == Reason.CUT_OVER))
                            .map(r -> r.group() + " " + r.reason() + ": " + r.detail()).toList();
                    assertEquals(List.of(), others, "dead letters of the upgrade");
                    double undecodable = sextant.registry().find("sextant.records.undecodable").counters().stream()
                            .mapToDouble(Counter::count).sum();
                    assertEquals(0, undecodable, "records the current build could not decode");
                }
                System.out.printf("upgrade: %d destination offsets sampled moving forwards, backwards: %s%n",
                        sampler.forwardMoves(), sampler.backwards());
                assertEquals(List.of(), sampler.backwards(), "destination offsets that moved backwards");
            }
        }
    }

    /** The groups stand where the older build left them, as the current build serves them. */
    private static void assertRestored(SextantClient client, String how) {
        for (String group : List.of(BASELINE, OLDER)) {
            List<SextantClient.Partition> restored = client.group(group).partitions();
            assertEquals(PARTITIONS, restored.size(), group + " " + how + ": " + restored);
            for (SextantClient.Partition p : restored) {
                assertEquals(SYNCED.get(group), p.sourceOffset(), group + " " + how + ": " + p);
                assertEquals(SYNCED.get(group), p.appliedOffset(), group + " " + how + ": " + p);
                assertEquals("APPLIED", p.status(), group + " " + how + ": " + p);
            }
        }
        assertNotNull(client.group(CUT_OVER).cutOver(), "the cutover the older build recorded, " + how);
        assertTrue(client.conflicts(BASELINE, 10).stream().anyMatch(c -> c.reason().equals("GROUP_ACTIVE")),
                "the older build's dead letter, read by the current one");
    }

    /** The run's values the recorded formats leave open: cluster and topic ids. */
    private record Run(String sourceCluster, String destinationCluster, Uuid topicId, Uuid mirrorId, String mirror) {

        static Run of(Admin source, Admin destination, String mirror) throws Exception {
            return new Run(source.describeCluster().clusterId().get(10, TimeUnit.SECONDS),
                    destination.describeCluster().clusterId().get(10, TimeUnit.SECONDS),
                    source.describeTopics(List.of(TOPIC)).allTopicNames().get(10, TimeUnit.SECONDS).get(TOPIC)
                            .topicId(),
                    destination.describeTopics(List.of(mirror)).allTopicNames().get(10, TimeUnit.SECONDS).get(mirror)
                            .topicId(),
                    mirror);
        }
    }

    /**
     * What an older build that had synced the three groups leaves: the groups' commits on the source, its topics and
     * changelogs there, its marked offsets on the destination, and its own input offsets at the ends it had read.
     */
    private void writeOlderBuildsState(LocalClusters clusters, Admin source, Admin destination, Run run)
            throws Exception {
        Map<String, Map<String, Object>> commits = new LinkedHashMap<>();
        int coordinatorPartitions = 0;
        for (String group : List.of(BASELINE, OLDER, CUT_OVER)) {
            commit(clusters.source(), Map.of(group, SYNCED.get(group)));
            Map<Integer, Long> ends = clusters.endOffsets(clusters.source(), Topic.GROUP_METADATA_TOPIC_NAME);
            coordinatorPartitions = ends.size();
            int coordinator = CoordinatorPartitions.partitionFor(group, coordinatorPartitions);
            // the commit's place in __consumer_offsets: the last record of its partition (the commit's own batch)
            long logOffset = ends.get(coordinator) - 1;
            Map<String, Object> values = new HashMap<>(Map.of("app", APP, "group", group, "topic", TOPIC,
                    "source", SYNCED.get(group), "destination", SYNCED.get(group), // a fresh mirror: same offsets
                    "commitTime", System.currentTimeMillis(), "appliedAt", System.currentTimeMillis(),
                    "commitLogOffset", logOffset, "sourceCluster", run.sourceCluster()));
            values.put("coordinator", coordinator);
            commits.put(group, values);
        }
        source.createTopics(List.of(
                compacted(APP + "-group-positions-changelog", coordinatorPartitions),
                compacted(APP + "-groups-changelog", coordinatorPartitions),
                compacted(APP + "-offset-sync-history", 1), compacted(APP + "-cutovers", 1),
                new NewTopic(DEAD_LETTERS, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(clusters.source().clientProperties(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            commits.forEach((group, values) -> {
                String era = group.equals(OLDER) ? "@e8b0495" : "@15fc7f1";
                int coordinator = (int) values.get("coordinator");
                for (int p : partitions(group)) {
                    Map<String, Object> partition = new HashMap<>(values);
                    partition.put("partition", p);
                    send(producer, APP + "-group-positions-changelog", coordinator, "position.applied" + era,
                            partition);
                }
                send(producer, APP + "-groups-changelog", coordinator, "group.consumer@15fc7f1", values);
            });
            String history = APP + "-offset-sync-history";
            for (int p = 0; p < PARTITIONS; p++) {
                for (long[] sync : Clients.mirrorMakerSyncPairs(clusters.source(), TOPIC, p)) {
                    send(producer, history, 0, "history.sync@15fc7f1", Map.of("topic", TOPIC, "partition", p,
                            "upstream", sync[0], "downstream", sync[1]));
                }
            }
            send(producer, history, 0, "history.incarnation@15fc7f1", Map.of("topic", TOPIC, "topicId", run.topicId()));
            send(producer, history, 0, "history.mirror-incarnation@15fc7f1",
                    Map.of("topic", TOPIC, "topicId", run.mirrorId()));
            send(producer, history, 0, "history.destination-cluster@15fc7f1",
                    Map.of("cluster", run.destinationCluster()));
            Map<String, Object> cut = new HashMap<>(commits.get(CUT_OVER));
            cut.putAll(Map.of("partition", 0, "cutAt", System.currentTimeMillis(), "fenceMs", 5_000L,
                    "destinationTopic", run.mirror()));
            send(producer, APP + "-cutovers", 0, "cutover.one-partition@15fc7f1", cut);
            Map<String, Object> letter = new HashMap<>(commits.get(BASELINE));
            letter.putAll(Map.of("partition", 0, "reason", "GROUP_ACTIVE", "detectedAt", System.currentTimeMillis(),
                    "detail", "the group had members on the destination", "instance", "previous-build"));
            send(producer, DEAD_LETTERS, 0, "dead-letter.one-partition@15fc7f1", letter);
            producer.flush();
        }
        for (String group : List.of(BASELINE, OLDER, CUT_OVER)) {
            String mark = recorded.template(group.equals(OLDER) ? "mark@e8b0495" : "mark@15fc7f1")
                    .text(commits.get(group));
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            partitions(group).forEach(p -> offsets.put(new TopicPartition(run.mirror(), p),
                    new OffsetAndMetadata(SYNCED.get(group), mark)));
            destination.alterConsumerGroupOffsets(group, offsets).all().get(30, TimeUnit.SECONDS);
        }
        // the older build had read its inputs to their ends (and committed there, as Kafka Streams does)
        Map<TopicPartition, OffsetAndMetadata> inputs = new HashMap<>();
        clusters.endOffsets(clusters.source(), Topic.GROUP_METADATA_TOPIC_NAME).forEach((p, end) ->
                inputs.put(new TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, p), new OffsetAndMetadata(end)));
        clusters.endOffsets(clusters.source(), OFFSET_SYNCS).forEach((p, end) ->
                inputs.put(new TopicPartition(OFFSET_SYNCS, p), new OffsetAndMetadata(end)));
        source.alterConsumerGroupOffsets(APP, inputs).all().get(30, TimeUnit.SECONDS);
    }

    private void send(KafkaProducer<byte[], byte[]> producer, String topic, int partition, String template,
                      Map<String, Object> values) {
        RecordedFormats.Template t = recorded.template(template);
        try {
            producer.send(new ProducerRecord<>(topic, partition, t.key(values), t.value(values)))
                    .get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot write " + template + " to " + topic, e);
        }
    }

    private static NewTopic compacted(String name, int partitions) {
        return new NewTopic(name, partitions, (short) 1)
                .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
    }

    /** The partitions a group commits on: the cut-over group, on partition 0 only. */
    private static List<Integer> partitions(String group) {
        List<Integer> partitions = new ArrayList<>();
        for (int p = 0; p < (group.equals(CUT_OVER) ? 1 : PARTITIONS); p++) {
            partitions.add(p);
        }
        return partitions;
    }

    private static void commit(LocalKafkaBroker source, Map<String, Long> offsets) {
        offsets.forEach((group, offset) -> {
            Map<Integer, Long> each = new HashMap<>();
            partitions(group).forEach(p -> each.put(p, offset));
            Clients.commit(source, group, TOPIC, each);
        });
    }

    /** Each group's offsets on the destination, keyed "group-partition". */
    private static Map<String, Long> offsetsOn(Admin destination, String mirror) {
        Map<String, Long> out = new HashMap<>();
        for (String group : List.of(BASELINE, OLDER, CUT_OVER)) {
            try {
                destination.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS)
                        .forEach((tp, o) -> {
                            if (o != null && tp.topic().equals(mirror)) {
                                out.put(group + "-" + tp.partition(), o.offset());
                            }
                        });
            } catch (Exception e) {
                // a sample the destination did not answer: the next one reads it
            }
        }
        return out;
    }

    /** Every dead letter on the instance's topic, once one of {@code group} with {@code reason} is among them. */
    private static List<DeadLetterRecord> awaitDeadLetter(LocalKafkaBroker source, String group, Reason reason) {
        try (DeadLetterReader reader = new DeadLetterReader(source.clientProperties(), DEAD_LETTERS)) {
            List<DeadLetterRecord> seen = new ArrayList<>(reader.readToEnd(Duration.ofSeconds(10)));
            Await.until(Duration.ofSeconds(60), reason + " dead letter of " + group, () -> {
                seen.addAll(reader.poll(Duration.ofMillis(100)));
                return seen.stream().anyMatch(r -> r.group().equals(group) && r.reason() == reason);
            });
            return seen;
        }
    }
}
