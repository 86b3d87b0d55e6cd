package dev.sextant.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs {@code deploy/prometheus/sextant-rules.yaml} through {@code promtool test rules} on what a test saw Sextant
 * report, one scrape every 15 s: proves an alert fires on real figures, not only on made-up series. Skipped where
 * promtool is not installed, unless {@code SEXTANT_REQUIRE_TOOLS=1}.
 */
public final class AlertRules {

    private static final Path RULES = Path.of(System.getProperty("basedir", "."), "..", "deploy", "prometheus",
            "sextant-rules.yaml").toAbsolutePath().normalize();

    private AlertRules() {
    }

    /**
     * @param scrapes per scrape, {@code sextant_destination_up} and {@code sextant_sync_oldest_pending_age_seconds}
     */
    public static void assertFires(String alert, List<double[]> scrapes) throws IOException, InterruptedException {
        if (!alert.equals("SextantDestinationDown")) {
            throw new IllegalArgumentException("expected annotations are known for SextantDestinationDown only");
        }
        boolean present = new ProcessBuilder("sh", "-c", "command -v promtool").start().waitFor() == 0;
        if (!present && "1".equals(System.getenv("SEXTANT_REQUIRE_TOOLS"))) {
            throw new AssertionError("promtool is not installed, and SEXTANT_REQUIRE_TOOLS=1");
        }
        Assumptions.assumeTrue(present, "promtool is not installed (Debian: apt-get install prometheus)");
        String up = scrapes.stream().map(s -> format(s[0])).collect(Collectors.joining(" "));
        String age = scrapes.stream().map(s -> format(s[1])).collect(Collectors.joining(" "));
        Path dir = Files.createTempDirectory("sextant-alerts");
        Path test = dir.resolve("observed.test.yaml");
        Files.writeString(test, String.join("\n",
                "rule_files:",
                "  - " + RULES,
                "evaluation_interval: 15s",
                "tests:",
                "  - interval: 15s",
                "    input_series:",
                "      - series: 'sextant_destination_up{job=\"sextant\", instance=\"it\"}'",
                "        values: '" + up + "'",
                "      - series: 'sextant_sync_oldest_pending_age_seconds{job=\"sextant\", instance=\"it\"}'",
                "        values: '" + age + "'",
                "    alert_rule_test:",
                "      - eval_time: " + (scrapes.size() - 1) * 15 + "s",
                "        alertname: " + alert,
                "        exp_alerts:",
                "          - exp_labels:",
                "              severity: critical",
                "              job: sextant",
                "            exp_annotations:",
                "              summary: \"Sextant cannot reach the destination cluster\"",
                "              description: \"An instance has not been able to read the destination's groups and "
                        + "topics for over a minute. Syncs are delayed (never dropped) until it is back; "
                        + "/health/ready says DEGRADED with the last error.\"",
                "              runbook_url: \"https://github.com/sextant-dev/sextant/blob/main/docs/runbook.md#"
                        + alert.toLowerCase(Locale.ROOT) + "\"",
                ""));
        Process promtool = new ProcessBuilder("promtool", "test", "rules", test.toString())
                .redirectErrorStream(true).start();
        String output = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        promtool.waitFor(60, TimeUnit.SECONDS);
        assertEquals(0, promtool.exitValue(), alert + " on the observed scrapes (up: " + up + "; oldest pending age: "
                + age + "):\n" + output);
        System.out.printf("alert %s fires on the observed scrapes (destination up: %s; oldest pending age s: %s)%n",
                alert, up, age);
    }

    private static String format(double value) {
        return Double.isNaN(value) ? "_" : value == Math.rint(value) ? Long.toString((long) value)
                : String.format(Locale.ROOT, "%.1f", value);
    }
}
