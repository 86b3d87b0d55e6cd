package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.client.SextantClient;
import dev.sextant.testing.Cli;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.LocalKafkaBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sextant cutover --all --apply} over a thousand groups (issue 48, item 7): the fence covers every group at
 * once, and the record, the wait for every instance to hold the records and the last fence check run for the batch,
 * not group by group. Every group ends {@code CUT_OVER} and every instance holds all of them. Before, each group's
 * record waited for the instance and polled the source on its own: a quarter of a second or more per group.
 *
 * <p>Brokers of their own, identity translation: what is measured is the command, not the translation.
 */
@ExtendWith(LocalClustersExtension.class)
class CutoverAtScaleIT {

    private static final String TOPIC = "scale-ledger";
    private static final String APP = "sextant-it-cut-scale";
    private static final int GROUPS = 1_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aThousandGroupsAreCutOverInOneRun(LocalClusters clusters, @TempDir Path dir) throws Exception {
        try (LocalKafkaBroker source = LocalKafkaBroker.builder("cut-scale-source").start();
             LocalKafkaBroker destination = LocalKafkaBroker.builder("cut-scale-destination").start()) {
            clusters.createTopic(source, TOPIC, 2);
            clusters.createTopic(destination, TOPIC, 2);
            Clients.produceNumbered(source, TOPIC, 2, 100);
            Clients.produceNumbered(destination, TOPIC, 2, 100);
            Map<String, Object> overrides = Map.of("source.bootstrap.servers", source.bootstrapServers(),
                    "destination.bootstrap.servers", destination.bootstrapServers(), "translation", "identity",
                    "replication.policy", "identity", "groups.include", "scale-.*");
            try (SextantInstance sextant = SextantInstance.start(clusters, APP, overrides);
                 Admin sourceAdmin = clusters.admin(source);
                 Admin target = clusters.admin(destination)) {
                List<String> groups = new ArrayList<>();
                List<KafkaFuture<Void>> commits = new ArrayList<>();
                for (int i = 0; i < GROUPS; i++) {
                    String group = String.format("scale-%04d", i);
                    groups.add(group);
                    commits.add(sourceAdmin.alterConsumerGroupOffsets(group, Map.of(
                            new TopicPartition(TOPIC, 0), new OffsetAndMetadata(10 + i % 90),
                            new TopicPartition(TOPIC, 1), new OffsetAndMetadata(20 + i % 80))).all());
                }
                KafkaFuture.allOf(commits.toArray(KafkaFuture[]::new)).get(120, TimeUnit.SECONDS);
                Await.until(Duration.ofSeconds(120), "every group synced", () -> synced(target, groups) == GROUPS);

                String url = "http://" + sextant.app().queryAddress();
                Path config = dir.resolve("sextant.properties");
                Files.writeString(config, String.join("\n", "source.bootstrap.servers=" + source.bootstrapServers(),
                        "destination.bootstrap.servers=" + destination.bootstrapServers(), "application.id=" + APP,
                        "translation=identity", "replication.policy=identity", "groups.include=scale-.*", ""));
                long started = System.nanoTime();
                Cli.Run cut = Cli.run("cutover", "-c", config.toString(), "--url", url, "--all",
                        "--fence-check", "2s", "--apply", "-o", "json");
                long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                assertEquals(0, cut.exit(), "every group cut over: " + cut.err());
                Map<String, Integer> statuses = new TreeMap<>();
                for (JsonNode g : JSON.readTree(cut.out()).get("groups")) {
                    statuses.merge(g.get("status").asText(), 1, Integer::sum);
                }
                assertEquals(Map.of("CUT_OVER", GROUPS), statuses);
                SextantClient client = SextantClient.create(url);
                assertTrue(client.cutovers().stream().allMatch(i -> i.groups() != null
                        && i.groups().containsAll(groups)), "every instance holds every group");
                System.out.printf("cutover --all over %d groups: %d ms (fence check 2 s), all CUT_OVER%n", GROUPS,
                        tookMs);
            }
        }
    }

    /** How many of the groups hold both offsets on the destination (-1 while it cannot be read). */
    private static long synced(Admin target, List<String> groups) {
        Map<String, ListConsumerGroupOffsetsSpec> specs = new TreeMap<>();
        groups.forEach(g -> specs.put(g, new ListConsumerGroupOffsetsSpec()));
        var result = target.listConsumerGroupOffsets(specs);
        long synced = 0;
        try {
            for (String g : groups) {
                if (result.partitionsToOffsetAndMetadata(g).get(30, TimeUnit.SECONDS).size() == 2) {
                    synced++;
                }
            }
        } catch (Exception e) {
            return -1;
        }
        return synced;
    }
}
