package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.testing.Cli;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.KafkaDistribution;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsResult;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sextant failover --format csv} prints a file Kafka's own {@code kafka-consumer-groups --reset-offsets
 * --from-file F --group G --execute} takes: Kafka's ConsumerGroupCommand, from the kafka-tools jar of the version
 * the local brokers run (resolved like them, run in a child JVM as an operator would run the script), writes it to a
 * second, empty group on the destination, and that group then holds exactly the CSV's offsets, which are the ones
 * Sextant synced for the first group. With many groups ({@code --groups}), one file in Kafka's four columns that the
 * same tool applies to every group at once with {@code --all-groups}.
 */
@ExtendWith(LocalClustersExtension.class)
class FailoverCsvIT {

    private static final Duration SYNCED = Duration.ofSeconds(60);
    private static final String LEDGER = "csv-ledger";
    private static final String MIRRORED = "source." + LEDGER;
    private static final String GROUP = "csv-billing";
    /** A group that never existed on either cluster: only Kafka's tool, reading the CSV, gives it offsets. */
    private static final String RESTORED = "csv-billing-restored";

    @Test
    void kafkaConsumerGroupsResetsAGroupFromTheCsv(LocalClusters clusters, @TempDir Path dir) throws Exception {
        clusters.createTopic(clusters.source(), LEDGER, 2);
        Clients.produceNumbered(clusters.source(), LEDGER, 2, 500);
        clusters.awaitMirrored(LEDGER, SYNCED);
        for (int partition : List.of(0, 1)) {
            Await.until(SYNCED, "a MirrorMaker 2 sync of " + LEDGER + "-" + partition, () ->
                    !Clients.mirrorMakerSyncs(clusters.source(), LEDGER, partition).isEmpty());
        }
        try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-csv",
                Map.of("groups.include", "csv-.*"))) {
            Clients.commit(clusters.source(), GROUP, LEDGER, Map.of(0, 400L, 1, 250L));
            Await.until(SYNCED, GROUP + " written on both partitions", () ->
                    Clients.committed(clusters, clusters.destination(), GROUP, MIRRORED).size() == 2);
        } // stopped: the destination's offsets no longer move (a bounded translation could be refined meanwhile)

        Path config = dir.resolve("sextant.properties");
        Files.writeString(config, String.join("\n",
                "source.bootstrap.servers=" + clusters.source().bootstrapServers(),
                "destination.bootstrap.servers=" + clusters.destination().bootstrapServers(),
                "application.id=sextant-it-csv", "groups.include=csv-.*", ""));
        Cli.Run failover = Cli.run("failover", "-c", config.toString(), "--group", GROUP, "--format", "csv",
                "--no-instance");
        assertEquals(0, failover.exit(), failover.out() + failover.err());
        Map<Integer, Long> synced = offsets(Clients.committed(clusters, clusters.destination(), GROUP, MIRRORED));
        assertEquals(MIRRORED + ",0," + synced.get(0) + "\n" + MIRRORED + ",1," + synced.get(1) + "\n",
                failover.out(), "one line per partition, the offsets Sextant synced");

        Path csv = Files.writeString(dir.resolve(GROUP + ".csv"), failover.out());
        String tool = kafkaConsumerGroups(clusters.destination().version(), dir, "--bootstrap-server",
                clusters.destination().bootstrapServers(), "--reset-offsets", "--from-file", csv.toString(),
                "--group", RESTORED, "--execute");
        Map<Integer, Long> restored = offsets(Clients.committed(clusters, clusters.destination(), RESTORED,
                MIRRORED));
        assertEquals(synced, restored, "kafka-consumer-groups wrote the CSV's offsets; its output:\n" + tool);
        System.out.printf("failover --format csv: %s -> kafka-consumer-groups --from-file -> %s %s%n",
                failover.out().strip().replace('\n', ' '), RESTORED, restored);
    }

    private static final String BULK_LEDGER = "bulk-ledger";
    private static final String BULK_MIRRORED = "source." + BULK_LEDGER;
    private static final int BULK_GROUPS = 20;

    /**
     * A 20-group drill in one run of each tool: {@code failover --groups REGEX -o csv} prints one plan, lines
     * {@code group,topic,partition,offset}, with the offsets Sextant synced (a group name with a comma quoted, as CSV
     * quotes it); the groups' offsets on the destination are then moved away (to 0), and one {@code
     * kafka-consumer-groups --reset-offsets --from-file PLAN --all-groups --execute} puts every group back where the
     * plan says.
     */
    @Test
    void kafkaConsumerGroupsResetsManyGroupsFromOneBulkPlan(LocalClusters clusters, @TempDir Path dir)
            throws Exception {
        clusters.createTopic(clusters.source(), BULK_LEDGER, 2);
        Clients.produceNumbered(clusters.source(), BULK_LEDGER, 2, 500);
        clusters.awaitMirrored(BULK_LEDGER, SYNCED);
        for (int partition : List.of(0, 1)) {
            Await.until(SYNCED, "a MirrorMaker 2 sync of " + BULK_LEDGER + "-" + partition, () ->
                    !Clients.mirrorMakerSyncs(clusters.source(), BULK_LEDGER, partition).isEmpty());
        }
        List<String> groups = new ArrayList<>();
        for (int i = 0; i < BULK_GROUPS - 1; i++) {
            groups.add(String.format("bulk-%02d", i));
        }
        groups.add("bulk-eu,west"); // Kafka's tool reads the plan's lines as CSV: this name is quoted
        try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-bulk-csv",
                Map.of("groups.include", "bulk-.*"))) {
            for (int i = 0; i < groups.size(); i++) {
                Clients.commit(clusters.source(), groups.get(i), BULK_LEDGER, Map.of(0, 400L - 10 * i, 1, 250L + i));
            }
            Await.until(SYNCED, "all " + groups.size() + " groups written on both partitions", () ->
                    destinationOffsets(clusters, groups).values().stream().allMatch(o -> o.size() == 2));
        }

        Path config = dir.resolve("sextant.properties");
        Files.writeString(config, String.join("\n",
                "source.bootstrap.servers=" + clusters.source().bootstrapServers(),
                "destination.bootstrap.servers=" + clusters.destination().bootstrapServers(),
                "application.id=sextant-it-bulk-csv", "groups.include=bulk-.*", ""));
        Cli.Run failover = Cli.run("failover", "-c", config.toString(), "--groups", "bulk-.*", "-o", "csv",
                "--no-instance");
        assertEquals(0, failover.exit(), failover.out() + failover.err());
        Map<String, Map<Integer, Long>> synced = destinationOffsets(clusters, groups);
        StringBuilder expected = new StringBuilder();
        synced.forEach((group, offsets) -> offsets.forEach((partition, offset) -> expected
                .append(group.contains(",") ? "\"" + group + "\"" : group).append(',').append(BULK_MIRRORED)
                .append(',').append(partition).append(',').append(offset).append('\n')));
        assertEquals(expected.toString(), failover.out(), "one line per group and partition: the offsets synced");

        try (Admin admin = clusters.admin(clusters.destination())) {
            for (String group : groups) {
                admin.alterConsumerGroupOffsets(group, Map.of(new TopicPartition(BULK_MIRRORED, 0),
                        new OffsetAndMetadata(0), new TopicPartition(BULK_MIRRORED, 1), new OffsetAndMetadata(0)))
                        .all().get(30, TimeUnit.SECONDS);
            }
        }
        assertTrue(destinationOffsets(clusters, groups).values().stream()
                .allMatch(o -> o.equals(Map.of(0, 0L, 1, 0L))), "every group moved away from the plan");

        Path plan = Files.writeString(dir.resolve("plan.csv"), failover.out());
        long started = System.nanoTime();
        String tool = kafkaConsumerGroups(clusters.destination().version(), dir, "--bootstrap-server",
                clusters.destination().bootstrapServers(), "--reset-offsets", "--from-file", plan.toString(),
                "--all-groups", "--execute");
        long tookMs = (System.nanoTime() - started) / 1_000_000;
        assertEquals(synced, destinationOffsets(clusters, groups),
                "kafka-consumer-groups --all-groups wrote every group's offsets from the plan; its output:\n" + tool);
        System.out.printf("failover --groups bulk-.* -o csv: %d lines for %d groups -> kafka-consumer-groups "
                + "--from-file --all-groups --execute in %d ms: every group at the plan's offsets%n",
                failover.out().lines().count(), groups.size(), tookMs);
    }

    /** The committed offsets on the destination of each group on the bulk topic, by group name and partition. */
    private static Map<String, Map<Integer, Long>> destinationOffsets(LocalClusters clusters, List<String> groups) {
        Map<String, ListConsumerGroupOffsetsSpec> specs = new TreeMap<>();
        groups.forEach(g -> specs.put(g, new ListConsumerGroupOffsetsSpec()));
        Map<String, Map<Integer, Long>> out = new TreeMap<>();
        try (Admin admin = clusters.admin(clusters.destination())) {
            ListConsumerGroupOffsetsResult result = admin.listConsumerGroupOffsets(specs);
            for (String group : groups) {
                Map<Integer, Long> offsets = new TreeMap<>();
                result.partitionsToOffsetAndMetadata(group).get(30, TimeUnit.SECONDS).forEach((tp, om) -> {
                    if (om != null && tp.topic().equals(BULK_MIRRORED)) {
                        offsets.put(tp.partition(), om.offset());
                    }
                });
                out.put(group, offsets);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read the groups' offsets on the destination", e);
        }
        return out;
    }

    private static Map<Integer, Long> offsets(Map<Integer, OffsetAndMetadata> committed) {
        return committed.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset(),
                (a, b) -> a, TreeMap::new));
    }

    /**
     * Runs Kafka's {@code kafka-consumer-groups} (ConsumerGroupCommand) of the brokers' version in a child JVM and
     * returns what it printed. Its exit code says little (it prints an error and exits 0), so the caller checks the
     * offsets it was to write.
     */
    private static String kafkaConsumerGroups(String version, Path dir, String... args) throws Exception {
        List<Path> jars = KafkaDistribution.of("kafka-tools", version,
                List.of("org.apache.kafka:kafka-tools:" + version)).classpath();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                        .toString(), "-Xmx256m", "-cp",
                jars.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)),
                "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand"));
        command.addAll(List.of(args));
        Path output = dir.resolve("kafka-consumer-groups.out");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
                .start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("kafka-consumer-groups did not finish in 60 s: " + Files.readString(output));
        }
        String printed = Files.readString(output);
        assertTrue(process.exitValue() == 0, "kafka-consumer-groups exited " + process.exitValue() + ": " + printed);
        return printed;
    }
}
