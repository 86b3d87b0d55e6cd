package dev.sextant.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * {@code bench/sweep}'s report: the commit-rate sweep (one {@code bench/run} per rate, each writing
 * {@code latest-rate-R.json}) in one table and its targets, as {@code latest-sweep.json} and {@code latest-sweep.md}.
 *
 * <p>Targets, as the tail-and-load issue sets them: p99 at most 1 s at every rate where the source's own commit calls
 * stay under 1 s at p99; Sextant keeps up at every rate (the oldest pending commit's age neither grows through the
 * window, slope at most {@value #KEEPS_UP_SLOPE} s/s, nor ends it above {@value #KEEPS_UP_END_S} s); at the highest
 * rate, group writes a second at least {@value #CEILING_SHARE} of the bare writer's, or, where Sextant keeps up, all
 * that the commits asked for (fewer writes than the ceiling are then the workload's, not a limit); and an idle
 * recommit of the same offsets costs no destination write.
 */
public final class SweepReport {

    static final double KEEPS_UP_SLOPE = 0.05;
    static final double KEEPS_UP_END_S = 2;
    static final double CEILING_SHARE = 0.8;

    private SweepReport() {
    }

    /** {@code SweepReport OUT_DIR FILE...}: the rate runs' results files. */
    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        List<JsonNode> runs = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        for (int i = 1; i < args.length; i++) {
            runs.add(json.readTree(Files.readAllBytes(Path.of(args[i]))));
        }
        runs.sort(Comparator.comparingInt(r -> r.path("settings").path("commit_rate").asInt()));
        ObjectNode report = of(runs, json);
        json.enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.resolve("latest-sweep.json").toFile(), report);
        Files.writeString(out.resolve("latest-sweep.md"), markdown(report));
        System.out.println(Files.readString(out.resolve("latest-sweep.md")));
    }

    /** One entry per rate: what the harness achieved, each system's latency, Sextant's write path; then targets. */
    static ObjectNode of(List<JsonNode> results, ObjectMapper json) {
        ObjectNode report = json.createObjectNode();
        ArrayNode rates = report.putArray("rates");
        for (JsonNode r : results) {
            ObjectNode rate = rates.addObject();
            rate.put("commit_rate", r.path("settings").path("commit_rate").asInt());
            rate.put("date", r.path("date").asText());
            rate.put("groups", r.path("settings").path("scales").path(0).asInt());
            for (JsonNode run : r.path("runs")) {
                if (!"sync".equals(run.path("scenario").asText())) {
                    continue;
                }
                JsonNode d = run.path("details");
                boolean sextant = BenchSettings.SEXTANT.equals(run.path("system").asText());
                if (sextant) {
                    // each system has its own window: the rate's figures are those of Sextant's
                    rate.set("achieved_commits_per_sec", d.path("window_group_commits_per_sec"));
                    rate.set("source_commit_call_ms", d.path("source_commit_call_ms"));
                }
                if (d.has("bare_writer")) {
                    rate.set("bare_writer", d.path("bare_writer"));
                }
                ObjectNode sys = rate.with("systems").putObject(run.path("system").asText());
                sys.set("achieved_commits_per_sec", d.path("window_group_commits_per_sec"));
                sys.set("source_commit_call_ms", d.path("source_commit_call_ms"));
                sys.set("failed", run.path("failed"));
                sys.set("p50_ms", run.path("steady_latency_ms").path("p50"));
                sys.set("p99_ms", run.path("steady_latency_ms").path("p99"));
                for (String key : List.of("window_group_writes_per_sec", "window_wire_requests_per_write",
                        "window_write_limit_mean", "window_pending_age_slope", "window_pending_age_end_s",
                        "window_pending_age_max_s", "idle_recommits", "idle_recommit_destination_writes",
                        "idle_recommits_after_quiet",
                        "benchmark_cpu_busy_percent")) {
                    if (d.has(key)) {
                        sys.set(key, d.path(key));
                    }
                }
            }
        }
        report.set("targets", targets(rates, json));
        return report;
    }

    private static ArrayNode targets(ArrayNode rates, ObjectMapper json) {
        ArrayNode targets = json.createArrayNode();
        for (JsonNode rate : rates) {
            JsonNode sx = rate.path("systems").path(BenchSettings.SEXTANT);
            if (sx.isMissingNode()) {
                continue;
            }
            int r = rate.path("commit_rate").asInt();
            double sourceP99 = rate.path("source_commit_call_ms").path("p99").asDouble(Double.NaN);
            double p99 = sx.path("p99_ms").asDouble(Double.NaN);
            if (sourceP99 < 1000) {
                target(targets, "p99 <= 1 s at " + r + " group commits/s (source commit p99 "
                        + fmt(sourceP99) + " ms)", p99 <= 1000, fmt(p99) + " ms");
            }
            boolean keepsUp = keepsUp(sx);
            target(targets, "keeps up at " + r + " group commits/s", keepsUp, "pending age slope "
                    + fmt3(sx.path("window_pending_age_slope").asDouble(Double.NaN)) + " s/s, "
                    + fmt3(sx.path("window_pending_age_end_s").asDouble(Double.NaN)) + " s at the window's end");
            if (sx.has("idle_recommits")) {
                double writes = sx.path("idle_recommit_destination_writes").asDouble(Double.NaN);
                target(targets, "idle recommits cost no destination write at " + r + "/s", writes == 0,
                        fmt(writes) + " writes for " + sx.path("idle_recommits").asLong() + " recommits");
            }
        }
        if (!rates.isEmpty()) {
            JsonNode top = rates.get(rates.size() - 1);
            JsonNode sx = top.path("systems").path(BenchSettings.SEXTANT);
            double writes = sx.path("window_group_writes_per_sec").asDouble(Double.NaN);
            double bare = top.path("bare_writer").path("best_writes_per_sec").asDouble(Double.NaN);
            boolean met = writes >= CEILING_SHARE * bare || keepsUp(sx);
            target(targets, "group writes/s at the highest rate (" + top.path("commit_rate").asInt()
                    + "/s) >= 80% of the bare writer's, or all the commits asked for", met,
                    fmt(writes) + " writes/s, bare writer " + fmt(bare) + " (" + fmt(100 * writes / bare) + "%)"
                            + (keepsUp(sx) ? ", kept up" : ", fell behind"));
        }
        return targets;
    }

    private static boolean keepsUp(JsonNode sx) {
        return sx.path("window_pending_age_slope").asDouble(Double.NaN) <= KEEPS_UP_SLOPE
                && sx.path("window_pending_age_end_s").asDouble(Double.NaN) <= KEEPS_UP_END_S;
    }

    private static void target(ArrayNode targets, String name, boolean met, String measured) {
        ObjectNode t = targets.addObject();
        t.put("target", name);
        t.put("met", met);
        t.put("measured", measured);
    }

    static String markdown(JsonNode report) {
        StringBuilder md = new StringBuilder("# Commit-rate sweep\n\n");
        md.append("One `bench/run` per rate (`bench/sweep`): 10,000 groups x 10 partitions, each group commit moving "
                + "every partition, Sextant and MirrorMaker 2 at 1 s each alone in turn; the bare writer measured "
                + "after them with no commit load (`bench/README.md`, *Commit-rate sweep*).\n\n");
        md.append("| asked/s | achieved/s | source commit p50 / p99 (Sextant's window) | Sextant p50 / p99 "
                + "| MM2 1 s p50 / p99 "
                + "| Sextant writes/s | wire req/write | write limit | pending age slope, end | idle recommits: "
                + "writes | bare writer writes/s |\n");
        md.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (JsonNode rate : report.path("rates")) {
            JsonNode sx = rate.path("systems").path(BenchSettings.SEXTANT);
            JsonNode mm = rate.path("systems").path(BenchSettings.MM2_FAST);
            md.append(String.format(Locale.ROOT, "| %d | %s | %s / %s ms | %s / %s | %s / %s | %s | %s | %s | %s s/s, "
                            + "%s s | %s: %s | %s |\n",
                    rate.path("commit_rate").asInt(), fmt(rate.path("achieved_commits_per_sec").asDouble(Double.NaN)),
                    fmt(rate.path("source_commit_call_ms").path("p50").asDouble(Double.NaN)),
                    fmt(rate.path("source_commit_call_ms").path("p99").asDouble(Double.NaN)),
                    ms(sx.path("p50_ms")), ms(sx.path("p99_ms")), ms(mm.path("p50_ms")), ms(mm.path("p99_ms")),
                    fmt(sx.path("window_group_writes_per_sec").asDouble(Double.NaN)),
                    fmt2(sx.path("window_wire_requests_per_write").asDouble(Double.NaN)),
                    fmt(sx.path("window_write_limit_mean").asDouble(Double.NaN)),
                    fmt3(sx.path("window_pending_age_slope").asDouble(Double.NaN)),
                    fmt2(sx.path("window_pending_age_end_s").asDouble(Double.NaN)),
                    fmt(sx.path("idle_recommits").asDouble(Double.NaN)),
                    fmt(sx.path("idle_recommit_destination_writes").asDouble(Double.NaN)),
                    fmt(rate.path("bare_writer").path("best_writes_per_sec").asDouble(Double.NaN))));
        }
        md.append("\n## Targets\n\n");
        for (JsonNode t : report.path("targets")) {
            md.append("- ").append(t.path("met").asBoolean() ? "met" : "**missed**").append(": ")
                    .append(t.path("target").asText()).append(" (").append(t.path("measured").asText()).append(")\n");
        }
        return md.toString();
    }

    private static String ms(JsonNode v) {
        return v.isNumber() ? Report.duration(v.asDouble()) : "-";
    }

    private static String fmt(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%,.0f", v);
    }

    private static String fmt2(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2f", v);
    }

    private static String fmt3(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.3f", v);
    }
}
