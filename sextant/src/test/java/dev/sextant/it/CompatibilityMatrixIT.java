package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.client.SextantClient;
import dev.sextant.client.SextantClientException;
import dev.sextant.testing.KafkaStreamsApp;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.KafkaDistribution;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalMirrorMaker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Kafka versions Sextant is tested against, beyond the 4.4.0 brokers and MirrorMaker 2 4.3.1 of every other test:
 * Sextant reads internal record formats that carry no compatibility promise, and a disaster-recovery pair is often
 * upgraded one side at a time. Each row starts its own pair of brokers (jars resolved from Maven Central by version)
 * and MirrorMaker 2, and checks the sync end to end: a group's commits on the source are written on the mirror with
 * Sextant's mark, and a consumer resuming there reads every record from the commit on (replay allowed, no skip).
 */
class CompatibilityMatrixIT {

    private static final String TOPIC = "compat-ledger";
    private static final int PARTITIONS = 2;
    private static final int RECORDS = 1_000;
    private static final Duration SYNCED = Duration.ofSeconds(90);
    private static final List<String> RESULTS = new ArrayList<>();

    static Stream<Arguments> matrix() {
        return Stream.of(
                Arguments.of("3.9.2", "3.9.2", "3.9.2"),
                Arguments.of("4.0.2", "4.0.2", "4.3.1"),
                Arguments.of("4.2.1", "4.2.1", "4.3.1"),
                // upgraded one side at a time: an old source mirrored to a new destination
                Arguments.of("3.9.2", "4.4.0", "4.3.1"));
    }

    @ParameterizedTest(name = "source {0}, destination {1}, MirrorMaker 2 {2}")
    @MethodSource("matrix")
    void commitsAreSyncedAndAResumingConsumerSkipsNothing(String source, String destination, String mirror)
            throws Exception {
        long started = System.nanoTime();
        try (LocalClusters clusters = LocalClusters.builder()
                .sourceBrokerDistribution(KafkaDistribution.broker(source))
                .brokerDistribution(KafkaDistribution.broker(destination))
                .mirrorMaker(LocalMirrorMaker.Options.builder()
                        .distribution(KafkaDistribution.mirrorMaker(mirror)).build())
                .readyTimeout(Duration.ofSeconds(240))
                .start()) {
            double startup = (System.nanoTime() - started) / 1e9;
            clusters.createTopic(clusters.source(), TOPIC, PARTITIONS);
            Clients.produceNumbered(clusters.source(), TOPIC, PARTITIONS, RECORDS);
            clusters.awaitMirrored(TOPIC, SYNCED);
            String mirrored = LocalMirrorMaker.mirroredTopic(TOPIC);
            try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-compat",
                    Map.of("groups.include", "compat-.*"))) {
                long synced = System.nanoTime();
                Map<Integer, Long> commit = Map.of(0, 600L, 1, 750L);
                Clients.commit(clusters.source(), "compat-app", TOPIC, commit);
                Map<Integer, OffsetAndMetadata> there = Await.value(SYNCED, "compat-app written by Sextant", () -> {
                    Map<Integer, OffsetAndMetadata> offsets = Clients.committed(clusters, clusters.destination(),
                            "compat-app", mirrored);
                    return offsets.size() == PARTITIONS && offsets.entrySet().stream().allMatch(e ->
                            e.getValue().metadata().endsWith(" src=" + commit.get(e.getKey()))) ? offsets : null;
                });
                double latency = (System.nanoTime() - synced) / 1e9;
                Map<Integer, List<Integer>> read = Clients.resumeAndReadToEnd(clusters.destination(), "compat-app",
                        mirrored, Map.of(0, (long) RECORDS, 1, (long) RECORDS));
                long replayed = 0;
                for (int p = 0; p < PARTITIONS; p++) {
                    Set<Integer> values = new HashSet<>(read.get(p));
                    for (long v = commit.get(p); v < RECORDS; v++) {
                        assertTrue(values.contains((int) v), "partition " + p + ": record " + v + " skipped");
                    }
                    // where it resumed: what Sextant wrote first, or closer once the records proved the interval
                    long first = read.get(p).get(0);
                    assertTrue(first >= there.get(p).offset() && first <= commit.get(p), "resumed at " + first);
                    replayed += commit.get(p) - first;
                    assertEquals(RECORDS - first, read.get(p).size(), "read from the offset on, once");
                }
                String streams = destination.startsWith("4.2.")
                        ? ", " + aStreamsGroupIsRefusedOnKafka42(clusters, sextant, mirrored) : "";
                String row = String.format("source %s, destination %s, MirrorMaker 2 %s: clusters up in %.0f s, "
                        + "commits on the mirror %.1f s after they were made, %d records replayed, none skipped%s, "
                        + "%.0f s in all", source, destination, mirror, startup, latency, replayed, streams,
                        (System.nanoTime() - started) / 1e9);
                RESULTS.add(row);
                System.out.println("compatibility: " + row);
            }
        }
    }

    /**
     * A Kafka Streams application on the streams protocol commits on the source: a destination on Kafka 4.2, whose
     * 4.2.0 loses the offsets of a group converted to a streams group (KAFKA-20254) and which a client cannot tell
     * from 4.2.1, is refused (DESTINATION_UNSUPPORTED) and written nothing.
     */
    private static String aStreamsGroupIsRefusedOnKafka42(LocalClusters clusters, SextantInstance sextant,
                                                          String mirrored) throws Exception {
        String app = "compat-kstreams";
        try (KafkaStreamsApp streams = new KafkaStreamsApp(clusters.source(), app, "streams", TOPIC)) {
            Await.until(SYNCED, app + " read and committed on the source", () -> streams.readUpTo(PARTITIONS, RECORDS)
                    && Clients.committed(clusters, clusters.source(), app, TOPIC).values().stream()
                    .filter(om -> om.offset() == RECORDS).count() == PARTITIONS);
        }
        SextantClient client = SextantClient.builder("http://" + sextant.app().queryAddress())
                .deadline(Duration.ofSeconds(10)).build();
        Await.until(SYNCED, app + " refused as DESTINATION_UNSUPPORTED", () -> {
            try {
                List<SextantClient.Partition> partitions = client.group(app).partitions();
                return partitions.size() == PARTITIONS && partitions.stream().allMatch(p ->
                        "DESTINATION_UNSUPPORTED".equals(p.status()));
            } catch (SextantClientException e) {
                return false;
            }
        });
        assertTrue(Clients.committed(clusters, clusters.destination(), app, mirrored).isEmpty(),
                "nothing written for the streams group");
        return "a streams group refused (DESTINATION_UNSUPPORTED)";
    }

    @AfterAll
    static void printMatrix() {
        System.out.println("compatibility matrix:\n  " + String.join("\n  ", RESULTS));
    }
}
