package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.acl.RequiredAcl;
import dev.sextant.testing.AclGrants;
import dev.sextant.testing.Cli;
import dev.sextant.testing.SextantProcess;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.ChildJvm;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.FreePorts;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalKafkaBroker;
import dev.sextant.testkit.LocalMirrorMaker;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.Predicate;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/sextant config acls} on secured clusters (SCRAM-SHA-512 over SASL_SSL on the source, mutual TLS on the
 * destination, {@code StandardAuthorizer} denying whatever no ACL allows): by default it grants Read on the source
 * topics MirrorMaker 2 mirrors, found by reading the offset syncs and the destination's topics (as the admin, or as
 * Sextant once granted), and not on every topic; that grant is enough to prove intervals, and without it Sextant
 * keeps the bounded rule and says so, never stopping.
 */
class ConfigAclsIT {

    private static final String PRINCIPAL = "User:sextant";
    private static final String SCRAM_PASSWORD = "scram-Acl-4242";
    /** Mirrored: MirrorMaker 2 mirrors the acl-* topics. */
    private static final String MIRRORED = "acl-orders";
    /** On the source, not mirrored. */
    private static final String UNMIRRORED = "audit-local";
    /** On the destination only: not a mirror, though its name looks like the source's topics. */
    private static final String DESTINATION_OWN = "acl-reports";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    static LocalClusters clusters;
    static AclGrants acls;

    @BeforeAll
    static void start() {
        clusters = LocalClusters.builder().secured().scramUser("sextant", SCRAM_PASSWORD)
                .mirrorMaker(LocalMirrorMaker.Options.builder().topics("acl-.*").build()).start();
        acls = new AclGrants(clusters, PRINCIPAL);
        clusters.createTopic(clusters.source(), MIRRORED, 2);
        clusters.createTopic(clusters.source(), UNMIRRORED, 1);
        clusters.createTopic(clusters.destination(), DESTINATION_OWN, 1);
        Clients.produceNumbered(clusters.source(), MIRRORED, 2, 500);
        Clients.produceNumbered(clusters.source(), UNMIRRORED, 1, 10);
        clusters.awaitMirrored(MIRRORED, Duration.ofSeconds(90));
    }

    @AfterAll
    static void stop() {
        if (clusters != null) {
            clusters.close();
        }
    }

    @Test
    void theMirroredTopicsFoundAsTheAdminAreReadEnoughToProveIntervals() throws Exception {
        int port = FreePorts.pick(1).get(0);
        Path file = config("sextant-acl-found", port);
        List<RequiredAcl> printed = printedAcls(file, "--source-admin-config", adminConfig(clusters.source()),
                "--destination-admin-config", adminConfig(clusters.destination()));
        assertEquals(List.of(AclOperation.DESCRIBE), sourceTopic(printed, "*").operations(), "Describe on every topic");
        RequiredAcl read = sourceTopic(printed, MIRRORED);
        assertEquals(List.of(AclOperation.READ), read.operations(), read.toString());
        assertEquals(PatternType.LITERAL, read.patternType());
        for (String other : List.of(UNMIRRORED, DESTINATION_OWN)) {
            assertTrue(printed.stream().noneMatch(a -> a.name().equals(other)), other + " in " + printed);
        }

        acls.grant(printed);
        ChildJvm sextant = SextantProcess.start(file, dir.resolve("found.log"));
        try {
            String base = "http://127.0.0.1:" + port;
            awaitReady(base);
            commitBetweenSyncs("acl-found");
            // every partition exact: the interval was read on both clusters with exactly the printed grant
            awaitPartitions(base, "acl-found", p -> "exact".equals(p.path("precision").asText()));

            // printed again with Sextant's own settings, as once it runs: the same list
            assertEquals(printed, printedAcls(file));
        } finally {
            sextant.stop(Duration.ofSeconds(30));
            acls.revoke(printed);
        }
    }

    /** Before any grant Sextant's own principal reads nothing: the command says so and grants no Read. */
    @Test
    void nothingFoundIsSaidAndGrantsNoRead() throws Exception {
        Path file = config("sextant-acl-none", 0);
        Cli.Run run = Cli.run("config", "acls", "-c", file.toString(), "--json");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.err().contains("not authorized"), run.err());
        assertTrue(run.err().contains("--all-topics-read"), "how to grant: " + run.err());
        JsonNode source = JSON.readTree(run.out()).path("clusters").path(0);
        assertTrue(source.path("notes").path(0).asText().startsWith("Read on no source topic"), source.toString());
        for (JsonNode acl : source.path("acls")) {
            boolean read = acl.path("operations").toString().contains("READ");
            assertTrue(!read || !acl.path("name").asText().startsWith("acl-") && !acl.path("name").asText()
                    .equals("*"), acl.toString());
        }
    }

    /**
     * Read withheld on the mirrored topic, as for a topic MirrorMaker 2 began to mirror after the ACLs were printed:
     * Sextant applies the commits bounded, logs the topic it may not read and counts it; nothing stops.
     */
    @Test
    void aMirroredTopicItMayNotReadKeepsTheBoundedRule() throws Exception {
        int port = FreePorts.pick(1).get(0);
        Path file = config("sextant-acl-unread", port);
        List<RequiredAcl> granted = printedAcls(file, "--mirrored-topics", "acl-elsewhere");
        assertTrue(granted.stream().noneMatch(a -> a.name().equals(MIRRORED)), granted.toString());
        acls.grant(granted);
        Path log = dir.resolve("unread.log");
        ChildJvm sextant = SextantProcess.start(file, log);
        try {
            String base = "http://127.0.0.1:" + port;
            awaitReady(base);
            commitBetweenSyncs("acl-unread");
            awaitPartitions(base, "acl-unread", p -> "bounded".equals(p.path("precision").asText())
                    && p.path("bound").asLong() > 0);
            Await.until(Duration.ofSeconds(60), "the applied offsets on the destination", () -> Clients.committed(
                    clusters, clusters.destination(), "acl-unread", "source." + MIRRORED).size() == 2);
            Await.until(Duration.ofSeconds(30), "the denied read logged and counted", () -> {
                try {
                    return Files.readString(log).contains("to prove intervals between offset syncs was denied")
                            && get(base + "/metrics").body().lines().anyMatch(line -> line.startsWith(
                            "sextant_offset_sync_interval_topics_denied") && !line.endsWith(" 0.0"));
                } catch (IOException | InterruptedException e) {
                    return false;
                }
            });
            assertEquals(200, get(base + "/health/ready").statusCode(), "still serving");
            assertTrue(sextant.isAlive(), "still running");
        } finally {
            sextant.stop(Duration.ofSeconds(30));
            acls.revoke(granted);
        }
    }

    /** Sextant's configuration on the secured pair, as Sextant's principal on both; the API on {@code port}. */
    private static Path config(String applicationId, int port) throws IOException {
        Map<String, String> c = new LinkedHashMap<>();
        clusters.source().clientProperties("sextant").forEach((k, v) -> c.put("source." + k, v.toString()));
        clusters.destination().clientProperties("sextant").forEach((k, v) -> c.put("destination." + k,
                v.toString()));
        c.put("application.id", applicationId);
        c.put("state.dir", dir.resolve("state-" + applicationId).toString());
        c.put("groups.include", "acl-.*");
        c.put("sync.interval.ms", "100");
        c.put("streams.num.stream.threads", "1");
        c.put("query.listen", "127.0.0.1:" + port);
        return properties(dir.resolve(applicationId + ".properties"), c);
    }

    /** The cluster's admin settings in a file, as {@code kafka-acls.sh --command-config} takes them. */
    private static String adminConfig(LocalKafkaBroker cluster) throws IOException {
        Map<String, String> admin = new LinkedHashMap<>();
        cluster.clientProperties().forEach((k, v) -> admin.put(k, v.toString()));
        return properties(dir.resolve(cluster.name() + "-admin.properties"), admin).toString();
    }

    private static Path properties(Path file, Map<String, String> values) throws IOException {
        Properties properties = new Properties();
        properties.putAll(values);
        try (var writer = Files.newBufferedWriter(file)) {
            properties.store(writer, null);
        }
        return file;
    }

    /** The ACLs {@code bin/sextant config acls -c <file> --json <options>} prints, as granted. */
    private static List<RequiredAcl> printedAcls(Path file, String... options) throws IOException {
        List<String> args = new ArrayList<>(List.of("config", "acls", "-c", file.toString(), "--json"));
        args.addAll(List.of(options));
        Cli.Run run = Cli.run(args.toArray(String[]::new));
        assertEquals(0, run.exit(), run.err());
        List<RequiredAcl> printed = new ArrayList<>();
        for (JsonNode cluster : JSON.readTree(run.out()).path("clusters")) {
            RequiredAcl.Cluster which = RequiredAcl.Cluster.valueOf(cluster.path("cluster").asText()
                    .toUpperCase(Locale.ROOT));
            for (JsonNode acl : cluster.path("acls")) {
                List<AclOperation> operations = new ArrayList<>();
                acl.path("operations").forEach(op -> operations.add(AclOperation.valueOf(op.asText())));
                printed.add(new RequiredAcl(which, ResourceType.valueOf(acl.path("resourceType").asText()),
                        acl.path("name").asText(), PatternType.valueOf(acl.path("patternType").asText()), operations,
                        acl.path("why").asText()));
            }
        }
        return printed;
    }

    private static RequiredAcl sourceTopic(List<RequiredAcl> acls, String name) {
        return acls.stream().filter(a -> a.cluster() == RequiredAcl.Cluster.SOURCE
                        && a.resourceType() == ResourceType.TOPIC && a.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no source topic " + name + " in " + acls));
    }

    /**
     * Commits {@code group} on each partition in the middle of two of MirrorMaker 2's syncs at least four apart: the
     * bounded rule leaves a replay bound above 0 there, so only a proof makes it exact.
     */
    private static void commitBetweenSyncs(String group) {
        Map<Integer, Long> commit = new HashMap<>();
        for (int partition : List.of(0, 1)) {
            commit.put(partition, Await.value(Duration.ofSeconds(60), "two syncs apart on " + MIRRORED + "-"
                    + partition, () -> {
                        List<Long> syncs = Clients.mirrorMakerSyncs(clusters.source(), MIRRORED, partition).stream()
                                .sorted().distinct().toList();
                        for (int i = 0; i + 1 < syncs.size(); i++) {
                            long gap = syncs.get(i + 1) - syncs.get(i);
                            if (gap >= 4) {
                                return syncs.get(i) + gap / 2;
                            }
                        }
                        return null;
                    }));
        }
        Clients.commit(clusters.source(), group, MIRRORED, commit);
    }

    /** Waits until {@code /v1/groups/<group>} shows both partitions and each meets {@code settled}. */
    private static void awaitPartitions(String base, String group, Predicate<JsonNode> settled) {
        Await.until(Duration.ofSeconds(90), group + " settled", () -> {
            try {
                HttpResponse<String> r = get(base + "/v1/groups/" + group);
                JsonNode partitions = JSON.readTree(r.body()).path("partitions");
                boolean all = r.statusCode() == 200 && partitions.size() == 2;
                for (JsonNode p : partitions) {
                    all &= settled.test(p);
                }
                return all;
            } catch (IOException | InterruptedException e) {
                return false;
            }
        });
    }

    private static void awaitReady(String base) {
        Await.until(Duration.ofSeconds(120), base + " ready", () -> {
            try {
                return get(base + "/health/ready").statusCode() == 200;
            } catch (IOException | InterruptedException e) {
                return false;
            }
        });
    }

    private static HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
