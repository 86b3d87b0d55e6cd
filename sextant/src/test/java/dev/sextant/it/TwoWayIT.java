package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.deadletter.DeadLetterReader;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.decode.ConsumerOffsetsDecoder;
import dev.sextant.decode.ConsumerOffsetsRecord;
import dev.sextant.decode.UndecodableRecordException;
import dev.sextant.domain.Reason;
import dev.sextant.testing.Cli;
import dev.sextant.testing.LiveConsumer;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.LocalKafkaBroker;
import dev.sextant.testkit.LocalMirrorMaker;
import io.micrometer.core.instrument.Counter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two-way mirrors without loops (issue 37, item 3): two MirrorMaker 2 flows (A to B, B to A) and a Sextant in each
 * direction run for a minute under load, with groups live on A, on B, on both, and on B reading the mirror of A's
 * topic. The rule: a commit that carries any Sextant's mark is the other direction's write, never synced back; a
 * commit on a mirror of the target's own topic (its records came from there) is not synced; a group with members on
 * the target is never written. Measured from both clusters' {@code __consumer_offsets}: no Sextant write lands on the
 * cluster a group's offsets came from, no live group is written, and no dead letter reports the other direction's work.
 * A cutover to A of the group that read the mirror of A's topic on B is refused at once, saying why (issue 48, item
 * 4b): the B-to-A sync never moves those partitions, so waiting for it could only run out.
 */
@ExtendWith(LocalClustersExtension.class)
class TwoWayIT {

    private static final String A_TOPIC = "tw-a-orders";
    private static final String B_TOPIC = "tw-b-orders";
    private static final String A_MIRROR = LocalMirrorMaker.mirroredTopic(A_TOPIC);
    private static final String B_MIRROR = LocalMirrorMaker.DESTINATION_ALIAS + "." + B_TOPIC;
    /** This test's groups: the shared clusters hold other test classes' groups too. */
    private static final String PREFIX = "tw-";
    private static final String ON_A = "tw-a";
    private static final String ON_B = "tw-b";
    private static final String ON_BOTH = "tw-both";
    private static final String READER = "tw-reader"; // on B, reads the mirror of A's topic
    private static final String FORWARD = "tw-fwd";
    private static final String REVERSE = "tw-rev";
    private static final Duration RUN = Duration.ofSeconds(60);
    private static final Duration SYNCED = Duration.ofSeconds(90);

    @Test
    void bothDirectionsRunWithoutSendingAGroupBackOrWritingALiveOne(LocalClusters clusters) throws Exception {
        clusters.createTopic(clusters.source(), A_TOPIC, 2);
        clusters.createTopic(clusters.destination(), B_TOPIC, 2);
        Path stateDir = Files.createTempDirectory("sextant-it-two-way");
        double forwardLeft;
        double backLeft;
        double readerLeft;
        long cutoverMs;
        String refusal;
        Map<String, Object> reverseConfig = new HashMap<>(Map.of(
                "source.bootstrap.servers", clusters.destination().bootstrapServers(),
                "destination.bootstrap.servers", clusters.source().bootstrapServers(),
                "source.alias", LocalMirrorMaker.DESTINATION_ALIAS, "destination.alias", LocalMirrorMaker.SOURCE_ALIAS,
                "application.id", REVERSE, "groups.include", "tw-.*", "state.dir", stateDir.toString(),
                "query.listen", "127.0.0.1:0", "sync.interval.ms", "100", "sync.pending.timeout.ms", "3000"));
        reverseConfig.put("streams.num.stream.threads", "1");
        try (LocalMirrorMaker reverse = LocalMirrorMaker.start(clusters.source().clientProperties(),
                clusters.destination().clientProperties(), LocalMirrorMaker.Options.builder().reverse(true)
                        .topics("tw-b-.*").build(), null);
             Producer onA = new Producer(clusters.source(), A_TOPIC);
             Producer onB = new Producer(clusters.destination(), B_TOPIC)) {
            Await.until(SYNCED, "both topics mirrored", () -> !clusters.endOffsets(clusters.destination(), A_MIRROR)
                    .isEmpty() && !clusters.endOffsets(clusters.source(), B_MIRROR).isEmpty());
            // both flows' first syncs of every partition before any consumer starts (at the log end, so above them):
            // an offset below a partition's oldest sync has no translation, and would be an UNTRANSLATABLE dead letter
            for (int partition : List.of(0, 1)) {
                Await.until(SYNCED, "syncs of partition " + partition + " both ways", () ->
                        !Clients.mirrorMakerSyncs(clusters.source(), A_TOPIC, partition).isEmpty()
                        && !Clients.mirrorMakerSyncPairs(clusters.destination(), "mm2-offset-syncs.source.internal",
                                B_TOPIC, partition).isEmpty());
            }
            try (SextantInstance forward = SextantInstance.start(clusters, FORWARD, Map.of("groups.include", "tw-.*"));
                 SextantInstance back = SextantInstance.start(reverseConfig, stateDir);
                 LiveConsumer a = new LiveConsumer(clusters.source(), ON_A, A_TOPIC);
                 LiveConsumer b = new LiveConsumer(clusters.destination(), ON_B, B_TOPIC);
                 LiveConsumer bothOnA = new LiveConsumer(clusters.source(), ON_BOTH, A_TOPIC);
                 LiveConsumer bothOnB = new LiveConsumer(clusters.destination(), ON_BOTH, B_TOPIC);
                 LiveConsumer reader = new LiveConsumer(clusters.destination(), READER, A_MIRROR)) {
                long start = System.nanoTime();
                Await.until(RUN.plusSeconds(30), "both directions ran for " + RUN.toSeconds() + " s", () ->
                        System.nanoTime() - start >= RUN.toNanos());
                Await.until(SYNCED, ON_A + " synced to B and " + ON_B + " to A", () ->
                        !marks(clusters.destination(), ON_A).isEmpty() && !marks(clusters.source(), ON_B).isEmpty());
                forwardLeft = filtered(forward, "sextant-mark");
                backLeft = filtered(back, "sextant-mark");
                readerLeft = filtered(back, "from-destination");
                System.out.printf("two-way: %d s, A->B wrote %d offsets of %s on B, B->A wrote %d of %s on A; "
                        + "%d and %d commits of the other direction left alone; consumers committed %d/%d/%d/%d/%d "
                        + "times%n", RUN.toSeconds(), marks(clusters.destination(), ON_A).size(),
                        ON_A, marks(clusters.source(), ON_B).size(), ON_B, (long) forwardLeft, (long) backLeft,
                        a.commits(), b.commits(), bothOnA.commits(),
                        bothOnB.commits(), reader.commits());

                // item 4b: the sync never moves a mirror of its destination's own topic, so the cutover does not
                // wait for it: refused at once, with what to do
                reader.close();
                awaitEmpty(clusters, READER);
                Path file = Files.createTempFile("sextant-two-way-reverse", ".properties");
                StringBuilder lines = new StringBuilder();
                reverseConfig.forEach((k, v) -> lines.append(k).append('=').append(v).append('\n'));
                Files.writeString(file, lines.toString());
                long started = System.nanoTime();
                Cli.Run cut = Cli.run("cutover", "-c", file.toString(), "--url", "http://" + back.app().queryAddress(),
                        "--group", READER, "--fence-check", "1s", "--timeout", "20s", "--apply", "-o", "json");
                cutoverMs = (System.nanoTime() - started) / 1_000_000;
                JsonNode result = new ObjectMapper().readTree(cut.out()).get("groups").get(0);
                assertEquals("NOT_SYNCED", result.get("status").asText(), cut.toString());
                assertTrue(result.get("message").asText().contains("mirrors of the destination's own topics"),
                        "the refusal says why: " + cut.out());
                assertTrue(cutoverMs < 15_000, "refused at once, not after the 20 s timeout: " + cutoverMs + " ms");
                refusal = result.get("message").asText();
            }
        }
        // every Sextant write on A is B->A's, of a group from B, on a mirror of B's topic; and the other way round
        Map<String, List<String>> onA = sextantWrites(clusters.source());
        Map<String, List<String>> onB = sextantWrites(clusters.destination());
        assertEquals(Set.of(ON_B), onA.keySet(), "on A only " + ON_B + " is written, by " + REVERSE + ": " + onA);
        assertEquals(Set.of(ON_A), onB.keySet(), "on B only " + ON_A + " is written, by " + FORWARD + ": " + onB);
        onA.get(ON_B).forEach(w -> assertTrue(w.startsWith(B_MIRROR + " sextant/" + REVERSE + " "), w));
        onB.get(ON_A).forEach(w -> assertTrue(w.startsWith(A_MIRROR + " sextant/" + FORWARD + " "), w));

        // no dead letter for the other direction's work; the group live on both sides is only ever refused, by the
        // guards: members there, or (between two of its rebalances) offsets its consumers there committed
        List<DeadLetterRecord> deadLetters = new ArrayList<>(deadLetters(clusters.source()));
        deadLetters.addAll(deadLetters(clusters.destination()));
        for (DeadLetterRecord r : deadLetters) {
            assertTrue(ON_BOTH.equals(r.group()) && (r.reason() == Reason.GROUP_ACTIVE
                    || r.reason() == Reason.DESTINATION_DIVERGED),
                    "only the group live on both sides is refused: " + r);
        }
        System.out.printf("two-way: dead letters %s%n", deadLetters.stream().map(r -> r.group() + " " + r.reason())
                .toList());
        assertTrue(forwardLeft > 0, "A->B saw B->A's writes on A and left them");
        assertTrue(backLeft > 0, "B->A saw A->B's writes on B and left them");
        assertTrue(readerLeft > 0, READER + "'s commits on the mirror of A's topic are not sent to A");
        System.out.printf("two-way: the cutover of %s to A refused in %d ms: %s%n", READER, cutoverMs, refusal);
    }

    /** Waits until the group has no members on B: its consumer left. */
    private static void awaitEmpty(LocalClusters clusters, String group) {
        try (Admin admin = clusters.admin(clusters.destination())) {
            Await.until(SYNCED, group + " empty on B", () -> {
                try {
                    return admin.describeConsumerGroups(List.of(group)).all().get(5, TimeUnit.SECONDS).get(group)
                            .groupState() == GroupState.EMPTY;
                } catch (Exception e) {
                    return false;
                }
            });
        }
    }

    private static double filtered(SextantInstance sextant, String by) {
        Counter counter = sextant.registry().find("sextant.records.filtered").tag("by", by).counter();
        return counter == null ? 0 : counter.count();
    }

    /** The Sextant-marked commits of {@code group} on {@code cluster}. */
    private static List<String> marks(LocalKafkaBroker cluster, String group) {
        return sextantWrites(cluster).getOrDefault(group, List.of());
    }

    /**
     * Every commit of this test's groups in the cluster's {@code __consumer_offsets} that carries a Sextant mark, as
     * "topic metadata" (the clusters are shared with other test classes, whose Sextants write their own groups).
     */
    private static Map<String, List<String>> sextantWrites(LocalKafkaBroker cluster) {
        Map<String, List<String>> writes = new TreeMap<>();
        Map<String, Object> props = new HashMap<>(cluster.clientProperties());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(Topic.GROUP_METADATA_TOPIC_NAME).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                assertTrue(System.nanoTime() < deadline, "read __consumer_offsets to its end");
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    try {
                        if (record.key() != null && ConsumerOffsetsDecoder.decode(record.key(), record.value())
                                instanceof ConsumerOffsetsRecord.OffsetCommit c && c.metadata() != null
                                && c.metadata().startsWith("sextant/") && c.group().startsWith(PREFIX)) {
                            writes.computeIfAbsent(c.group(), g -> new ArrayList<>())
                                    .add(c.topic() + " " + c.metadata());
                        }
                    } catch (UndecodableRecordException e) {
                        // a record kind this release does not decode: not an offset commit
                    }
                }
            }
        }
        return writes;
    }

    /** This test's dead letters: the clusters, and their dead-letter topic, are shared with other test classes. */
    private static List<DeadLetterRecord> deadLetters(LocalKafkaBroker cluster) {
        try (DeadLetterReader reader = new DeadLetterReader(cluster.clientProperties(), "sextant.conflicts")) {
            return reader.readToEnd(Duration.ofSeconds(10)).stream()
                    .filter(r -> r.group() != null && r.group().startsWith(PREFIX)).toList();
        }
    }

    /** Produces numbered records to both partitions of a topic, about 100 a second each, until closed. */
    private static final class Producer implements AutoCloseable {

        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        Producer(LocalKafkaBroker cluster, String topic) {
            thread = new Thread(() -> {
                try (KafkaProducer<String, String> producer = new KafkaProducer<>(cluster.clientProperties(),
                        new StringSerializer(), new StringSerializer())) {
                    for (int i = 0; running.get(); i++) {
                        producer.send(new ProducerRecord<>(topic, i % 2, null, Integer.toString(i)));
                        if (i % 20 == 19) {
                            producer.flush();
                            pause(); // about 100 records a second per partition
                        }
                    }
                }
            }, "two-way-producer-" + topic);
            thread.start();
        }

        private static void pause() {
            try {
                Thread.sleep(100); // rate pacing, not a wait for a condition
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join(30_000);
        }
    }
}
