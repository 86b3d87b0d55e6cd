package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.acl.RequiredAcl;
import dev.sextant.acl.RequiredAcls;
import dev.sextant.acl.SourceTopicReads;
import dev.sextant.client.SextantClient;
import dev.sextant.client.SextantClientException;
import dev.sextant.config.SextantConfigLoader;
import dev.sextant.testing.AclGrants;
import dev.sextant.testing.Cli;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testing.SextantProcess;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.KafkaDistribution;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalKafkaBroker;
import dev.sextant.testkit.LocalMirrorMaker;
import java.io.File;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The failover and failback runbook of docs/failover.md from start to end (issue 50, item 4), on secured clusters
 * (the source SCRAM-SHA-512 over SASL_SSL, the destination mutual TLS, ACLs denying what none allows, Sextant's
 * principal {@code User:sextant} granted what {@link RequiredAcls} lists: for the failback Sextant on the clusters
 * the other way round). A (the source) took records MirrorMaker 2 never copied and stops; {@code sextant failover
 * --apply} with A stopped; the group's consumers run on B; A comes back with those records; the forward Sextant is
 * stopped, a reverse MirrorMaker 2 flow started, {@code failback-config} derives the failback Sextant, and
 * {@code cutover --apply} moves the group home, where its consumers read on with nothing lost: the records A took
 * and never mirrored included (the runbook's "keep them" choice).
 */
class FailbackRunbookIT {

    private static final String PRINCIPAL = "User:sextant";
    private static final String SCRAM_PASSWORD = "scram-Runbook-4711";
    private static final String ORDERS = "rb-orders";
    private static final String MIRROR = LocalMirrorMaker.mirroredTopic(ORDERS);
    private static final String PAYMENTS = "rb-payments";
    private static final String PAYMENTS_HOME = LocalMirrorMaker.DESTINATION_ALIAS + "." + PAYMENTS;
    private static final String GROUP = "rb-app";
    private static final String FORWARD = "sextant-it-runbook";
    private static final int MIRRORED = 500;
    private static final int NEVER_MIRRORED = 100;
    private static final Duration SYNCED = Duration.ofSeconds(90);
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aGroupFailsOverWithAStoppedAndGoesHomeOnSecuredClustersWithNothingLost(@TempDir Path dir) throws Exception {
        long started = System.nanoTime();
        try (LocalClusters clusters = LocalClusters.builder().secured().scramUser("sextant", SCRAM_PASSWORD)
                .start()) {
            run(clusters, dir, started);
        }
    }

    private void run(LocalClusters clusters, Path dir, long started) throws Exception {
        LocalKafkaBroker a = clusters.source();
        LocalKafkaBroker b = clusters.destination();
        clusters.createTopic(a, ORDERS, 2);
        clusters.produceMirroredFromFirstSyncs(ORDERS, 2, MIRRORED, SYNCED); // every offset translates
        Map<String, String> forward = forwardConfig(clusters, dir);
        Path forwardFile = SextantProcess.writeConfig(dir.resolve("sextant.properties"), forward);
        new AclGrants(clusters, PRINCIPAL).grant(RequiredAcls.of(SextantConfigLoader.load(new HashMap<>(forward),
                Map.of()), SourceTopicReads.only(List.of(SourceTopicReads.literal(ORDERS)), "the test")));

        SextantInstance forwardSextant = SextantInstance.start(new HashMap<>(forward), dir.resolve("state-fwd"));
        boolean forwardStopped = false;
        try {
            Clients.commit(a, GROUP, ORDERS, Map.of(0, 300L, 1, 300L));
            Await.until(SYNCED, GROUP + " synced to B", () -> Map.of(0, 300L, 1, 300L).equals(committed(clusters,
                    b, GROUP, MIRROR)));

            // the migration runbook's check that MirrorMaker 2 copied to the end: A's end translates exactly to
            // the mirror's end ('sextant translate --topic rb-orders --partition P --offset <A's end>')
            SextantClient sync = SextantClient.create("http://" + forwardSextant.app().queryAddress());
            for (int partition = 0; partition < 2; partition++) {
                int p = partition;
                SextantClient.Translation end = Await.value(SYNCED, "A's end of " + ORDERS + "-" + p
                        + " translated exactly to the mirror's end", () -> exactAtTheEnd(sync, p));
                System.out.printf("failback runbook: copied to the end: %s-%d@%d -> %s@%d (%s)%n", ORDERS, p,
                        end.offset(), end.destinationTopic(), end.destinationOffset(), end.precision());
            }

            // A takes records MirrorMaker 2 never copies (the flow stopped, as one lagging when A died), then stops
            clusters.mirrorMaker().orElseThrow().close();
            Clients.produceNumberedFrom(a, ORDERS, 2, MIRRORED, NEVER_MIRRORED);
            Cli.signal("TERM", a.pid());
            Await.until(Duration.ofSeconds(30), "A stopped", () -> !a.isAlive());

            // failover: B alone is read; what the forward Sextant holds is applied
            String forwardUrl = "http://" + forwardSextant.app().queryAddress();
            Cli.Run failover = Cli.run("failover", "-c", forwardFile.toString(), "--all", "--apply", "--url",
                    forwardUrl, "-o", "json");
            assertEquals(0, failover.exit(), "the failover with A stopped is clean: " + failover);
            JsonNode result = resultOf(JSON.readTree(failover.out()), GROUP);
            assertTrue(Set.of("READY", "APPLIED").contains(result.path("result").asText()), failover.out());
            assertEquals(Map.of(0, 300L, 1, 300L), committed(clusters, b, GROUP, MIRROR));

            // the consumers on B read the mirror (to its end on partition 0) and B's own topic
            Clients.commit(b, GROUP, MIRROR, Map.of(0, (long) MIRRORED, 1, 450L));
            clusters.createTopic(b, PAYMENTS, 1);
            Clients.produceNumbered(b, PAYMENTS, 1, 10);

            // A comes back, with the records it never mirrored; the forward Sextant is stopped (failback, step 1)
            a.restart();
            assertEquals(Map.of(0, (long) MIRRORED + NEVER_MIRRORED, 1, (long) MIRRORED + NEVER_MIRRORED),
                    clusters.endOffsets(a, ORDERS), "A kept what it never mirrored");
            assertEquals(Map.of(0, (long) MIRRORED, 1, (long) MIRRORED), clusters.endOffsets(b, MIRROR));
            forwardSextant.close();
            forwardStopped = true;
            failBack(clusters, forwardFile, dir, started);
        } finally {
            if (!forwardStopped) {
                if (!a.isAlive()) {
                    a.restart(); // its threads would retry a stopped cluster to the end of the stop bound
                }
                forwardSextant.close();
            }
        }
    }

    /** Failback steps 2 to 7: the reverse flow, failback-config, its ACLs, run, cutover, the consumers on A. */
    private void failBack(LocalClusters clusters, Path forwardFile, Path dir, long started) throws Exception {
        LocalKafkaBroker a = clusters.source();
        LocalKafkaBroker b = clusters.destination();
        try (LocalMirrorMaker reverse = LocalMirrorMaker.start(a.clientProperties(), b.clientProperties(),
                LocalMirrorMaker.Options.builder().reverse(true).topics(PAYMENTS).build(), null)) {
            Await.until(SYNCED, "a sync of the reverse flow", () -> !Clients.mirrorMakerSyncPairs(b,
                    "mm2-offset-syncs.source.internal", PAYMENTS, 0).isEmpty());
            Clients.produceNumberedFrom(b, PAYMENTS, 1, 10, 490);
            Clients.commit(b, GROUP, PAYMENTS, Map.of(0, 400L));
            Await.until(SYNCED, PAYMENTS + " mirrored back to A", () -> clusters.endOffsets(a, PAYMENTS_HOME)
                    .getOrDefault(0, 0L) >= 500);

            Cli.Run derived = Cli.run("failback-config", "-c", forwardFile.toString());
            assertEquals(0, derived.exit(), derived.toString());
            Properties failback = new Properties();
            failback.load(new StringReader(derived.out()));
            assertEquals(b.bootstrapServers(), failback.getProperty("source.bootstrap.servers"));
            assertEquals("SSL", failback.getProperty("source.security.protocol"), "B's mutual TLS, swapped");
            assertEquals("SASL_SSL", failback.getProperty("destination.security.protocol"), "A's SCRAM, swapped");
            Map<String, String> properties = new LinkedHashMap<>();
            failback.stringPropertyNames().forEach(k -> properties.put(k, failback.getProperty(k)));
            properties.putAll(Map.of("query.listen", "127.0.0.1:0", "state.dir", dir.resolve("state-fb").toString(),
                    "sync.interval.ms", "100", "sync.pending.timeout.ms", "3000", "streams.num.stream.threads", "1"));
            grantTheOtherWay(clusters, RequiredAcls.of(SextantConfigLoader.load(new HashMap<>(properties), Map.of()),
                    SourceTopicReads.only(List.of(SourceTopicReads.literal(MIRROR), SourceTopicReads.literal(PAYMENTS)),
                            "the test")));

            try (SextantInstance home = SextantInstance.start(new HashMap<>(properties), dir.resolve("state-fb"))) {
                String url = "http://" + home.app().queryAddress();
                SextantClient client = SextantClient.create(url);
                Await.until(SYNCED, GROUP + "'s B positions written to A", () -> applied(client) == 3);
                Path failbackFile = SextantProcess.writeConfig(dir.resolve("failback.properties"), properties);
                Cli.Run cut = Cli.run("cutover", "-c", failbackFile.toString(), "--url", url, "--group", GROUP,
                        "--fence-check", "2s", "--apply");
                assertEquals(0, cut.exit(), "the group is cut over home: " + cut);
                assertTrue(cut.out().contains(GROUP + " (consumer group): CUT_OVER"), cut.out());
                System.out.println("failback runbook: the cutover report\n" + cut.out());

                Map<Integer, Long> ordersAt = committed(clusters, a, GROUP, ORDERS);
                // the runbook's check on A, with Kafka's own tool: the offsets the report gave, no members
                String described = kafkaConsumerGroups(a, dir, "--describe", "--group", GROUP);
                System.out.println("failback runbook: kafka-consumer-groups --describe on A\n" + described);
                for (int partition = 0; partition < 2; partition++) {
                    assertTrue(Pattern.compile(GROUP + "\\s+" + ORDERS + "\\s+" + partition + "\\s+"
                            + ordersAt.get(partition) + "\\s").matcher(described).find(), described);
                }
                assertTrue(described.contains("has no active members"), described);
                Map<Integer, List<Integer>> orders = Clients.resumeAndReadToEnd(a, GROUP, ORDERS,
                        clusters.endOffsets(a, ORDERS));
                Map<Integer, List<Integer>> payments = Clients.resumeAndReadToEnd(a, GROUP, PAYMENTS_HOME,
                        clusters.endOffsets(a, PAYMENTS_HOME));
                int last = MIRRORED + NEVER_MIRRORED - 1;
                int replay0 = readOnFrom(orders.get(0), MIRRORED, last, ORDERS + "-0");
                int replay1 = readOnFrom(orders.get(1), 450, last, ORDERS + "-1");
                int replayPayments = readOnFrom(payments.get(0), 400, 499, PAYMENTS_HOME + "-0");
                System.out.printf("failback runbook: %s home on A at %s (B had %d/450 on %s) and on %s; 0 lost, "
                        + "the %d records per partition A never mirrored read on A; replay %d/%d and %d; "
                        + "%d s in all%n", GROUP, ordersAt, MIRRORED, MIRROR, PAYMENTS_HOME, NEVER_MIRRORED, replay0,
                        replay1, replayPayments, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
            }
        }
    }

    /** The forward Sextant's configuration: Sextant's principal on both secured clusters, secrets written inline. */
    private static Map<String, String> forwardConfig(LocalClusters clusters, Path dir) {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("source.bootstrap.servers", clusters.source().bootstrapServers());
        clusters.source().clientProperties("sextant").forEach((k, v) -> {
            if (!k.equals("bootstrap.servers")) {
                c.put("source." + k, v.toString());
            }
        });
        c.put("destination.bootstrap.servers", clusters.destination().bootstrapServers());
        clusters.destination().clientProperties("sextant").forEach((k, v) -> {
            if (!k.equals("bootstrap.servers")) {
                c.put("destination." + k, v.toString());
            }
        });
        c.put("application.id", FORWARD);
        c.put("groups.include", "rb-.*");
        c.put("state.dir", dir.resolve("state-fwd").toString());
        c.put("query.listen", "127.0.0.1:0");
        c.put("sync.interval.ms", "100");
        c.put("sync.pending.timeout.ms", "3000");
        c.put("streams.num.stream.threads", "1");
        return c;
    }

    /**
     * Grants the failback Sextant's ACLs: its source is B and its destination A, the other way round from
     * {@link AclGrants}, which grants a forward configuration's.
     */
    private static void grantTheOtherWay(LocalClusters clusters, List<RequiredAcl> acls) throws Exception {
        for (RequiredAcl.Cluster cluster : RequiredAcl.Cluster.values()) {
            List<AclBinding> bindings = new ArrayList<>();
            acls.stream().filter(acl -> acl.cluster() == cluster).forEach(acl -> bindings.addAll(acl.bindings(
                    PRINCIPAL)));
            LocalKafkaBroker broker = cluster == RequiredAcl.Cluster.SOURCE ? clusters.destination()
                    : clusters.source();
            try (Admin admin = clusters.admin(broker)) {
                admin.createAcls(bindings).all().get(30, TimeUnit.SECONDS);
                Await.until(Duration.ofSeconds(60), "granted on " + broker.name(), () -> {
                    try {
                        return admin.describeAcls(AclBindingFilter.ANY).values().get(10, TimeUnit.SECONDS)
                                .containsAll(bindings);
                    } catch (Exception e) {
                        return false;
                    }
                });
            }
        }
    }

    private static JsonNode resultOf(JsonNode report, String group) {
        for (JsonNode g : report.path("results")) {
            if (g.path("group").asText().equals(group)) {
                return g;
            }
        }
        throw new AssertionError(group + " not in the failover report: " + report);
    }

    /**
     * Asserts the values read start at or before {@code next} (nothing skipped) and run on without a gap to
     * {@code last}; returns how many were read before {@code next} (the replay).
     */
    private static int readOnFrom(List<Integer> read, int next, int last, String partition) {
        assertFalse(read.isEmpty(), partition + ": nothing read");
        assertTrue(read.get(0) <= next, partition + " resumes at or before " + next + ": " + read.get(0));
        for (int i = 1; i < read.size(); i++) {
            assertEquals(read.get(i - 1) + 1, read.get(i), partition + ": no record skipped");
        }
        assertEquals(last, read.get(read.size() - 1), partition + " read to its end");
        return next - read.get(0);
    }

    /** Kafka's {@code kafka-consumer-groups} of the broker's version, as the admin, in a child JVM: its output. */
    private static String kafkaConsumerGroups(LocalKafkaBroker cluster, Path dir, String... args) throws Exception {
        Properties admin = new Properties();
        cluster.clientProperties().forEach((k, v) -> admin.setProperty(k, v.toString()));
        Path commandConfig = dir.resolve("admin-" + cluster.name() + ".properties");
        try (var out = Files.newOutputStream(commandConfig)) {
            admin.store(out, "the admin, for kafka-consumer-groups");
        }
        List<Path> jars = KafkaDistribution.of("kafka-tools", cluster.version(),
                List.of("org.apache.kafka:kafka-tools:" + cluster.version())).classpath();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx256m", "-cp", jars.stream().map(Path::toString).collect(Collectors.joining(
                File.pathSeparator)), "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand",
                "--bootstrap-server", cluster.bootstrapServers(), "--command-config", commandConfig.toString()));
        command.addAll(List.of(args));
        Path output = dir.resolve("kafka-consumer-groups.out");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
                .start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("kafka-consumer-groups did not finish in 60 s: " + Files.readString(output));
        }
        return Files.readString(output);
    }

    private static SextantClient.Translation exactAtTheEnd(SextantClient client, int partition) {
        try {
            SextantClient.Translation t = client.translate(ORDERS, partition, MIRRORED);
            return "exact".equals(t.precision()) && t.destinationOffset() == MIRRORED ? t : null;
        } catch (SextantClientException e) {
            return null;
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
