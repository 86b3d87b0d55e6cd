package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.client.SextantClient;
import dev.sextant.client.SextantClientException;
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
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Failback by reverse checkpointing (issue 37, item 2), round trip A → B → A under MirrorMaker 2's default policy,
 * on real brokers and two MirrorMaker 2 flows. A group fails over to B and consumes there, on the mirror of A's topic
 * ({@code source.fb-orders}) and on a topic of B's own ({@code fb-payments}, mirrored back to A by the reverse flow as
 * {@code destination.fb-payments}). A second Sextant, configured by {@code sextant failback-config}, translates its B
 * positions back: the mirror's through the forward flow's syncs, inverted, to A's original topic; B's own topic
 * through the reverse flow's syncs. A {@code cutover} of that Sextant moves the group home, and its consumers resume
 * on A: none lost on any partition, the replay reported. A second group's consumers failed over to B but never
 * committed there (issue 48, item 4a): its last commits on B are the forward Sextant's writes, which the sync never
 * takes in, and A still holds the offsets they were translated from; its cutover ends at once, home at those offsets.
 */
@ExtendWith(LocalClustersExtension.class)
class FailbackIT {

    private static final String ORDERS = "fb-orders";
    private static final String MIRROR = LocalMirrorMaker.mirroredTopic(ORDERS);
    private static final String PAYMENTS = "fb-payments";
    private static final String PAYMENTS_HOME = LocalMirrorMaker.DESTINATION_ALIAS + "." + PAYMENTS;
    private static final String GROUP = "fb-app";
    /** Failed over to B, and its consumers stopped there without committing. */
    private static final String STAYED = "fb-stayed";
    private static final String FORWARD = "sextant-it-fwd";
    private static final Duration SYNCED = Duration.ofSeconds(90);

    @Test
    void aGroupFailedOverToBGoesHomeToAWithNothingLost(LocalClusters clusters) throws Exception {
        clusters.createTopic(clusters.source(), ORDERS, 2);
        clusters.produceMirroredFromFirstSyncs(ORDERS, 2, 1_000, SYNCED); // every offset translates

        // A -> B: the group synced to B, then its consumers fail over there
        try (SextantInstance forward = SextantInstance.start(clusters, FORWARD, Map.of("groups.include", "fb-.*"))) {
            Clients.commit(clusters.source(), GROUP, ORDERS, Map.of(0, 300L, 1, 300L));
            Clients.commit(clusters.source(), STAYED, ORDERS, Map.of(0, 200L, 1, 250L));
            SextantClient sync = SextantClient.create("http://" + forward.app().queryAddress());
            String[] seen = {""};
            try {
                Await.until(SYNCED, GROUP + " and " + STAYED + " synced to B", () -> {
                    seen[0] = describe(sync);
                    return Map.of(0, 300L, 1, 300L).equals(committed(clusters, clusters.destination(), GROUP, MIRROR))
                            && Map.of(0, 200L, 1, 250L).equals(committed(clusters, clusters.destination(), STAYED,
                            MIRROR));
                });
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "; the forward Sextant showed " + seen[0]
                        + "; MirrorMaker 2's syncs of " + ORDERS + "-0: "
                        + Clients.mirrorMakerSyncs(clusters.source(), ORDERS, 0), e);
            }
        }
        Clients.commit(clusters.destination(), GROUP, MIRROR, Map.of(0, 800L, 1, 750L)); // consumed on B
        joinWithoutCommitting(clusters.destination(), STAYED, MIRROR);
        clusters.createTopic(clusters.destination(), PAYMENTS, 1);

        // B -> A: the reverse flow, and the Sextant that runs the other way
        try (LocalMirrorMaker reverse = LocalMirrorMaker.start(clusters.source().clientProperties(),
                clusters.destination().clientProperties(), LocalMirrorMaker.Options.builder().reverse(true)
                        .topics(PAYMENTS).build(), null)) {
            Clients.produceNumbered(clusters.destination(), PAYMENTS, 1, 10); // its first sync before the rest
            Await.until(SYNCED, "a sync of the reverse flow", () -> !Clients.mirrorMakerSyncPairs(
                    clusters.destination(), "mm2-offset-syncs.source.internal", PAYMENTS, 0).isEmpty());
            Clients.produceNumberedFrom(clusters.destination(), PAYMENTS, 1, 10, 490);
            Clients.commit(clusters.destination(), GROUP, PAYMENTS, Map.of(0, 400L)); // consumed on B
            Await.until(SYNCED, PAYMENTS + " mirrored back to A", () -> clusters.endOffsets(clusters.source(),
                    PAYMENTS_HOME).getOrDefault(0, 0L) >= 500);
            Path forwardFile = Files.createTempFile("sextant-forward", ".properties");
            Files.writeString(forwardFile, "source.bootstrap.servers=" + clusters.source().bootstrapServers()
                    + "\ndestination.bootstrap.servers=" + clusters.destination().bootstrapServers()
                    + "\napplication.id=" + FORWARD + "\ngroups.include=fb-.*\n");
            Cli.Run derived = Cli.run("failback-config", "-c", forwardFile.toString());
            assertEquals(0, derived.exit(), derived.toString());
            Properties failback = new Properties();
            failback.load(new StringReader(derived.out()));
            assertEquals(clusters.destination().bootstrapServers(), failback.getProperty("source.bootstrap.servers"));
            assertEquals(clusters.source().bootstrapServers(), failback.getProperty("destination.bootstrap.servers"));
            assertEquals(FORWARD + "-failback", failback.getProperty("application.id"));
            assertEquals(FORWARD + "-offset-sync-history", failback.getProperty("failback.history.topic"));

            // appended, as an operator would: this instance's own address and state, the tests' short intervals
            Path stateDir = Files.createTempDirectory("sextant-it-failback");
            Map<String, Object> appended = Map.of("query.listen", "127.0.0.1:0", "state.dir", stateDir.toString(),
                    "sync.interval.ms", "100", "sync.pending.timeout.ms", "3000", "streams.num.stream.threads", "1");
            Map<String, Object> properties = new HashMap<>();
            failback.stringPropertyNames().forEach(k -> properties.put(k, failback.getProperty(k)));
            properties.putAll(appended);
            try (SextantInstance home = SextantInstance.start(properties, stateDir)) {
                String url = "http://" + home.app().queryAddress();
                SextantClient client = SextantClient.create(url);
                Await.until(SYNCED, GROUP + "'s B positions written to A", () -> applied(client) == 3);
                Path failbackFile = Files.createTempFile("sextant-failback", ".properties");
                StringBuilder file = new StringBuilder(derived.out());
                appended.forEach((k, v) -> file.append(k).append('=').append(v).append('\n'));
                Files.writeString(failbackFile, file.toString());

                Cli.Run cut = Cli.run("cutover", "-c", failbackFile.toString(), "--url", url, "--group", GROUP,
                        "--fence-check", "2s", "--apply", "-o", "json");
                assertEquals(0, cut.exit(), "the group is cut over home: " + cut);
                JsonNode result = new ObjectMapper().readTree(cut.out()).get("groups").get(0);
                assertEquals("CUT_OVER", result.get("status").asText(), cut.out());

                // the consumers resume on A: nothing lost on any partition; the replay measured
                Map<Integer, Long> ordersAt = committed(clusters, clusters.source(), GROUP, ORDERS);
                Map<Integer, Long> paymentsAt = committed(clusters, clusters.source(), GROUP, PAYMENTS_HOME);
                Map<Integer, List<Integer>> orders = Clients.resumeAndReadToEnd(clusters.source(), GROUP, ORDERS,
                        clusters.endOffsets(clusters.source(), ORDERS));
                Map<Integer, List<Integer>> payments = Clients.resumeAndReadToEnd(clusters.source(), GROUP,
                        PAYMENTS_HOME, clusters.endOffsets(clusters.source(), PAYMENTS_HOME));
                int replay0 = readOnFrom(orders.get(0), 800, 999, "fb-orders-0");
                int replay1 = readOnFrom(orders.get(1), 750, 999, "fb-orders-1");
                int replayPayments = readOnFrom(payments.get(0), 400, 499, PAYMENTS_HOME + "-0");
                System.out.printf("failback: %s home on A at %s (B had 800/750 on %s) and %s on %s (B had 400 on %s); "
                        + "0 lost, replay %d/%d and %d; cutover bound %s%n", GROUP, ordersAt, MIRROR, paymentsAt,
                        PAYMENTS_HOME, PAYMENTS, replay0, replay1, replayPayments, result.get("worstBound"));

                // item 4a: the sync never takes the forward Sextant's writes in, so the cutover does not wait for them
                Await.until(SYNCED, "the failback Sextant knows " + STAYED, () -> known(client, STAYED));
                long started = System.nanoTime();
                Cli.Run stayed = Cli.run("cutover", "-c", failbackFile.toString(), "--url", url, "--group", STAYED,
                        "--fence-check", "1s", "--timeout", "20s", "--apply", "-o", "json");
                long tookMs = (System.nanoTime() - started) / 1_000_000;
                JsonNode stayedResult = new ObjectMapper().readTree(stayed.out()).get("groups").get(0);
                assertEquals("CUT_OVER", stayedResult.get("status").asText(), "a group that never committed on B is "
                        + "home already: " + stayed);
                Map<Integer, Long> recorded = new HashMap<>();
                stayedResult.get("partitions").forEach(p -> {
                    assertEquals(ORDERS, p.get("destinationTopic").asText(), p.toString());
                    recorded.put(p.get("partition").asInt(), p.get("destinationOffset").asLong());
                });
                assertEquals(Map.of(0, 200L, 1, 250L), recorded, "cut over at what A holds: " + stayed.out());
                assertEquals(Map.of(0, 200L, 1, 250L), committed(clusters, clusters.source(), STAYED, ORDERS));
                assertTrue(tookMs < 15_000, "cut over at once, not after the 20 s timeout: " + tookMs + " ms");
                System.out.printf("failback: %s, never committed on B, cut over home at %s in %d ms%n", STAYED,
                        recorded, tookMs);
            }
        }
    }

    /**
     * Asserts the values read start at or before {@code next} (nothing skipped) and run on without a gap to
     * {@code last}; returns how many were read before {@code next} (the replay).
     */
    private static int readOnFrom(List<Integer> read, int next, int last, String partition) {
        assertTrue(!read.isEmpty() && read.get(0) <= next, partition + " resumes at or before " + next + ": "
                + (read.isEmpty() ? "nothing read" : read.get(0)));
        for (int i = 1; i < read.size(); i++) {
            assertEquals(read.get(i - 1) + 1, read.get(i), partition + ": no record skipped");
        }
        assertEquals(last, read.get(read.size() - 1), partition + " read to its end");
        return next - read.get(0);
    }

    private static String describe(SextantClient client) {
        try {
            return client.group(GROUP).partitions().toString();
        } catch (SextantClientException e) {
            return e.getMessage();
        }
    }

    /** Its consumers start on B, are assigned its partitions and stop, committing nothing. */
    private static void joinWithoutCommitting(LocalKafkaBroker cluster, String group, String topic) {
        Map<String, Object> props = new HashMap<>(cluster.clientProperties());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            Await.until(SYNCED, group + " joined on B", () -> {
                consumer.poll(Duration.ofMillis(100));
                return !consumer.assignment().isEmpty();
            });
        }
    }

    private static boolean known(SextantClient client, String group) {
        try {
            return client.groups().stream().anyMatch(g -> g.group().equals(group));
        } catch (SextantClientException e) {
            return false;
        }
    }

    private static long applied(SextantClient client) {
        try {
            return client.group(GROUP).partitions().stream().filter(p -> "APPLIED".equals(p.status())).count();
        } catch (SextantClientException e) {
            return 0;
        }
    }

    private static Map<Integer, Long> committed(LocalClusters clusters, LocalKafkaBroker cluster, String group,
                                                String topic) {
        Map<Integer, Long> out = new HashMap<>();
        Clients.committed(clusters, cluster, group, topic).forEach((p, om) -> out.put(p, om.offset()));
        return out;
    }
}
