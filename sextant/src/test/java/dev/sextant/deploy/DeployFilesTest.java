package dev.sextant.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
