package dev.sextant.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.config.SextantConfig;
import dev.sextant.config.SextantConfigLoader;
import dev.sextant.deploy.DeployTools.Result;
import dev.sextant.query.FakeBackend;
import dev.sextant.testkit.TestCertificates;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.network.ConnectionMode;
import org.apache.kafka.common.security.ssl.SslFactory;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What is under {@code deploy/} works: the alert rules pass {@code promtool check rules} and their unit tests
 * ({@code promtool test rules}), every YAML file passes {@code yamllint}, and the dashboard and the rules only name
 * meters {@code docs/metrics.md} documents. The tools come from Debian ({@code prometheus}, {@code yamllint}); where
 * they are missing the tool checks are skipped, except when {@code SEXTANT_REQUIRE_TOOLS=1} (set by
 * {@code .ci/run}, which installs them).
 */
class DeployFilesTest {

    private static final Path ROOT = DeployTools.ROOT;
    private static final Path DEPLOY = DeployTools.DEPLOY;
    private static final Path BASE = DEPLOY.resolve("kubernetes/base");
    private static final Pattern SEXTANT_METER = Pattern.compile("\\bsextant_[a-z_]+");

    @Test
    void theAlertRulesPassPromtoolAndTheirUnitTests() throws Exception {
        requireTool("promtool");
        Path rules = DEPLOY.resolve("prometheus");
        Result check = run(rules, "promtool", "check", "rules", "sextant-rules.yaml");
        assertEquals(0, check.exit(), check.output());
        Result test = run(rules, "promtool", "test", "rules", "sextant-rules.test.yaml");
        assertEquals(0, test.exit(), test.output());
        assertTrue(test.output().contains("SUCCESS"), test.output());
    }

    @Test
    void everyYamlFilePassesYamllint() throws Exception {
        requireTool("yamllint");
        Result lint = run(ROOT, "yamllint", "--strict", "-c", "deploy/.yamllint", "deploy/");
        assertEquals(0, lint.exit(), lint.output());
    }

    @Test
    void theDashboardAndTheRulesNameOnlyDocumentedMeters() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(DEPLOY.resolve("grafana/sextant.json").toFile());
        assertEquals("sextant", dashboard.path("uid").asText());
        List<String> expressions = new ArrayList<>();
        dashboard.path("panels").forEach(p -> p.path("targets").forEach(t -> expressions.add(t.path("expr").asText())));
        assertTrue(expressions.size() >= 10, "panels with queries: " + expressions);
        String documented = Files.readString(ROOT.resolve("docs/metrics.md"));
        TreeSet<String> unknown = new TreeSet<>();
        List<String> sources = new ArrayList<>(expressions);
        sources.add(Files.readString(DEPLOY.resolve("prometheus/sextant-rules.yaml")));
        for (String source : sources) {
            Matcher m = SEXTANT_METER.matcher(source);
            while (m.find()) {
                String name = m.group().replaceAll("_(bucket|count|sum)$", "");
                if (!documented.contains("`" + name + "`")) {
                    unknown.add(m.group());
                }
            }
        }
        assertEquals(new TreeSet<>(), unknown, "meters not in docs/metrics.md");
    }

    /**
     * Alertmanager and Grafana show runbook_url as a link, so it must be absolute: the project's URL (the root pom's
     * {@code <url>}) on main, and its anchor a heading of docs/runbook.md (as GitHub makes anchors of headings).
     */
    @Test
    void everyRunbookUrlIsAbsoluteOnTheProjectsUrlAndItsAnchorIsARunbookHeading() throws IOException {
        Matcher url = Pattern.compile("(?m)^  <url>(\\S+)</url>$").matcher(Files.readString(ROOT.resolve("pom.xml")));
        assertTrue(url.find(), "the root pom has no <url>");
        String base = url.group(1) + "/blob/main/docs/runbook.md#";
        assertTrue(base.startsWith("https://"), base);
        TreeSet<String> anchors = new TreeSet<>();
        Matcher heading = Pattern.compile("(?m)^#+ (.+)$").matcher(Files.readString(ROOT.resolve("docs/runbook.md")));
        while (heading.find()) {
            anchors.add(heading.group(1).strip().toLowerCase(Locale.ROOT)
                    .replaceAll("[^a-z0-9 _-]", "").replace(' ', '-'));
        }
        for (String file : List.of("prometheus/sextant-rules.yaml", "prometheus/sextant-prometheusrule.yaml")) {
            Matcher m = Pattern.compile("runbook_url: \"?([^\"\\s]+)").matcher(Files.readString(DEPLOY.resolve(file)));
            int links = 0;
            while (m.find()) {
                links++;
                String link = m.group(1);
                assertTrue(link.startsWith(base), file + ": " + link + " is not on " + base);
                assertTrue(anchors.contains(link.substring(base.length())),
                        file + ": " + link + " names no heading of docs/runbook.md " + anchors);
            }
            assertTrue(links >= 10, file + " has " + links + " runbook_url links");
        }
    }

    /**
     * The dashboard has an instance variable (Prometheus label values, several or all at once), and every query's
     * every selector uses it, as it uses the job variable.
     */
    @Test
    void theDashboardFiltersEveryQueryByInstance() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(DEPLOY.resolve("grafana/sextant.json").toFile());
        JsonNode instance = null;
        for (JsonNode variable : dashboard.at("/templating/list")) {
            if (variable.path("name").asText().equals("instance")) {
                instance = variable;
            }
        }
        assertTrue(instance != null, "no instance variable");
        assertEquals("query", instance.path("type").asText());
        assertEquals("prometheus", instance.at("/datasource/type").asText());
        assertTrue(instance.path("query").asText().matches("label_values\\(\\w+\\{job=~\"\\$job\"}, instance\\)"),
                instance.path("query").asText());
        assertTrue(instance.path("multi").asBoolean() && instance.path("includeAll").asBoolean(), instance.toString());
        Pattern selector = Pattern.compile("\\{([^}]*)}");
        int queries = 0;
        for (JsonNode panel : dashboard.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                String expr = target.path("expr").asText();
                queries++;
                Matcher m = selector.matcher(expr);
                int selectors = 0;
                while (m.find()) {
                    selectors++;
                    assertTrue(m.group(1).contains("job=~\"$job\"") && m.group(1).contains("instance=~\"$instance\""),
                            panel.path("title").asText() + ": " + expr);
                }
                assertTrue(selectors > 0, panel.path("title").asText() + ": " + expr);
            }
        }
        assertTrue(queries >= 20, "queries: " + queries);
    }

    /**
     * The dashboard's rows for the JVM, RocksDB and Kafka Streams query meters of those families, each documented in
     * docs/metrics.md (DashboardMetricsIT finds them in a running instance's scrape).
     */
    @Test
    void theDashboardHasJvmRocksDbAndStreamsRowsOfDocumentedMeters() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(DEPLOY.resolve("grafana/sextant.json").toFile());
        Map<String, List<String>> rows = new LinkedHashMap<>();
        List<String> current = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            if (panel.path("type").asText().equals("row")) {
                current = new ArrayList<>();
                rows.put(panel.path("title").asText(), current);
            }
            for (JsonNode target : panel.path("targets")) {
                Matcher name = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\{").matcher(target.path("expr").asText());
                while (name.find()) {
                    current.add(name.group(1));
                }
            }
        }
        assertEquals(List.of("JVM", "RocksDB", "Kafka Streams"), List.copyOf(rows.keySet()));
        assertFamilies(rows.get("JVM"), "jvm_", "process_", "sextant_memory_limit_bytes");
        assertFamilies(rows.get("RocksDB"), "kafka_stream_state_");
        assertFamilies(rows.get("Kafka Streams"), "kafka_stream_", "kafka_consumer_coordinator_");
        String documented = Files.readString(ROOT.resolve("docs/metrics.md"));
        TreeSet<String> undocumented = new TreeSet<>();
        rows.values().forEach(names -> names.stream()
                .filter(n -> !documented.contains("`" + n.replaceAll("_(bucket|count|sum)$", "") + "`"))
                .forEach(undocumented::add));
        assertEquals(new TreeSet<>(), undocumented, "the rows' meters not in docs/metrics.md");
    }

    private static void assertFamilies(List<String> names, String... prefixes) {
        assertTrue(!names.isEmpty() && names.stream().allMatch(n -> List.of(prefixes).stream().anyMatch(n::startsWith)),
                names + " not all of " + List.of(prefixes));
    }

    /** Variables the launcher and the logging read, not configuration keys. */
    private static final Set<String> LAUNCHER_VARIABLES = Set.of("SEXTANT_JAVA_OPTS",
            "SEXTANT_CLASSPATH", "SEXTANT_LOG_LEVEL", "SEXTANT_KAFKA_LOG_LEVEL", "SEXTANT_LOG_FORMAT", "SEXTANT_DEBUG");

    @Test
    void everySextantVariableTheManifestsSetIsARealKeyAndTheirConfigurationLoads() throws IOException {
        String manifests = Files.readString(BASE.resolve("statefulset.yaml"))
                + Files.readString(BASE.resolve("secret.yaml"))
                + Files.readString(DEPLOY.resolve("kubernetes/overlays/production/statefulset.yaml"))
                + Files.readString(DEPLOY.resolve("kubernetes/overlays/dev/statefulset.yaml"))
                + Files.readString(DEPLOY.resolve("kubernetes/failover/job.yaml"))
                + Files.readString(DEPLOY.resolve("kubernetes/cutover/job.yaml"))
                + Files.readString(DEPLOY.resolve("kubernetes/overlays/failback/secret.yaml"))
                + Files.readString(DEPLOY.resolve("strimzi/failback/kustomization.yaml"))
                + Files.readString(DEPLOY.resolve("strimzi/kustomization.yaml"))
                + Files.readString(DEPLOY.resolve("strimzi/statefulset.yaml"))
                + Files.readString(DEPLOY.resolve("Dockerfile"));
        Matcher m = Pattern.compile("\\b(SEXTANT_[A-Z0-9_]+)").matcher(manifests);
        Map<String, String> env = new TreeMap<>();
        List<String> unknown = new ArrayList<>();
        while (m.find()) {
            String name = m.group(1);
            if (LAUNCHER_VARIABLES.contains(name)) {
                continue;
            }
            Optional<String> key = SextantConfigLoader.keyForEnvironmentVariable(name);
            if (key.isEmpty() || !realKey(key.get())) {
                unknown.add(name + (key.isEmpty() ? "" : " -> " + key.get()));
            }
            env.put(name, sample(name));
        }
        assertEquals(List.of(), unknown, "SEXTANT_* variables that set no configuration key");
        assertTrue(env.containsKey("SEXTANT_QUERY_ADVERTISED"), env.toString());

        Map<String, String> file = new LinkedHashMap<>();
        boolean inFile = false;
        for (String line : Files.readAllLines(BASE.resolve("configmap.yaml"))) {
            if (line.trim().equals("sextant.properties: |")) {
                inFile = true;
            } else if (inFile && line.startsWith("    ") && !line.trim().startsWith("#") && line.contains("=")) {
                String[] kv = line.trim().split("=", 2);
                file.put(kv[0], kv[1]);
            }
        }
        assertTrue(file.containsKey("source.bootstrap.servers"), file.toString());
        SextantConfig loaded = SextantConfigLoader.load(file, env);
        assertEquals("sextant-0.sextant.kafka.svc.cluster.local", loaded.queryAdvertised().host());
        // static membership reaches Kafka Streams' consumers as group.instance.id
        assertEquals("sextant-0", loaded.streamsOverrides().get(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG));
    }

    private static boolean realKey(String key) {
        if (SextantConfig.configDef().names().contains(key)) {
            return true;
        }
        if (key.startsWith("source.") || key.startsWith("destination.")) {
            String client = key.substring(key.indexOf('.') + 1);
            return AdminClientConfig.configNames().contains(client);
        }
        // streams.* reaches Kafka Streams, which passes its clients' settings on (group.instance.id is a consumer's)
        String streams = key.substring(key.indexOf('.') + 1);
        return key.startsWith("streams.") && (StreamsConfig.configDef().names().contains(streams)
                || ConsumerConfig.configNames().contains(streams) || ProducerConfig.configNames().contains(streams)
                || AdminClientConfig.configNames().contains(streams));
    }

    private static String sample(String name) {
        return switch (name) {
            case "SEXTANT_QUERY_ADVERTISED" -> "sextant-0.sextant.kafka.svc.cluster.local:8080";
            case "SEXTANT_QUERY_LISTEN" -> "0.0.0.0:8080";
            case "SEXTANT_STATE_DIR" -> "/var/lib/sextant";
            case "SEXTANT_STREAMS_GROUP_INSTANCE_ID" -> "sextant-0";
            case "SEXTANT_STREAMS_NUM_STANDBY_REPLICAS", "SEXTANT_STREAMS_REPLICATION_FACTOR",
                 "SEXTANT_DLQ_TOPIC_REPLICATION_FACTOR" -> "1";
            case "SEXTANT_SOURCE_SECURITY_PROTOCOL", "SEXTANT_DESTINATION_SECURITY_PROTOCOL" -> "SASL_SSL";
            case "SEXTANT_SOURCE_SASL_MECHANISM", "SEXTANT_DESTINATION_SASL_MECHANISM" -> "SCRAM-SHA-512";
            default -> "org.apache.kafka.common.security.scram.ScramLoginModule required "
                    + "username=\"u\" password=\"p\";";
        };
    }

    /**
     * deploy/strimzi/sextant.properties, its /etc/strimzi/ the Secrets' files as Strimzi writes them (a SCRAM user's
     * sasl.jaas.config; a tls user's user.p12 and user.password; a cluster CA's ca.crt, PEM), here with a test CA:
     * it loads as 'run' loads it, and the Kafka clients' SSL set-up accepts both clusters' stores.
     */
    @Test
    void theStrimziExampleLoadsWithTheSecretFilesStrimziWrites(@TempDir Path dir) throws Exception {
        Path secrets = dir.resolve("strimzi");
        String jaas = "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"sextant-east\" "
                + "password=\"generated-by-the-user-operator\";";
        Files.createDirectories(secrets.resolve("sextant-east"));
        Files.writeString(secrets.resolve("sextant-east/sasl.jaas.config"), jaas);
        TestCertificates east = TestCertificates.create(dir.resolve("east-ca"), "east-cluster-ca");
        TestCertificates west = TestCertificates.create(dir.resolve("west-ca"), "west-cluster-ca");
        for (TestCertificates ca : List.of(east, west)) {
            Path folder = secrets.resolve(ca == east ? "east-cluster-ca-cert" : "west-cluster-ca-cert");
            Files.createDirectories(folder);
            Files.copy(ca.trust().caPem(), folder.resolve("ca.crt"));
        }
        TestCertificates.KeyMaterial user = west.client("sextant-west");
        Files.createDirectories(secrets.resolve("sextant-west"));
        Files.copy(user.keyStore(), secrets.resolve("sextant-west/user.p12"));
        Files.writeString(secrets.resolve("sextant-west/user.password"), user.password());
        Path file = dir.resolve("sextant.properties");
        Files.writeString(file, Files.readString(DEPLOY.resolve("strimzi/sextant.properties"))
                .replace("/etc/strimzi", secrets.toString()));

        SextantConfig loaded = SextantConfigLoader.load(file, Map.of());
        assertEquals(jaas, loaded.sourceClientConfig().get("sasl.jaas.config").toString());
        for (Map<String, Object> client : List.of(loaded.sourceClientConfig(), loaded.destinationClientConfig())) {
            // as a Kafka client configures its SSL channels: every ssl.* default, the stores loaded and checked
            try (SslFactory ssl = new SslFactory(ConnectionMode.CLIENT)) {
                ssl.configure(new AdminClientConfig(client).values());
                assertTrue(ssl.createSslEngine("west-kafka-bootstrap.kafka.svc", 9093).getUseClientMode());
            }
        }
        Map<String, Object> destination = loaded.destinationClientConfig();
        assertEquals(user.password(), destination.get("ssl.keystore.password").toString());
    }

    @Test
    void everyProbePathIsAnEndpoint() throws Exception {
        String statefulSet = Files.readString(BASE.resolve("statefulset.yaml"));
        Matcher m = Pattern.compile("path: (/\\S+)").matcher(statefulSet);
        TreeSet<String> paths = new TreeSet<>();
        while (m.find()) {
            paths.add(m.group(1));
        }
        assertEquals(new TreeSet<>(List.of("/health/live", "/health/ready")), paths);
        try (FakeBackend backend = new FakeBackend(
                new SimpleMeterRegistry())) {
            HttpClient http = HttpClient.newHttpClient();
            for (String path : paths) {
                int status = http.send(HttpRequest.newBuilder(URI.create(backend.url() + path))
                        .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
                assertTrue(status == 200 || status == 503, path + " answered " + status);
            }
        }
    }

    private static void requireTool(String tool) throws Exception {
        DeployTools.requireTool(tool, "Debian: apt-get install prometheus yamllint");
    }

    private static Result run(Path dir, String... command) throws Exception {
        return DeployTools.run(dir, command);
    }
}
