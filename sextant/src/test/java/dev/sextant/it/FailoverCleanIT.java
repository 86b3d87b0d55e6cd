package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sextant failover} is not clean while a consumer failing over would skip records (edge 2 of the no-silent-loss
 * work): with an instance to ask, every group it knows is judged, a partition it could not translate (here: a topic
 * MirrorMaker 2 does not mirror) or a group the destination lacks is named, a destination group of the other type
 * is refused, and the exit code is 1. A group whose every partition is on the destination stays clean.
 */
@ExtendWith(LocalClustersExtension.class)
class FailoverCleanIT {

    private static final Duration SYNCED = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LEDGER = "clean-ledger";
    /** Not mirrored: MirrorMaker 2 leaves {@code *.replica} topics out by default; Sextant is told to include it. */
    private static final String UNMIRRORED = "clean-unmirrored.replica";

    @Test
    void aGroupWithAPartitionThatCannotBeWrittenIsNotClean(LocalClusters clusters, @TempDir Path dir)
            throws Exception {
        clusters.createTopic(clusters.source(), LEDGER, 1);
        clusters.createTopic(clusters.source(), UNMIRRORED, 1);
        Clients.produceNumbered(clusters.source(), UNMIRRORED, 1, 10);
        Clients.produceNumbered(clusters.source(), LEDGER, 1, 1_000);
        clusters.awaitMirrored(LEDGER, SYNCED);
        Await.until(SYNCED, "a MirrorMaker 2 sync of " + LEDGER, () ->
                !Clients.mirrorMakerSyncs(clusters.source(), LEDGER, 0).isEmpty());
        try (Admin admin = clusters.admin(clusters.destination())) {
            admin.alterShareGroupOffsets("clean-typed", Map.of(new TopicPartition("source." + LEDGER, 0), 0L))
                    .all().get(30, TimeUnit.SECONDS); // a share group of that name on the destination
        }
        try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-clean",
                Map.of("groups.include", "clean-.*", "topics.exclude", "__.*"))) {
            Clients.commit(clusters.source(), "clean-synced", LEDGER, Map.of(0, 900L));
            Clients.commit(clusters.source(), "clean-partial", LEDGER, Map.of(0, 900L));
            Clients.commit(clusters.source(), "clean-partial", UNMIRRORED, Map.of(0, 5L));
            Clients.commit(clusters.source(), "clean-only-unmirrored", UNMIRRORED, Map.of(0, 5L));
            Clients.commit(clusters.source(), "clean-typed", LEDGER, Map.of(0, 900L));
            for (String group : List.of("clean-synced", "clean-partial")) {
                Await.until(SYNCED, group + " written", () -> Clients.committed(clusters, clusters.destination(),
                        group, "source." + LEDGER).get(0) != null);
            }
            SextantClient client = SextantClient.builder("http://" + sextant.app().queryAddress())
                    .deadline(Duration.ofSeconds(10)).build();
            Await.until(SYNCED, "the instance knows every group", () -> client.groups().size() >= 4);

            Path config = dir.resolve("sextant.properties");
            Files.writeString(config, String.join("\n",
                    "source.bootstrap.servers=" + clusters.source().bootstrapServers(),
                    "destination.bootstrap.servers=" + clusters.destination().bootstrapServers(),
                    "application.id=sextant-it-clean", "groups.include=clean-.*", "topics.exclude=__.*", ""));
            String url = "http://" + sextant.app().queryAddress();

            Cli.Run all = Cli.run("failover", "-c", config.toString(), "--all", "--json", "--url", url);
            assertEquals(1, all.exit(), all.out() + all.err());
            JsonNode report = JSON.readTree(all.out());
            assertFalse(report.path("clean").asBoolean(), all.out());
            Map<String, JsonNode> groups = new HashMap<>();
            report.path("results").forEach(g -> groups.put(g.path("group").asText(), g));

            JsonNode synced = groups.get("clean-synced");
            assertEquals("READY", synced.path("result").asText(), all.out());
            assertTrue(synced.path("clean").asBoolean(), all.out());

            JsonNode partial = groups.get("clean-partial");
            assertEquals("INCOMPLETE", partial.path("result").asText(), all.out());
            assertTrue(partial.path("detail").asText().contains("source." + UNMIRRORED + "-0"), all.out());
            assertEquals("UNTRANSLATED", status(partial, "source." + UNMIRRORED), all.out());
            assertEquals("IN_SYNC", status(partial, "source." + LEDGER), all.out());

            JsonNode absent = groups.get("clean-only-unmirrored");
            assertTrue(absent != null, "a group the destination lacks is listed: " + all.out());
            assertEquals("absent", absent.path("destinationState").asText(), all.out());
            assertEquals("INCOMPLETE", absent.path("result").asText(), all.out());

            JsonNode typed = groups.get("clean-typed");
            assertEquals("REFUSED", typed.path("result").asText(), all.out());
            assertTrue(typed.path("detail").asText().contains("never writes across types"), all.out());

            Cli.Run applied = Cli.run("failover", "-c", config.toString(), "--all", "--json", "--url", url,
                    "--apply");
            assertEquals(1, applied.exit(), "--apply cannot make an untranslated partition clean: " + applied.out());
            assertTrue(Clients.committed(clusters, clusters.destination(), "clean-typed", "source." + LEDGER)
                    .isEmpty(), "nothing written across types");

            Cli.Run one = Cli.run("failover", "-c", config.toString(), "--group", "clean-synced", "--url", url);
            assertEquals(0, one.exit(), one.out() + one.err());
            OffsetAndMetadata written = Clients.committed(clusters, clusters.destination(), "clean-synced",
                    "source." + LEDGER).get(0);
            System.out.printf("failover --all: %d groups judged, clean-synced READY at %d, clean-partial and "
                    + "clean-only-unmirrored INCOMPLETE, clean-typed REFUSED, exit %d%n", groups.size(),
                    written.offset(), all.exit());
        }
    }

    private static String status(JsonNode group, String topic) {
        for (JsonNode p : group.path("partitions")) {
            if (p.path("topic").asText().equals(topic)) {
                return p.path("status").asText();
            }
        }
        return null;
    }
}
