package dev.sextant.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.config.SextantConfig;
import dev.sextant.config.SextantConfigLoader;
import dev.sextant.query.FakeBackend;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * What is under {@code deploy/} works: the alert rules pass {@code promtool check rules} and their unit tests
 * ({@code promtool test rules}), every YAML file passes {@code yamllint}, and the dashboard and the rules only name
 * meters {@code docs/metrics.md} documents. The tools come from Debian ({@code prometheus}, {@code yamllint}); where
 * they are missing the tool checks are skipped, except when {@code SEXTANT_REQUIRE_TOOLS=1} (set by
 * {@code .ci/run}, which installs them).
 */
class DeployFilesTest {

    private static final Path ROOT = Path.of(System.getProperty("basedir", "."), "..").normalize();
    private static final Path DEPLOY = ROOT.resolve("deploy");
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

    /** Variables the launcher and the logging read, not configuration keys. */
    private static final Set<String> LAUNCHER_VARIABLES = Set.of("SEXTANT_JAVA_OPTS",
            "SEXTANT_CLASSPATH", "SEXTANT_LOG_LEVEL", "SEXTANT_KAFKA_LOG_LEVEL", "SEXTANT_LOG_FORMAT", "SEXTANT_DEBUG");

    @Test
    void everySextantVariableTheManifestsSetIsARealKeyAndTheirConfigurationLoads() throws IOException {
        String manifests = Files.readString(DEPLOY.resolve("kubernetes/statefulset.yaml"))
                + Files.readString(DEPLOY.resolve("kubernetes/secret.yaml"))
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
        for (String line : Files.readAllLines(DEPLOY.resolve("kubernetes/configmap.yaml"))) {
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
    }

    private static boolean realKey(String key) {
        if (SextantConfig.configDef().names().contains(key)) {
            return true;
        }
        if (key.startsWith("source.") || key.startsWith("destination.")) {
            String client = key.substring(key.indexOf('.') + 1);
            return AdminClientConfig.configNames().contains(client);
        }
        return key.startsWith("streams.")
                && StreamsConfig.configDef().names().contains(key.substring(8));
    }

    private static String sample(String name) {
        return switch (name) {
            case "SEXTANT_QUERY_ADVERTISED" -> "sextant-0.sextant.kafka.svc.cluster.local:8080";
            case "SEXTANT_QUERY_LISTEN" -> "0.0.0.0:8080";
            case "SEXTANT_STATE_DIR" -> "/var/lib/sextant";
            case "SEXTANT_SOURCE_SECURITY_PROTOCOL", "SEXTANT_DESTINATION_SECURITY_PROTOCOL" -> "SASL_SSL";
            case "SEXTANT_SOURCE_SASL_MECHANISM", "SEXTANT_DESTINATION_SASL_MECHANISM" -> "SCRAM-SHA-512";
            default -> "org.apache.kafka.common.security.scram.ScramLoginModule required "
                    + "username=\"u\" password=\"p\";";
        };
    }

    @Test
    void everyProbePathIsAnEndpoint() throws Exception {
        String statefulSet = Files.readString(DEPLOY.resolve("kubernetes/statefulset.yaml"));
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
        boolean present = run(ROOT, "sh", "-c", "command -v " + tool).exit() == 0;
        if (!present && "1".equals(System.getenv("SEXTANT_REQUIRE_TOOLS"))) {
            throw new AssertionError(tool + " is not installed, and SEXTANT_REQUIRE_TOOLS=1 (.ci/run installs it: "
                    + "apt-get install prometheus yamllint)");
        }
        Assumptions.assumeTrue(present, tool + " is not installed (Debian: apt-get install prometheus yamllint)");
    }

    private record Result(int exit, String output) {
    }

    private static Result run(Path dir, String... command) throws Exception {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        byte[] out = process.getInputStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish in 60 s");
        }
        return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}
