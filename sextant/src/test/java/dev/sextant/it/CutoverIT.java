package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.client.SextantClient;
import dev.sextant.client.SextantClientException;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.Reason;
import dev.sextant.testing.Cli;
import dev.sextant.testing.DeadLetters;
import dev.sextant.testing.LiveConsumer;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.LocalMirrorMaker;
import io.micrometer.core.instrument.Counter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A planned cutover with the source alive (issue 37, item 1), against a running Sextant on real brokers and
 * MirrorMaker 2: a stopped group is cut over exact (its consumers resume on the mirror at their next record: replay 0,
 * none lost); a group with members on the source is refused {@code ACTIVE_ON_SOURCE}; a consumer that commits without
 * membership ({@code assign()}) is caught by the fence check ({@code STILL_COMMITTING}); a zombie commit on the source
 * after the cutover is a {@code CUT_OVER} dead letter and moves nothing, before and after a restart of Sextant, which
 * keeps the cut-over state; running the command again reports the group cut over; {@code --undo} gives it back.
 */
@ExtendWith(LocalClustersExtension.class)
class CutoverIT {

    private static final String TOPIC = "cut-orders";
    private static final String MIRROR = LocalMirrorMaker.mirroredTopic(TOPIC);
    private static final String APP = "sextant-it-cutover";
    private static final String STOPPED = "cut-stopped";
    private static final String ACTIVE = "cut-active";
    private static final String ASSIGNER = "cut-assigner";
    private static final Duration SYNCED = Duration.ofSeconds(90);
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aGroupIsCutOverExactOnlyOnceNothingMovesItOnTheSourceAndStaysCutOver(LocalClusters clusters)
            throws Exception {
        clusters.createTopic(clusters.source(), TOPIC, 2);
        clusters.produceMirroredFromFirstSyncs(TOPIC, 2, 1_000, SYNCED); // every offset translates
        Path stateDir = Files.createTempDirectory("sextant-it-cutover");
        Map<String, Object> overrides = Map.of("groups.include", "cut-.*");
        SextantInstance sextant = SextantInstance.start(clusters, APP, stateDir, overrides);
        try {
            String url = "http://" + sextant.app().queryAddress();
            Path config = config(clusters);
            Clients.commit(clusters.source(), STOPPED, TOPIC, Map.of(0, 600L, 1, 700L));
            Clients.commit(clusters.source(), ACTIVE, TOPIC, Map.of(0, 100L, 1, 100L));
            Clients.commit(clusters.source(), ASSIGNER, TOPIC, Map.of(0, 200L, 1, 200L));
            SextantClient client = SextantClient.create(url);
            Await.until(SYNCED, "the three groups known to Sextant", () -> known(client) >= 3);

            // a dry run changes nothing and says the stopped group would be cut over
            Cli.Run dry = Cli.run("cutover", "-c", config.toString(), "--url", url, "--group", STOPPED,
                    "--fence-check", "2s", "-o", "json");
            assertEquals(0, dry.exit(), "a dry run of a stopped group: " + dry);
            assertEquals("CUT_OVER", group(dry, STOPPED).get("status").asText());
            assertNull(client.group(STOPPED).cutOver(), "a dry run records nothing");

            // members on the source, and a committer without membership, are refused
            try (LiveConsumer member = new LiveConsumer(clusters.source(), ACTIVE, TOPIC);
                 Committer committer = new Committer(clusters, ASSIGNER)) {
                Await.until(SYNCED, ACTIVE + " has a member on the source", member::joined);
                Cli.Run refused = Cli.run("cutover", "-c", config.toString(), "--url", url, "--groups",
                        "cut-(active|assigner)", "--fence-check", "3s", "--apply", "-o", "json");
                assertEquals(1, refused.exit(), "active and committing groups are refused: " + refused);
                assertEquals("ACTIVE_ON_SOURCE", group(refused, ACTIVE).get("status").asText(), refused.out());
                assertEquals("STILL_COMMITTING", group(refused, ASSIGNER).get("status").asText(), refused.out());
                assertTrue(group(refused, ASSIGNER).get("message").asText().contains(TOPIC),
                        "names what it saw: " + refused.out());
            }
            assertNull(client.group(ACTIVE).cutOver());
            assertNull(client.group(ASSIGNER).cutOver());

            // the stopped group is cut over, exact
            Cli.Run cut = Cli.run("cutover", "-c", config.toString(), "--url", url, "--group", STOPPED,
                    "--fence-check", "3s", "--apply", "-o", "json");
            assertEquals(0, cut.exit(), "the stopped group is cut over: " + cut);
            JsonNode result = group(cut, STOPPED);
            assertEquals("CUT_OVER", result.get("status").asText());
            assertEquals(0, result.get("worstBound").asLong(), "exact: " + cut.out());
            assertEquals(Map.of(0, 600L, 1, 700L), destination(clusters, STOPPED));
            assertNotNull(client.group(STOPPED).cutOver(), "/v1/groups/G shows it");
            assertTrue(client.groups().stream().anyMatch(g -> g.group().equals(STOPPED)
                    && g.state().equals("CUT_OVER")), "so does /v1/groups");

            // a zombie on the source: a dead letter, never a write
            Clients.commit(clusters.source(), STOPPED, TOPIC, Map.of(0, 900L, 1, 900L));
            DeadLetterRecord zombie = DeadLetters.await(clusters, r -> STOPPED.equals(r.group())
                    && r.reason() == Reason.CUT_OVER, "a CUT_OVER dead letter", SYNCED);
            assertEquals(900L, zombie.partitions().get(0).sourceOffset());
            SextantInstance counted = sextant;
            Await.until(SYNCED, "the zombie commits counted", () -> refusedCutOver(counted) >= 2);
            assertEquals(Map.of(0, 600L, 1, 700L), destination(clusters, STOPPED), "the destination did not move");
            // nor does a manual failover from the source's commits (the zombie's 900s) write over the cutover
            Cli.Run fromSource = Cli.run("failover", "-c", config.toString(), "--from-source", "--group", STOPPED,
                    "--apply");
            assertEquals(1, fromSource.exit(), "refused: " + fromSource);
            assertTrue(fromSource.err().contains("cut over"), fromSource.err());
            assertEquals(Map.of(0, 600L, 1, 700L), destination(clusters, STOPPED),
                    "failover --from-source wrote nothing");

            // a restart keeps the cut-over state
            sextant.close();
            sextant = SextantInstance.start(clusters, APP, stateDir, overrides);
            String restarted = "http://" + sextant.app().queryAddress();
            SextantClient again = SextantClient.create(restarted);
            Await.until(SYNCED, STOPPED + " cut over after the restart", () -> cutOver(again, STOPPED));
            Clients.commit(clusters.source(), STOPPED, TOPIC, Map.of(0, 950L, 1, 950L));
            DeadLetters.await(clusters, r -> STOPPED.equals(r.group()) && r.reason() == Reason.CUT_OVER
                    && r.partitions().get(0).sourceOffset() == 950L, "a CUT_OVER dead letter after the restart",
                    SYNCED);
            assertEquals(Map.of(0, 600L, 1, 700L), destination(clusters, STOPPED),
                    "the destination did not move after the restart");
            Path restartedConfig = config(clusters);
            Cli.Run rerun = Cli.run("cutover", "-c", restartedConfig.toString(), "--url", restarted, "--group",
                    STOPPED, "--fence-check", "1s", "--apply");
            assertEquals(0, rerun.exit(), "running it again reports the group cut over: " + rerun);
            assertTrue(rerun.out().contains("(already)"), rerun.out());
            Cli.Run failover = Cli.run("failover", "-c", restartedConfig.toString(), "--url", restarted, "--group",
                    STOPPED);
            assertEquals(0, failover.exit(), "failover leaves a cut-over group as it is, clean: " + failover);
            assertTrue(failover.out().contains("CUT_OVER"), failover.out());

            // the consumers resume on the mirror at their next record: replay 0, none lost
            Map<Integer, List<Integer>> read = Clients.resumeAndReadToEnd(clusters.destination(), STOPPED, MIRROR,
                    clusters.endOffsets(clusters.destination(), MIRROR));
            assertEquals(600, read.get(0).get(0), "partition 0 resumes at its next record");
            assertEquals(700, read.get(1).get(0), "partition 1 resumes at its next record");
            assertEquals(400, read.get(0).size(), "none lost, none read twice");
            assertEquals(300, read.get(1).size(), "none lost, none read twice");

            // --undo gives the group back to the sync: its next source commit is written again
            Cli.Run undo = Cli.run("cutover", "-c", restartedConfig.toString(), "--url", restarted, "--group",
                    STOPPED, "--undo", "--apply");
            assertEquals(0, undo.exit(), "undo: " + undo);
            assertTrue(undo.out().contains("RETURNED"), undo.out());
            Clients.commit(clusters.source(), STOPPED, TOPIC, Map.of(0, 980L, 1, 990L));
            Await.until(SYNCED, STOPPED + " synced again after the undo", () ->
                    Map.of(0, 980L, 1, 990L).equals(destination(clusters, STOPPED)));
            System.out.printf("cutover: %s cut over at 600/700 exact (replay 0, 0 lost); %s ACTIVE_ON_SOURCE, %s "
                    + "STILL_COMMITTING; zombie commits refused before and after a restart; undo synced 980/990%n",
                    STOPPED, ACTIVE, ASSIGNER);
        } finally {
            sextant.close();
        }
    }

    private static Path config(LocalClusters clusters) throws Exception {
        Path config = Files.createTempFile("sextant-cutover", ".properties");
        Files.writeString(config, "source.bootstrap.servers=" + clusters.source().bootstrapServers()
                + "\ndestination.bootstrap.servers=" + clusters.destination().bootstrapServers()
                + "\napplication.id=" + APP + "\ngroups.include=cut-.*\n");
        return config;
    }

    private static JsonNode group(Cli.Run run, String group) throws Exception {
        for (JsonNode g : JSON.readTree(run.out()).get("groups")) {
            if (g.get("group").asText().equals(group)) {
                return g;
            }
        }
        throw new AssertionError("no " + group + " in " + run);
    }

    private static long known(SextantClient client) {
        try {
            return client.groups().stream().filter(g -> g.group().startsWith("cut-")).count();
        } catch (SextantClientException e) {
            return 0;
        }
    }

    private static boolean cutOver(SextantClient client, String group) {
        try {
            return client.group(group).cutOver() != null;
        } catch (SextantClientException e) {
            return false;
        }
    }

    private static double refusedCutOver(SextantInstance sextant) {
        Counter counter = sextant.registry().find("sextant.positions.refused").tag("reason", "CUT_OVER").counter();
        return counter == null ? 0 : counter.count();
    }

    /** The group's committed offsets on the mirror, by partition. */
    private static Map<Integer, Long> destination(LocalClusters clusters, String group) {
        Map<Integer, Long> out = new HashMap<>();
        Clients.committed(clusters, clusters.destination(), group, MIRROR)
                .forEach((p, om) -> out.put(p, om.offset()));
        return out;
    }

    /**
     * An {@code assign()} consumer at the log end that commits the same offsets after every poll (about every half
     * second): it never joins the group, so the source shows no member.
     */
    private static final class Committer implements AutoCloseable {

        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        Committer(LocalClusters clusters, String group) {
            Map<String, Object> props = new HashMap<>(clusters.source().clientProperties());
            props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
            props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
            List<TopicPartition> partitions = List.of(new TopicPartition(TOPIC, 0), new TopicPartition(TOPIC, 1));
            thread = new Thread(() -> {
                try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                        new StringDeserializer())) {
                    consumer.assign(partitions);
                    consumer.seekToEnd(partitions);
                    while (running.get()) {
                        consumer.poll(Duration.ofMillis(500)); // nothing new arrives: the poll paces the commits
                        consumer.commitSync(Map.of(partitions.get(0), new OffsetAndMetadata(200),
                                partitions.get(1), new OffsetAndMetadata(200)));
                    }
                }
            }, "cutover-committer");
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join(30_000);
        }
    }
}
