package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.acl.RequiredAcl;
import dev.sextant.acl.RequiredAcls;
import dev.sextant.acl.SourceTopicReads;
import dev.sextant.config.SextantConfig;
import dev.sextant.config.SextantConfigLoader;
import dev.sextant.testing.AclGrants;
import dev.sextant.testing.Cli;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testing.SextantProcess;
import dev.sextant.testing.StopLog;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.ChildJvm;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.FreePorts;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.TestCertificates;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.function.Supplier;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sextant between two secured clusters, as in production: SCRAM-SHA-512 over SASL_SSL on the source, mutual TLS on
 * the destination, {@code StandardAuthorizer} denying whatever no ACL allows, MirrorMaker 2 mirroring as the admin,
 * and Sextant's principal ({@code User:sextant} on both) granted exactly {@link RequiredAcls} (what
 * {@code bin/sextant config acls} prints and docs/security.md lists: Read on the source's mirrored topic alone, not
 * on every topic). Secrets come through Kafka's config providers; the HTTP API runs on TLS with client certificates
 * and a token. {@code ConfigAclsIT} finds the mirrored topics on secured clusters.
 */
class SecureSyncIT {

    private static final String PRINCIPAL = "User:sextant";
    private static final String SCRAM_PASSWORD = "scram-Secret-4711";
    private static final String TOKEN = "api-Token-0815";
    private static final String TOPIC = "secure-orders";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    static LocalClusters clusters;
    static TestCertificates apiCertificates;
    static Path secrets;
    /** Sextant's principal's ACLs, granted and revoked as the admin. */
    static AclGrants acls;

    @BeforeAll
    static void start() throws Exception {
        clusters = LocalClusters.builder().secured().scramUser("sextant", SCRAM_PASSWORD).start();
        acls = new AclGrants(clusters, PRINCIPAL);
        clusters.createTopic(clusters.source(), TOPIC, 2);
        Clients.produceNumbered(clusters.source(), TOPIC, 2, 500);
        clusters.awaitMirrored(TOPIC, Duration.ofSeconds(90));
        apiCertificates = TestCertificates.create(dir.resolve("api-ca"), "sextant-api-ca");
        TestCertificates.KeyMaterial destinationKey = clusters.destination().certificates().orElseThrow()
                .client("sextant");
        secrets = dir.resolve("secrets.properties");
        Files.writeString(secrets, "scram.password=" + SCRAM_PASSWORD + "\n"
                + "destination.keystore.password=" + destinationKey.password() + "\n"
                + "destination.truststore.password="
                + clusters.destination().certificates().orElseThrow().trust().password() + "\n"
                + "api.password=" + apiCertificates.password() + "\n"
                + "token=" + TOKEN + "\n");
    }

    @AfterAll
    static void stop() {
        if (clusters != null) {
            clusters.close();
        }
    }

    /** Sextant's configuration on the secured pair; every secret is a ${file:...} reference. */
    static Map<String, String> config(String applicationId, int queryPort, boolean apiTls) {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("config.providers", "file");
        c.put("config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider");
        String secret = "${file:" + secrets + ":%s}";
        c.put("source.bootstrap.servers", clusters.source().bootstrapServers());
        clusters.source().clientProperties("sextant").forEach((k, v) -> {
            if (!k.equals("bootstrap.servers") && !k.equals("sasl.jaas.config")) {
                c.put("source." + k, v.toString());
            }
        });
        c.put("source.sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required "
                + "username=\"sextant\" password=\"" + secret.formatted("scram.password") + "\";");
        TestCertificates destination = clusters.destination().certificates().orElseThrow();
        c.put("destination.bootstrap.servers", clusters.destination().bootstrapServers());
        c.put("destination.security.protocol", "SSL");
        c.put("destination.ssl.keystore.type", "PKCS12");
        c.put("destination.ssl.keystore.location", destination.client("sextant").keyStore().toString());
        c.put("destination.ssl.keystore.password", secret.formatted("destination.keystore.password"));
        c.put("destination.ssl.truststore.type", "PKCS12");
        c.put("destination.ssl.truststore.location", destination.trust().trustStore().toString());
        c.put("destination.ssl.truststore.password", secret.formatted("destination.truststore.password"));
        c.put("application.id", applicationId);
        c.put("state.dir", dir.resolve("state-" + applicationId + "-" + queryPort).toString());
        c.put("groups.include", "secure-.*");
        c.put("sync.interval.ms", "100");
        c.put("streams.num.stream.threads", "1");
        c.put("query.listen", "127.0.0.1:" + queryPort);
        if (apiTls) {
            TestCertificates.KeyMaterial api = apiCertificates.server("sextant-api");
            c.put("query.tls.keystore.location", api.keyStore().toString());
            c.put("query.tls.keystore.password", secret.formatted("api.password"));
            c.put("query.tls.truststore.location", apiCertificates.trust().trustStore().toString());
            c.put("query.tls.truststore.password", secret.formatted("api.password"));
            c.put("query.tls.client.auth", "required");
            c.put("query.auth.token", secret.formatted("token"));
        }
        return c;
    }

    private static SextantConfig load(Map<String, String> config) {
        return SextantConfigLoader.load(new HashMap<>(config), Map.of());
    }

    /** What {@code config acls} prints for the configuration with {@code --mirrored-topics secure-orders}. */
    private static List<RequiredAcl> required(Map<String, String> config) {
        return RequiredAcls.of(load(config), SourceTopicReads.only(List.of(SourceTopicReads.literal(TOPIC)),
                "named by --mirrored-topics"));
    }

    private static SSLContext apiClientContext() throws Exception {
        TestCertificates.KeyMaterial tool = apiCertificates.client("failover-tool");
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(tool.keyStore())) {
            keys.load(in, tool.password().toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, tool.password().toCharArray());
        KeyStore trust = KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(apiCertificates.trust().trustStore())) {
            trust.load(in, apiCertificates.trust().password().toCharArray());
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return context;
    }

    private static HttpResponse<String> get(HttpClient http, String url, String token) throws IOException,
            InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Destination offsets Sextant says a group resumes at, as {@code topic-partition -> offset}. */
    private static Map<String, Long> offsetsFromApi(HttpClient http, String base, String group) throws Exception {
        HttpResponse<String> r = get(http, base + "/v1/groups/" + group + "/offsets", TOKEN);
        if (r.statusCode() != 200) {
            return null;
        }
        Map<String, Long> out = new HashMap<>();
        for (JsonNode o : JSON.readTree(r.body()).get("offsets")) {
            if (!o.get("offset").isNull()) {
                out.put(o.get("topic").asText() + "-" + o.get("partition").asInt(), o.get("offset").asLong());
            }
        }
        return out;
    }

    @Test
    void syncsConsumerAndShareGroupsWithExactlyTheDocumentedAclsOverSecuredApis() throws Exception {
        String app = "sextant-secure";
        List<Integer> ports = FreePorts.pick(2);
        List<Map<String, String>> configs = List.of(config(app, ports.get(0), true), config(app, ports.get(1), true));
        // Read on the mirrored topic only: its intervals are proven with it (the offsets below settle exact)
        acls.grant(required(configs.get(0)));

        List<ChildJvm> instances = new ArrayList<>();
        List<Path> logs = new ArrayList<>();
        HttpClient http = HttpClient.newBuilder().sslContext(apiClientContext())
                .connectTimeout(Duration.ofSeconds(5)).build();
        try {
            for (int i = 0; i < 2; i++) {
                Path file = SextantProcess.writeConfig(dir.resolve("sextant-" + i + ".properties"), configs.get(i));
                Path log = dir.resolve("sextant-" + i + ".log");
                logs.add(log);
                // Kafka clients log their whole configuration at INFO: the secrets must be masked there too
                instances.add(SextantProcess.start(file, log, Map.of("SEXTANT_KAFKA_LOG_LEVEL", "INFO")));
            }
            List<String> bases = ports.stream().map(p -> "https://127.0.0.1:" + p).toList();
            for (String base : bases) {
                awaitReady(http, base);
                assertEquals(401, get(http, base + "/v1/groups", null).statusCode(), "no token, no answer");
            }

            // a consumer group, committed past MirrorMaker 2's oldest syncs, and a share group
            Map<Integer, Long> commit = new HashMap<>();
            for (int partition : List.of(0, 1)) {
                long oldest = Await.value(Duration.ofSeconds(60), "a MirrorMaker 2 sync of " + TOPIC + "-" + partition,
                        () -> Clients.mirrorMakerSyncs(clusters.source(), TOPIC, partition).stream()
                                .min(Long::compare).orElse(null));
                commit.put(partition, Math.max(300L + partition, oldest + 1));
            }
            Clients.commit(clusters.source(), "secure-billing", TOPIC, commit);
            Clients.shareFromEarliest(clusters, clusters.source(), "secure-shipping");
            Clients.consumeShare(clusters.source(), "secure-shipping", TOPIC, 300);

            String mirrored = "source." + TOPIC;
            Map<String, Long> billing = awaitAppliedConsumerOffsets(http, bases.get(0), mirrored);
            Map<String, Long> shipping = awaitAppliedShareOffsets(http, bases.get(0), mirrored);

            // both instances answer for both groups: one of them forwards, over mutual TLS with the token
            JsonNode instancesSeen = JSON.readTree(get(http, bases.get(0) + "/v1/instances", TOKEN).body());
            assertEquals(2, instancesSeen.get("instances").size(), instancesSeen.toString());
            for (String base : bases) {
                assertEquals(billing, offsetsFromApi(http, base, "secure-billing"), base);
                assertEquals(shipping, offsetsFromApi(http, base, "secure-shipping"), base);
            }
            // the CLI connects with the configuration's TLS stores and token
            Cli.Run cli = Cli.run("offsets", "-c", dir.resolve("sextant-1.properties").toString(),
                    "--group", "secure-billing", "--json");
            assertEquals(0, cli.exit(), cli.err());
            assertTrue(cli.out().contains(mirrored), cli.out());
            System.out.printf("secured sync: %s -> %s and %s -> %s, over SCRAM/SASL_SSL and mutual TLS with "
                    + "%d ACLs%n", "secure-billing", billing, "secure-shipping", shipping,
                    required(configs.get(0)).size());
        } finally {
            for (ChildJvm instance : instances) {
                instance.stop(Duration.ofSeconds(30));
            }
        }
        for (Path log : logs) {
            assertNoSecretIn(log);
            StopLog.assertQuiet(log); // both were stopped by SIGTERM above
        }
        acls.revoke(required(configs.get(0)));
    }

    private static void awaitReady(HttpClient http, String base) {
        Await.until(Duration.ofSeconds(120), base + " ready", () -> {
            try {
                return get(http, base + "/health/ready", null).statusCode() == 200;
            } catch (IOException | InterruptedException e) {
                return false;
            }
        });
    }

    /**
     * secure-billing's offsets, once the API gives what the destination's group has, settled: a commit between two
     * syncs is written bounded first and again exact once its interval is proven, and the comparisons after this must
     * not straddle that rewrite.
     */
    private static Map<String, Long> awaitAppliedConsumerOffsets(HttpClient http, String base, String mirrored) {
        return awaitApplied(http, base, "secure-billing", n -> n == 2, true, () -> {
            Map<String, Long> there = new HashMap<>();
            Clients.committed(clusters, clusters.destination(), "secure-billing", mirrored)
                    .forEach((p, om) -> there.put(mirrored + "-" + p, om.offset()));
            return there;
        });
    }

    /** secure-shipping's start offsets, once the API gives what the destination's share group has. */
    private static Map<String, Long> awaitAppliedShareOffsets(HttpClient http, String base, String mirrored) {
        return awaitApplied(http, base, "secure-shipping", n -> n > 0, false, () -> {
            Map<String, Long> there = new HashMap<>();
            Clients.shareStartOffsets(clusters, clusters.destination(), "secure-shipping", mirrored)
                    .forEach((p, o) -> there.put(mirrored + "-" + p, o));
            return there;
        });
    }

    /**
     * The group's destination offsets, once the API gives as many as {@code count} accepts and they equal what
     * {@code destination} reads from the destination cluster.
     */
    private static Map<String, Long> awaitApplied(HttpClient http, String base, String group, IntPredicate count,
                                                  boolean settled, Supplier<Map<String, Long>> destination) {
        return Await.value(Duration.ofSeconds(60), group + " applied", () -> {
            try {
                if (settled && !settledInApi(http, base, group)) {
                    return null; // asked first: once final, the offsets read next cannot change any more
                }
                Map<String, Long> api = offsetsFromApi(http, base, group);
                Map<String, Long> there = destination.get();
                return api != null && count.test(api.size()) && api.equals(there) ? there : null;
            } catch (Exception e) {
                return null;
            }
        });
    }

    /**
     * True when every partition of the group is final in {@code /v1/groups/<group>}: precision {@code exact}, or a
     * bound of 0 (a commit between two syncs is written bounded first and again exact once its interval is proven).
     */
    private static boolean settledInApi(HttpClient http, String base, String group) throws Exception {
        HttpResponse<String> r = get(http, base + "/v1/groups/" + group, TOKEN);
        if (r.statusCode() != 200) {
            return false;
        }
        JsonNode partitions = JSON.readTree(r.body()).path("partitions");
        for (JsonNode p : partitions) {
            if (!"exact".equals(p.path("precision").asText()) && p.path("bound").asLong(-1) != 0) {
                return false;
            }
        }
        return partitions.size() > 0;
    }

    private static void assertNoSecretIn(Path log) throws IOException {
        String text = Files.readString(log);
        assertTrue(text.contains("Sextant"), "the log has the run in it: " + log);
        for (String secret : List.of(SCRAM_PASSWORD, TOKEN, apiCertificates.password(),
                clusters.destination().certificates().orElseThrow().client("sextant").password())) {
            assertFalse(text.contains(secret), "a secret in " + log);
        }
    }

    @Test
    void eachMissingGrantIsNamed() throws Exception {
        String app = "sextant-secure-denied";
        // interpolation off: the grants here are those Sextant cannot run without (Read on the mirrored topics only
        // sharpens translations; ConfigAclsIT withholds it)
        Map<String, String> config = new HashMap<>(config(app, 0, false));
        config.put("translation.interpolation", "off");
        List<RequiredAcl> all = RequiredAcls.withoutProofReads(load(config));
        acls.grant(all);
        Path file = SextantProcess.writeConfig(dir.resolve("denied.properties"), config);
        try {
            // __consumer_offsets exists once a group committed: then its Read is checked before Kafka Streams starts
            Clients.commit(clusters.source(), "secure-setup", TOPIC, Map.of(0, 1L));
            // at start, on the source: the run stops with exit code 3 and the command that grants what is missing
            assertRunRefused(file, find(all, ResourceType.TOPIC, "__consumer_offsets"), AclOperation.READ,
                    "__consumer_offsets");
            assertRunRefused(file, find(all, ResourceType.GROUP, app), AclOperation.READ, "group '" + app + "'");
            assertRunRefused(file, find(all, ResourceType.TOPIC, app + "-"), AclOperation.CREATE, app + "-");

            // on the destination: positions wait, /health/ready names the refusal, and the grant lets them through
            Map<String, Object> overrides = new HashMap<>(config);
            try (SextantInstance sextant = SextantInstance.start(clusters, app, dir.resolve("state-denied"),
                    overrides)) {
                String ready = "http://" + sextant.app().queryAddress() + "/health/ready";
                HttpClient http = HttpClient.newHttpClient();
                int round = 0;
                for (RequiredAcl acl : List.of(find(all, ResourceType.GROUP, "*", RequiredAcl.Cluster.DESTINATION),
                        find(all, ResourceType.TOPIC, "*", RequiredAcl.Cluster.DESTINATION))) {
                    RequiredAcl readOnly = only(acl, AclOperation.READ);
                    acls.revoke(List.of(readOnly));
                    String group = "secure-denied-" + round++;
                    long offset = 200 + round;
                    Clients.commit(clusters.source(), group, TOPIC, Map.of(0, offset));
                    // readiness shows the newest refusal of the last minute: an earlier round's may still be there
                    // (a group whose retry has not come round yet) until this round's is seen
                    String kind = acl.resourceType() == ResourceType.GROUP ? "(Sextant needs Read and Describe on the "
                            + "groups" : "topics";
                    String problem = Await.value(Duration.ofSeconds(60), "readiness names the refusal", () -> {
                        try {
                            HttpResponse<String> r = get(http, ready, null);
                            JsonNode body = JSON.readTree(r.body());
                            // the process still serves: 200, the refusal in the body (DEGRADED)
                            return r.statusCode() == 200 && "DEGRADED".equals(body.path("status").asText())
                                    && body.hasNonNull("problem")
                                    && body.get("problem").asText().contains("not authorized on the destination")
                                    && body.get("problem").asText().contains(kind)
                                    ? body.get("problem").asText() : null;
                        } catch (Exception e) {
                            return null;
                        }
                    });
                    assertTrue(problem.contains(acl.resourceType() == ResourceType.GROUP ? "group" : "topic"), problem);
                    acls.grant(List.of(readOnly));
                    Await.until(Duration.ofSeconds(90), group + " applied once granted", () -> {
                        Map<Integer, OffsetAndMetadata> there = Clients.committed(clusters, clusters.destination(),
                                group, "source." + TOPIC);
                        return there.containsKey(0);
                    });
                    System.out.printf("missing destination %s: /health/ready said \"%s\"; applied once granted%n",
                            readOnly.describe(), problem);
                }
            }
        } finally {
            acls.revoke(all);
        }
    }

    private static void assertRunRefused(Path file, RequiredAcl acl, AclOperation operation, String named)
            throws Exception {
        RequiredAcl one = only(acl, operation);
        acls.revoke(List.of(one));
        try {
            long start = System.nanoTime();
            Cli.Run run = Cli.run("run", "-c", file.toString());
            assertEquals(3, run.exit(), "exit code without " + one.describe() + ": " + run.err());
            assertTrue(run.err().contains(named), run.err());
            assertTrue(run.err().contains("kafka-acls"), "the command that grants it: " + run.err());
            System.out.printf("missing source %s: exit 3 after %d ms: %s%n", one.describe(),
                    (System.nanoTime() - start) / 1_000_000, run.err().lines().limit(3).toList());
        } finally {
            acls.grant(List.of(one));
        }
    }

    private static RequiredAcl only(RequiredAcl acl, AclOperation operation) {
        return new RequiredAcl(acl.cluster(), acl.resourceType(), acl.name(), acl.patternType(), List.of(operation),
                acl.why());
    }

    private static RequiredAcl find(List<RequiredAcl> all, ResourceType type, String name) {
        return find(all, type, name, RequiredAcl.Cluster.SOURCE);
    }

    private static RequiredAcl find(List<RequiredAcl> all, ResourceType type, String name,
                                    RequiredAcl.Cluster cluster) {
        return all.stream().filter(a -> a.cluster() == cluster && a.resourceType() == type && a.name().equals(name))
                .findFirst().orElseThrow(() -> new AssertionError("no " + type + " " + name + " in " + all));
    }
}
