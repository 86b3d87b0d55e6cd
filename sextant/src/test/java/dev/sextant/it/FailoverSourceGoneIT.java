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
import dev.sextant.testkit.HoldingProxy;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.LocalKafkaBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real disaster: 200 groups synced, then the source broker is gone. {@code failover --all --json} answers for
 * every group from the destination alone, in under 10 s, with the offsets the destination holds and how exact they
 * are; and with a Sextant instance still up that holds positions the destination lacks (its writes were held in the
 * network), {@code --apply} writes them.
 *
 * <p>Clusters of its own (the source is stopped for good); the destination has a second listener behind a proxy, the
 * one the Sextant instance uses. Identity translation: no MirrorMaker 2 to outlive the source.
 */
@ExtendWith(LocalClustersExtension.class)
class FailoverSourceGoneIT {

    private static final String TOPIC = "gone-ledger";
    private static final int PARTITIONS = 3;
    private static final int GROUPS = 200;
    private static final int HELD = 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void failoverAnswersForEveryGroupWithTheSourceGoneAndAppliesWhatAnInstanceHeld(LocalClusters clusters,
                                                                                  @TempDir Path dir) throws Exception {
        try (HoldingProxy proxy = HoldingProxy.start();
             LocalKafkaBroker destination = LocalKafkaBroker.builder("gone-destination")
                     .extraListener("PROXIED", proxy.targetPort(), proxy.port()).start();
             LocalKafkaBroker source = LocalKafkaBroker.builder("gone-source").start()) {
            run(clusters, source, destination, proxy, dir);
        }
    }

    private void run(LocalClusters clusters, LocalKafkaBroker source, LocalKafkaBroker destination,
                     HoldingProxy proxy, Path dir) throws Exception {
        clusters.createTopic(source, TOPIC, PARTITIONS);
        clusters.createTopic(destination, TOPIC, PARTITIONS);
        Clients.produceNumbered(source, TOPIC, PARTITIONS, 500);
        Clients.produceNumbered(destination, TOPIC, PARTITIONS, 500);
        try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-gone", Map.of(
                "source.bootstrap.servers", source.bootstrapServers(),
                "destination.bootstrap.servers", proxy.bootstrapServers(),
                "translation", "identity", "replication.policy", "identity", "groups.include", "gone-.*"));
             Admin sourceAdmin = clusters.admin(source);
             Admin target = clusters.admin(destination)) {
            for (int g = 0; g < GROUPS; g++) {
                commit(sourceAdmin, g, first(g));
            }
            Await.until(Duration.ofSeconds(60), "every group synced", () -> everyGroupSynced(target));

            // the instance's next writes never reach the destination: it holds them as not applied yet
            proxy.holdRequests(ApiKeys.OFFSET_COMMIT.id);
            for (int g = 0; g < HELD; g++) {
                commit(sourceAdmin, g, first(g) + 100);
            }
            SextantClient client = SextantClient.builder("http://" + sextant.app().queryAddress())
                    .deadline(Duration.ofSeconds(10)).build();
            Await.until(Duration.ofSeconds(60), "the instance translated the new commits",
                    () -> newCommitsTranslated(client));
            // the source is gone: frozen (SIGSTOP), it answers nothing, as a dead cluster; thawed at the end only so
            // that the instance can close cleanly instead of leaking threads that retry a deleted broker
            Cli.signal("STOP", source.pid());
            try {
                failOverWithTheSourceGone(source, destination, sextant, target, dir);
            } finally {
                Cli.signal("CONT", source.pid());
            }
        } finally {
            proxy.close(); // what the instance held never arrives
        }
    }

    /** The source frozen: a dry run answers from the destination alone; {@code --apply} writes what was held. */
    private static void failOverWithTheSourceGone(LocalKafkaBroker source, LocalKafkaBroker destination,
                                                  SextantInstance sextant, Admin target, Path dir) throws Exception {
        Path config = dir.resolve("sextant.properties");
        Files.writeString(config, String.join("\n",
                "source.bootstrap.servers=" + source.bootstrapServers(),
                "destination.bootstrap.servers=" + destination.bootstrapServers(),
                "application.id=sextant-it-gone", "translation=identity", "replication.policy=identity",
                "groups.include=gone-.*", "query.advertised=" + sextant.app().queryAddress(), ""));

        long started = System.nanoTime();
        Cli.Run dry = Cli.run("failover", "-c", config.toString(), "--all", "--json", "--no-instance");
        long dryMs = (System.nanoTime() - started) / 1_000_000;
        assertEquals(0, dry.exit(), dry.err());
        JsonNode report = JSON.readTree(dry.out());
        assertEquals(GROUPS, report.path("groups").asInt(), dry.out());
        for (JsonNode g : report.path("results")) {
            int n = Integer.parseInt(g.path("group").asText().substring("gone-g".length()));
            JsonNode p = g.path("partitions").get(0);
            assertEquals(first(n), p.path("offset").asLong(), g.toString());
            assertEquals("exact", p.path("precision").asText(), g.toString());
            assertEquals("IN_SYNC", p.path("status").asText(), g.toString());
            assertTrue(p.path("lastSyncAgeMs").asLong() >= 0, g.toString());
            assertEquals("READY", g.path("result").asText(), g.toString());
        }
        assertTrue(dryMs < 10_000, "answered in " + dryMs + " ms");

        Cli.Run applied = Cli.run("failover", "-c", config.toString(), "--all", "--json", "--apply");
        assertEquals(0, applied.exit(), applied.err() + applied.out());
        JsonNode after = JSON.readTree(applied.out());
        Set<String> written = new HashSet<>();
        for (JsonNode g : after.path("results")) {
            if (g.path("result").asText().equals("APPLIED")) {
                written.add(g.path("group").asText());
            }
        }
        Set<String> expected = new HashSet<>();
        for (int g = 0; g < HELD; g++) {
            expected.add(group(g));
        }
        assertEquals(expected, written, applied.out());
        Map<String, Long> there = offsets(target);
        for (int g = 0; g < GROUPS; g++) {
            assertEquals(g < HELD ? first(g) + 100 : first(g), there.get(group(g)), group(g));
        }
        System.out.printf("failover with the source gone: %d groups answered from the destination in %d ms; "
                + "--apply wrote the %d groups a Sextant instance held%n", GROUPS, dryMs, written.size());
    }

    private static boolean everyGroupSynced(Admin target) {
        Map<String, Long> there = offsets(target);
        for (int g = 0; g < GROUPS; g++) {
            if (!Long.valueOf(first(g)).equals(there.get(group(g)))) {
                return false;
            }
        }
        return true;
    }

    private static boolean newCommitsTranslated(SextantClient client) {
        for (int g = 0; g < HELD; g++) {
            SextantClient.Partition p = client.group(group(g)).partitions().get(0);
            if (p.translatedOffset() == null || p.translatedOffset() != first(g) + 100) {
                return false;
            }
        }
        return true;
    }

    private static String group(int g) {
        return "gone-g" + g;
    }

    private static long first(int g) {
        return 10 + g % 50;
    }

    private static void commit(Admin source, int g, long offset) throws Exception {
        source.alterConsumerGroupOffsets(group(g), Map.of(new TopicPartition(TOPIC, g % PARTITIONS),
                new OffsetAndMetadata(offset))).all().get(30, TimeUnit.SECONDS);
    }

    private static Map<String, Long> offsets(Admin cluster) {
        Map<String, ListConsumerGroupOffsetsSpec> specs = new HashMap<>();
        for (int g = 0; g < GROUPS; g++) {
            specs.put(group(g), new ListConsumerGroupOffsetsSpec()
                    .topicPartitions(List.of(new TopicPartition(TOPIC, g % PARTITIONS))));
        }
        Map<String, Long> out = new HashMap<>();
        try {
            var result = cluster.listConsumerGroupOffsets(specs);
            for (int g = 0; g < GROUPS; g++) {
                OffsetAndMetadata om = result.partitionsToOffsetAndMetadata(group(g)).get(10, TimeUnit.SECONDS)
                        .get(new TopicPartition(TOPIC, g % PARTITIONS));
                if (om != null) {
                    out.put(group(g), om.offset());
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("reading group offsets", e);
        }
        return out;
    }

}
