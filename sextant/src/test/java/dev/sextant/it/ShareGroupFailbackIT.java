package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import dev.sextant.testing.Cli;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.LocalKafkaBroker;
import dev.sextant.testkit.LocalMirrorMaker;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A share group's failback (issue 48, items 5 and 4c): synced A to B by a forward Sextant, consumed on B after a
 * failover, then moved home by the Sextant {@code sextant failback-config} derives (B to A, through the forward flow's
 * syncs, inverted) and {@code sextant cutover} of that Sextant. On B the share coordinator leaves the stored start
 * offset (what the cutover's fence reads) below the effective one the sync keeps; the cutover ends {@code CUT_OVER}
 * all the same, and the group's consumers on A resume at or before where they stopped on B, none skipped.
 */
@ExtendWith(LocalClustersExtension.class)
class ShareGroupFailbackIT {

    private static final String ORDERS = "sfb-orders";
    private static final String MIRROR = LocalMirrorMaker.mirroredTopic(ORDERS);
    private static final String GROUP = "sfb-queue";
    private static final String FORWARD = "sextant-it-sfb";
    private static final Duration SYNCED = Duration.ofSeconds(90);

    @Test
    void aShareGroupFailedOverToBGoesHomeToAAndIsCutOver(LocalClusters clusters) throws Exception {
        clusters.createTopic(clusters.source(), ORDERS, 2);
        clusters.produceMirroredFromFirstSyncs(ORDERS, 2, 1_000, SYNCED); // every offset translates

        // A -> B: the share group synced to B, then its consumers fail over there and consume on
        Map<Integer, Long> onB;
        try (SextantInstance forward = SextantInstance.start(clusters, FORWARD, Map.of("groups.include", "sfb-.*"))) {
            Clients.shareFromEarliest(clusters, clusters.source(), GROUP);
            Map<Integer, Long> onA = prefix(Clients.consumeShare(clusters.source(), GROUP, ORDERS, 600), Map.of());
            onB = awaitApplied(forward, ORDERS, onA, clusters, clusters.destination(), MIRROR);
        }
        Map<Integer, SortedSet<Long>> consumedOnB = Clients.consumeShare(clusters.destination(), GROUP, MIRROR, 600);
        Map<Integer, Long> stoppedOnB = prefix(consumedOnB, onB);
        Map<Integer, Long> storedOnB = Clients.shareStartOffsets(clusters, clusters.destination(), GROUP, MIRROR);

        // B -> A: the Sextant failback-config derives from the forward file
        Path forwardFile = Files.createTempFile("sextant-share-forward", ".properties");
        Files.writeString(forwardFile, "source.bootstrap.servers=" + clusters.source().bootstrapServers()
                + "\ndestination.bootstrap.servers=" + clusters.destination().bootstrapServers()
                + "\napplication.id=" + FORWARD + "\ngroups.include=sfb-.*\n");
        Cli.Run derived = Cli.run("failback-config", "-c", forwardFile.toString());
        assertEquals(0, derived.exit(), derived.toString());
        Properties failback = new Properties();
        failback.load(new StringReader(derived.out()));
        Path stateDir = Files.createTempDirectory("sextant-it-share-failback");
        Map<String, Object> appended = Map.of("query.listen", "127.0.0.1:0", "state.dir", stateDir.toString(),
                "sync.interval.ms", "100", "sync.pending.timeout.ms", "3000", "streams.num.stream.threads", "1");
        Map<String, Object> properties = new HashMap<>();
        failback.stringPropertyNames().forEach(k -> properties.put(k, failback.getProperty(k)));
        properties.putAll(appended);
        try (SextantInstance home = SextantInstance.start(properties, stateDir)) {
            Map<Integer, Long> onAAgain = awaitApplied(home, MIRROR, stoppedOnB, clusters, clusters.source(), ORDERS);
            Path failbackFile = Files.createTempFile("sextant-share-failback", ".properties");
            StringBuilder file = new StringBuilder(derived.out());
            appended.forEach((k, v) -> file.append(k).append('=').append(v).append('\n'));
            Files.writeString(failbackFile, file.toString());

            long started = System.nanoTime();
            Cli.Run cut = Cli.run("cutover", "-c", failbackFile.toString(), "--url",
                    "http://" + home.app().queryAddress(), "--group", GROUP, "--fence-check", "2s", "--timeout",
                    "20s", "--apply", "-o", "json");
            long tookMs = Duration.ofNanos(System.nanoTime() - started).toMillis();
            JsonNode result = new ObjectMapper().readTree(cut.out()).get("groups").get(0);
            assertEquals("CUT_OVER", result.get("status").asText(), "the share group is cut over home: " + cut);
            assertEquals(0, cut.exit(), cut.toString());

            // its consumers on A resume at or before where they stopped on B, and read on to the end
            Map<Integer, Long> firstOnA = readShareToEnd(clusters, onAAgain);
            for (int p : stoppedOnB.keySet()) {
                assertTrue(firstOnA.getOrDefault(p, 1_000L) <= stoppedOnB.get(p), ORDERS + "-" + p
                        + " resumes at or before " + stoppedOnB.get(p) + ": " + firstOnA.get(p));
            }
            System.out.printf("share failback: %s stopped on B at %s (stored start offsets there %s), home on A at "
                    + "%s, first records read there %s; cut over in %d ms (fence 2 s)%n", GROUP, stoppedOnB,
                    storedOnB, onAAgain, firstOnA, tookMs);
        }
    }

    /**
     * Per partition, the first offset at or above {@code from} (0 where absent) that was not acknowledged: where the
     * group's effective start offset stands; partitions without progress are left out.
     */
    private static Map<Integer, Long> prefix(Map<Integer, SortedSet<Long>> acked, Map<Integer, Long> from) {
        Map<Integer, Long> out = new HashMap<>();
        acked.forEach((p, offsets) -> {
            long next = from.getOrDefault(p, 0L);
            while (offsets.contains(next)) {
                next++;
            }
            if (next > 0) {
                out.put(p, next);
            }
        });
        from.forEach(out::putIfAbsent);
        return out;
    }

    /**
     * Waits until {@code sextant} applied {@code effective} (by partition of its source topic {@code topic}) on its
     * destination; returns the start offsets there.
     */
    private static Map<Integer, Long> awaitApplied(SextantInstance sextant, String topic, Map<Integer, Long> effective,
                                                   LocalClusters clusters,
                                                   LocalKafkaBroker destination,
                                                   String destinationTopic) {
        try {
            return Await.value(SYNCED, GROUP + " applied on " + destinationTopic, () -> {
                Map<Integer, Long> there = Clients.shareStartOffsets(clusters, destination, GROUP, destinationTopic);
                boolean all = effective.entrySet().stream().allMatch(e -> {
                    PartitionPosition p = sextant.app().positions().get(new PositionKey(GROUP, topic, e.getKey()));
                    return p != null && p.sourceOffset() == e.getValue() && p.status() == PositionStatus.APPLIED
                            && Long.valueOf(p.appliedOffset()).equals(there.get(e.getKey()));
                });
                return all ? there : null;
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; expected " + effective + "; positions: "
                    + sextant.app().positions().group(GROUP) + "; there: "
                    + Clients.shareStartOffsets(clusters, destination, GROUP, destinationTopic), e);
        }
    }

    /** A share consumer on A reads until every record from its start offsets to the end was delivered once. */
    private static Map<Integer, Long> readShareToEnd(LocalClusters clusters, Map<Integer, Long> starts) {
        Map<String, Object> props = new HashMap<>(clusters.source().clientProperties());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP);
        Map<Integer, Set<Long>> delivered = new HashMap<>();
        starts.keySet().forEach(p -> delivered.put(p, new HashSet<>()));
        try (KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(ORDERS));
            Await.until(SYNCED, "every record from the start offsets to the end delivered on A", () -> {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    delivered.computeIfAbsent(r.partition(), p -> new HashSet<>()).add(r.offset());
                }
                return starts.entrySet().stream().allMatch(e -> {
                    for (long o = e.getValue(); o < 1_000; o++) {
                        if (!delivered.get(e.getKey()).contains(o)) {
                            return false;
                        }
                    }
                    return true;
                });
            });
        }
        Map<Integer, Long> first = new HashMap<>();
        delivered.forEach((p, offsets) -> {
            if (!offsets.isEmpty()) {
                first.put(p, new TreeSet<>(offsets).first());
            }
        });
        return first;
    }
}
