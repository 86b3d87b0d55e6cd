package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.Reason;
import dev.sextant.testing.Cli;
import dev.sextant.testing.DeadLetters;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
 * Anyone who may commit on the destination can write metadata that looks like Sextant's mark. One that does not read
 * as a mark (here a source offset past a long, {@code src=99999999999999999999}) is someone else's offset: the sync
 * refuses the group ({@code DESTINATION_DIVERGED}, on the dead-letter topic) and goes on with the others, and
 * {@code failover --all} judges every group, reporting that one as not Sextant's, instead of aborting for all of them.
 */
@ExtendWith(LocalClustersExtension.class)
class PoisonedMarkIT {

    private static final Duration SYNCED = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOPIC = "poison-ledger";
    private static final String MIRRORED = "source." + TOPIC;
    private static final String APP = "sextant-it-poison";
    private static final String POISON = "sextant/" + APP + " src=99999999999999999999";

    @Test
    void anUnreadableMarkIsSomeoneElsesOffsetAndStopsNoOtherGroup(LocalClusters clusters, @TempDir Path dir)
            throws Exception {
        clusters.createTopic(clusters.source(), TOPIC, 1);
        Clients.produceNumbered(clusters.source(), TOPIC, 1, 1_000);
        clusters.awaitMirrored(TOPIC, SYNCED);
        long oldest = Await.value(SYNCED, "a MirrorMaker 2 sync of " + TOPIC,
                () -> Clients.mirrorMakerSyncs(clusters.source(), TOPIC, 0).stream().min(Long::compare).orElse(null));
        long first = Math.max(400, oldest + 1);
        try (SextantInstance sextant = SextantInstance.start(clusters, APP, Map.of("groups.include", "poison-.*",
                "topics.exclude", "__.*"))) {
            Clients.commit(clusters.source(), "poison-good", TOPIC, Map.of(0, first));
            Clients.commit(clusters.source(), "poison-bad", TOPIC, Map.of(0, first));
            OffsetAndMetadata synced = awaitMark(clusters, "poison-bad", "src=" + first);
            awaitMark(clusters, "poison-good", "src=" + first);

            // someone writes metadata that starts like Sextant's mark on the (empty) destination group
            try (Admin destination = clusters.admin(clusters.destination())) {
                destination.alterConsumerGroupOffsets("poison-bad", Map.of(new TopicPartition(MIRRORED, 0),
                        new OffsetAndMetadata(synced.offset(), POISON))).all().get(30, TimeUnit.SECONDS);
            }
            Clients.commit(clusters.source(), "poison-bad", TOPIC, Map.of(0, first + 100));
            Clients.commit(clusters.source(), "poison-good", TOPIC, Map.of(0, first + 100));

            DeadLetterRecord refused = DeadLetters.await(clusters, "poison-bad", Reason.DESTINATION_DIVERGED,
                    SYNCED);
            awaitMark(clusters, "poison-good", "src=" + (first + 100));
            assertEquals(POISON, Clients.committed(clusters, clusters.destination(), "poison-bad", MIRRORED).get(0)
                    .metadata(), "someone else's offset is never written over");

            Path config = dir.resolve("sextant.properties");
            Files.writeString(config, String.join("\n",
                    "source.bootstrap.servers=" + clusters.source().bootstrapServers(),
                    "destination.bootstrap.servers=" + clusters.destination().bootstrapServers(),
                    "application.id=" + APP, "groups.include=poison-.*", "topics.exclude=__.*", ""));
            String url = "http://" + sextant.app().queryAddress();
            for (List<String> instance : List.of(List.of("--url", url), List.of("--no-instance"))) {
                List<String> args = new ArrayList<>(List.of("failover", "-c", config.toString(), "--all", "--json"));
                args.addAll(instance);
                Cli.Run all = Cli.run(args.toArray(String[]::new));
                assertEquals(1, all.exit(), all.out() + all.err());
                JsonNode report = JSON.readTree(all.out());
                assertFalse(report.path("clean").asBoolean(), all.out());
                Map<String, JsonNode> groups = new HashMap<>();
                report.path("results").forEach(g -> groups.put(g.path("group").asText(), g));
                assertTrue(groups.get("poison-good").path("clean").asBoolean(), all.out());
                JsonNode bad = groups.get("poison-bad");
                assertEquals("REFUSED", bad.path("result").asText(), all.out());
                assertEquals("NOT_SEXTANT", bad.path("partitions").get(0).path("status").asText(), all.out());
            }
            System.out.printf("poisoned mark: %s refused as %s, poison-good synced on; failover --all judged both "
                    + "groups (exit 1)%n", refused.group(), refused.reason());
        }
    }

    private static OffsetAndMetadata awaitMark(LocalClusters clusters, String group, String source) {
        return Await.value(SYNCED, group + " written at " + source, () -> {
            OffsetAndMetadata p0 = Clients.committed(clusters, clusters.destination(), group, MIRRORED).get(0);
            return p0 != null && p0.metadata().startsWith("sextant/" + APP + " ")
                    && p0.metadata().endsWith(" " + source) ? p0 : null;
        });
    }
}
