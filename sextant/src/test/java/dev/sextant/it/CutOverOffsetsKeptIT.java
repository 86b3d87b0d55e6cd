package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.client.SextantClient;
import dev.sextant.testing.Cli;
import dev.sextant.testing.RetentionWatch;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.LocalKafkaBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cut-over group's offsets are kept alive on the destination until its consumers start there (issue 48, item 1):
 * a weekly batch job or a staged migration cuts a group over and starts its consumers on the destination later. The
 * destination's retention is one minute ({@code offsets.retention.minutes=1}, checked every second): over more than
 * two retentions after the cutover the group keeps every offset, while a group committed there by hand is deleted
 * (the retention does run), and {@code failover} reports the group cut over and clean. Before, the sync dropped
 * every re-plan of a cut-over group, so its offsets expired a retention after the cutover while {@code failover}
 * still said clean.
 *
 * <p>Brokers of their own (the retention is a broker setting); identity translation: expiry is the destination's
 * doing, whatever mirrors the records.
 */
@Tag("soak")
@ExtendWith(LocalClustersExtension.class)
class CutOverOffsetsKeptIT {

    private static final String TOPIC = "held-ledger";
    private static final String GROUP = "held-batch";
    private static final String APP = "sextant-it-held";
    private static final Map<Integer, Long> COMMITTED = Map.of(0, 50L, 1, 60L);
    private static final Duration IDLE = Duration.ofSeconds(130);
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aCutOverGroupKeepsItsOffsetsPastTheDestinationsRetention(LocalClusters clusters, @TempDir Path dir)
            throws Exception {
        try (LocalKafkaBroker source = LocalKafkaBroker.builder("held-source").start();
             LocalKafkaBroker destination = LocalKafkaBroker.builder("held-destination")
                     .property("offsets.retention.minutes", "1")
                     .property("offsets.retention.check.interval.ms", "1000").start()) {
            clusters.createTopic(source, TOPIC, 2);
            clusters.createTopic(destination, TOPIC, 2);
            Clients.produceNumbered(source, TOPIC, 2, 100);
            Clients.produceNumbered(destination, TOPIC, 2, 100);
            Map<String, Object> overrides = Map.of("source.bootstrap.servers", source.bootstrapServers(),
                    "destination.bootstrap.servers", destination.bootstrapServers(), "translation", "identity",
                    "replication.policy", "identity", "groups.include", "held-.*");
            try (SextantInstance sextant = SextantInstance.start(clusters, APP, overrides);
                 Admin target = clusters.admin(destination)) {
                Clients.commit(source, GROUP, TOPIC, COMMITTED);
                Await.until(Duration.ofSeconds(60), GROUP + " synced", () -> RetentionWatch.offsets(target, GROUP)
                        .equals(COMMITTED));
                String url = "http://" + sextant.app().queryAddress();
                Path config = dir.resolve("sextant.properties");
                Files.writeString(config, String.join("\n", "source.bootstrap.servers=" + source.bootstrapServers(),
                        "destination.bootstrap.servers=" + destination.bootstrapServers(), "application.id=" + APP,
                        "translation=identity", "replication.policy=identity", "groups.include=held-.*", ""));
                Cli.Run cut = Cli.run("cutover", "-c", config.toString(), "--url", url, "--group", GROUP,
                        "--fence-check", "2s", "--apply", "-o", "json");
                assertEquals(0, cut.exit(), "cut over: " + cut);
                SextantClient client = SextantClient.create(url);
                assertTrue(client.group(GROUP).cutOver() != null, "the instance holds the cutover");

                RetentionWatch.Result watched = RetentionWatch.sample(target, TOPIC, "held-control", GROUP,
                        COMMITTED, IDLE);
                long controlGoneMs = watched.controlGoneMs();
                List<String> gaps = watched.gaps();
                assertTrue(controlGoneMs > 0, "the broker's retention deletes a group no one writes again");
                assertTrue(gaps.isEmpty(), GROUP + " kept every offset, cut over, past two retentions; "
                        + gaps.size() + " samples without, the first " + (gaps.isEmpty() ? "" : gaps.get(0)));
                assertEquals("CUT_OVER", client.groups().stream().filter(g -> g.group().equals(GROUP)).findFirst()
                        .orElseThrow().state(), "and still shows cut over");

                Cli.Run failover = Cli.run("failover", "-c", config.toString(), "--group", GROUP, "--url", url,
                        "--json");
                assertEquals(0, failover.exit(), failover.out() + failover.err());
                JsonNode result = JSON.readTree(failover.out()).path("results").get(0);
                assertEquals("CUT_OVER", result.path("result").asText(), failover.out());
                System.out.printf("cut-over group kept alive: the hand-written control group was deleted after %d ms;"
                        + " %s kept its %d offsets for %d s (retention 60 s); failover: %s, exit %d%n",
                        controlGoneMs, GROUP, COMMITTED.size(), IDLE.toSeconds(), result.path("result").asText(),
                        failover.exit());
            }
        }
    }
}
