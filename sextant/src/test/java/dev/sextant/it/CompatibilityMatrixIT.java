package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sextant.client.SextantClient;
import dev.sextant.client.SextantClientException;
import dev.sextant.testing.ClientApplicationClasspath;
import dev.sextant.testing.KafkaStreamsApp;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.KafkaDistribution;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.LocalMirrorMaker;
import java.io.File;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
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
    /**
     * The application's own kafka-clients under the client library ({@code sextant-client} declares it
     * {@code provided}): the oldest line it supports and the last 3.x.
     */
    private static final List<String> APPLICATION_CLIENTS = List.of("3.0.2", "3.9.2");

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
     * The client library under an application's own, older kafka-clients: Maven gives an application of
     * {@code sextant-client} no kafka-clients of its own, and a child JVM with exactly that classpath plus
     * kafka-clients {@link #APPLICATION_CLIENTS} asks a running Sextant where a group resumes, translates an offset,
     * and fails a consumer over with {@code FailoverSeek} (assigned and subscribed): each reads its first record at
     * the offset Sextant gave, and skips none of the group's records.
     */
    @Test
    @ExtendWith(LocalClustersExtension.class)
    void theClientLibraryFailsAConsumerOverOnTheApplicationsOlderKafkaClients(LocalClusters clusters,
                                                                            @TempDir Path dir) throws Exception {
        List<Path> withoutKafka = ClientApplicationClasspath.resolve(List.of());
        assertEquals(List.of(), withoutKafka.stream().map(p -> p.getFileName().toString())
                .filter(n -> n.startsWith("kafka-")).toList(), "what sextant-client alone puts on an application's "
                + "classpath: " + withoutKafka);
        String topic = "compat-client-ledger";
        String group = "compat-client-app";
        clusters.createTopic(clusters.source(), topic, PARTITIONS);
        Clients.produceNumbered(clusters.source(), topic, PARTITIONS, RECORDS);
        clusters.awaitMirrored(topic, SYNCED);
        String mirrored = LocalMirrorMaker.mirroredTopic(topic);
        try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-compat-client",
                Map.of("groups.include", "compat-client-.*"))) {
            String url = "http://" + sextant.app().queryAddress();
            Map<Integer, Long> commit = Map.of(0, 600L, 1, 750L);
            Clients.commit(clusters.source(), group, topic, commit);
            SextantClient client = SextantClient.builder(url).deadline(Duration.ofSeconds(10)).build();
            Await.until(SYNCED, group + " translated by Sextant", () -> {
                try {
                    return client.offsets(group).size() == PARTITIONS;
                } catch (SextantClientException e) {
                    return false;
                }
            });
            for (String version : APPLICATION_CLIENTS) {
                long started = System.nanoTime();
                List<Path> classpath = ClientApplicationClasspath.resolve(
                        List.of("org.apache.kafka:kafka-clients:" + version));
                assertEquals(List.of("kafka-clients-" + version + ".jar"), classpath.stream()
                        .map(p -> p.getFileName().toString()).filter(n -> n.startsWith("kafka-")).toList());
                List<String> args = new ArrayList<>(List.of(url, clusters.destination().bootstrapServers(), group,
                        topic));
                for (int p = 0; p < PARTITIONS; p++) {
                    args.add(Long.toString(commit.get(p)));
                }
                // Sextant's answers only move forward (a later proof brings a bounded translation closer): the
                // child's lie between what this JVM reads before and after it
                Map<TopicPartition, Long> before = client.offsets(group);
                Map<Integer, Long> translatedBefore = translations(client, topic, commit);
                Map<String, String> out = runProbe(dir.resolve(version), classpath, args);
                Map<TopicPartition, Long> after = client.offsets(group);
                Map<Integer, Long> translatedAfter = translations(client, topic, commit);
                assertTrue(out.get("kafka-clients").endsWith("/kafka-clients-" + version + ".jar"),
                        "the child ran on the application's kafka-clients: " + out.get("kafka-clients"));
                for (int p = 0; p < PARTITIONS; p++) {
                    TopicPartition tp = new TopicPartition(mirrored, p);
                    long seek = Long.parseLong(out.get("offset " + mirrored + " " + p));
                    assertTrue(before.get(tp) <= seek && seek <= after.get(tp), version + ": offsets of " + tp
                            + ": " + seek + " not within " + before.get(tp) + ".." + after.get(tp));
                    long translated = Long.parseLong(out.get("translate " + p));
                    assertTrue(translatedBefore.get(p) <= translated && translated <= translatedAfter.get(p),
                            version + ": translation of " + p + ": " + translated);
                    for (String how : List.of("assign", "subscribe")) {
                        String[] first = out.get(how + " " + p).split(" ");
                        assertEquals(seek, Long.parseLong(first[0]), how + " on " + version + ": resumed at the "
                                + "offset the client library got");
                        assertTrue(Integer.parseInt(first[1]) <= commit.get(p), how + " on " + version
                                + ": record " + first[1] + " is past the commit " + commit.get(p) + ": skipped some");
                    }
                }
                String row = String.format("client library on kafka-clients %s (application's own; brokers %s): "
                        + "offsets, translation, assign and subscribe failover at Sextant's offsets %s, %.0f s",
                        version, KafkaDistribution.broker().version(), after.values(),
                        (System.nanoTime() - started) / 1e9);
                RESULTS.add(row);
                System.out.println("compatibility: " + row);
            }
        }
    }

    private static Map<Integer, Long> translations(SextantClient client, String topic, Map<Integer, Long> offsets) {
        Map<Integer, Long> out = new HashMap<>();
        offsets.forEach((p, o) -> out.put(p, client.translate(topic, p, o).destinationOffset()));
        return out;
    }

    /**
     * Runs {@link ClientLibraryProbe} in a child JVM on {@code classpath} plus the probe's class alone; returns its
     * output lines keyed by their words but the last ({@code "assign 0" -> "600 600"} keeps two words of value).
     */
    private static Map<String, String> runProbe(Path dir, List<Path> classpath, List<String> args) throws Exception {
        Path probe = dir.resolve("probe");
        String resource = ClientLibraryProbe.class.getName().replace('.', '/') + ".class";
        Path target = probe.resolve(resource);
        Files.createDirectories(target.getParent());
        try (InputStream in = ClientLibraryProbe.class.getClassLoader().getResourceAsStream(resource)) {
            Files.copy(in, target);
        }
        List<String> entries = new ArrayList<>(List.of(probe.toString()));
        classpath.forEach(p -> entries.add(p.toString()));
        List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", String.join(File.pathSeparator, entries), ClientLibraryProbe.class.getName()));
        command.addAll(args);
        Path output = dir.resolve("probe.log");
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile()).start();
        try {
            if (!process.waitFor(150, TimeUnit.SECONDS)) {
                fail("the probe did not finish in 150 s:\n" + Files.readString(output));
            }
        } finally {
            process.destroyForcibly();
        }
        String log = Files.readString(output);
        assertEquals(0, process.exitValue(), "the probe failed:\n" + log);
        assertTrue(log.lines().anyMatch("done"::equals), log);
        Map<String, String> lines = new HashMap<>();
        for (String line : log.lines().toList()) {
            String[] words = line.split(" ");
            if (words[0].equals("kafka-clients") && words.length == 2) {
                lines.put(words[0], words[1]);
            } else if (words[0].equals("offset") && words.length == 4) {
                lines.put("offset " + words[1] + " " + words[2], words[3]);
            } else if (words[0].equals("translate") && words.length == 3) {
                lines.put("translate " + words[1], words[2]);
            } else if ((words[0].equals("assign") || words[0].equals("subscribe")) && words.length == 4) {
                lines.put(words[0] + " " + words[1], words[2] + " " + words[3]);
            }
        }
        return lines;
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
