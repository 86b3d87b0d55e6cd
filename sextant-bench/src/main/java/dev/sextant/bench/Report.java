package dev.sextant.bench;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleFunction;
import java.util.function.IntFunction;

/**
 * The results file ({@code bench/results/<date>.json}) and its Markdown report (the tables: {@link SyncTable},
 * {@link ThroughputTable}). Field names are snake_case; a figure that does not apply to a system is null.
 */
final class Report {

    /** The machine the numbers come from. */
    @JsonPropertyOrder({"cores", "memory_mb", "cpu_model", "java_version", "os", "load_average_1m_start",
            "load_average_1m_end", "note"})
    record Machine(int cores, long memoryMb, String cpuModel, String javaVersion, String os,
                   @JsonProperty("load_average_1m_start") double loadAverage1mStart,
                   @JsonProperty("load_average_1m_end") double loadAverage1mEnd, String note) {
    }

    /**
     * p50, p99 and max in milliseconds; {@code lowerBounds} names those that are only lower bounds (commits still
     * not visible when the run ended count with their age then).
     */
    @JsonPropertyOrder({"p50", "p99", "max", "lower_bounds"})
    record Latency(Double p50, Double p99, Double max, List<String> lowerBounds) {

        Latency(Double p50, Double p99, Double max) {
            this(p50, p99, max, List.of());
        }
    }

    /** Records re-read after a failover now, per partition: the worst caught-up and the worst lagging partition. */
    record Replay(Long caughtUpMax, Long laggingMax) {
    }

    /**
     * One system in one scenario at one scale. {@code failed}: why the run failed (the system did not start in time,
     * exited, ran out of memory, or the harness failed during its part), null when it ran to the end; a failed run
     * keeps what it measured until then (lower bounds where marked), the rest null. {@code steadyLatencyMs}: commits
     * of groups that already exist on the destination (the window, after the initial sync; the same commits as
     * {@code syncLatencyMs}, which keeps its name for earlier results); {@code initialSyncS}: from the syncers being
     * ready until every group that existed on the source before was on the destination ({@code
     * initialSyncLowerBound}: it had not finished when the wait, or the system, ended). {@code threads}: Sextant's
     * stream threads (throughput).
     */
    @JsonPropertyOrder({"system", "scenario", "groups", "partitions", "failed", "sync_latency_ms",
            "steady_latency_ms", "initial_sync_s", "initial_sync_lower_bound", "commits_per_sec", "threads",
            "admin_requests_per_sec", "replay_records", "cpu_s", "peak_rss_mb", "details"})
    record Run(String system, String scenario, int groups, int partitions, String failed, Latency syncLatencyMs,
               Latency steadyLatencyMs, Double initialSyncS, Boolean initialSyncLowerBound, Double commitsPerSec,
               Integer threads, Double adminRequestsPerSec, Replay replayRecords, Double cpuS, Double peakRssMb,
               Map<String, Object> details) {
    }

    /** A target Sextant is built to meet, and whether this run met it (null: not measured). */
    record Target(String target, String measured, Boolean met) {
    }

    @JsonPropertyOrder({"date", "command", "machine", "settings", "runs", "targets", "timings_s", "notes"})
    record Results(String date, String command, Machine machine, Map<String, Object> settings, List<Run> runs,
                   List<Target> targets, Map<String, Object> timingsS, List<String> notes) {
    }

    private Report() {
    }

    static ObjectMapper json() {
        return new ObjectMapper()
                .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .setSerializationInclusion(JsonInclude.Include.ALWAYS)
                .enable(SerializationFeature.INDENT_OUTPUT);
    }

    static void writeJson(Results results, Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.write(file, json().writeValueAsBytes(results));
    }

    static Double round(double value, int decimals) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return null;
        }
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }

    // ---------------------------------------------------------------- Markdown

    /** The Markdown report of a run whose systems were the same at every scale. */
    static String markdown(Results r, List<String> systemsRun) {
        return markdown(r, groups -> systemsRun);
    }

    /**
     * The Markdown report.
     *
     * @param systemsAt the systems this run ran at a scale (groups), to say which did not run there and why
     */
    static String markdown(Results r, IntFunction<List<String>> systemsAt) {
        StringBuilder md = new StringBuilder();
        md.append("# Sextant vs MirrorMaker 2's checkpoint connector\n\n");
        Machine m = r.machine();
        md.append(String.format(Locale.ROOT, "Run %s with `%s` on %d cores (%s), %,d MB RAM, Java %s, %s. "
                        + "Load average (1 min): %.2f at start, %.2f at end%s.%n%n", r.date(), r.command(), m.cores(),
                m.cpuModel(), m.memoryMb(), m.javaVersion(), m.os(), m.loadAverage1mStart(), m.loadAverage1mEnd(),
                m.loadAverage1mStart() > m.cores() || m.loadAverage1mEnd() > m.cores()
                        ? " (the machine was shared: other processes ran too)" : ""));
        Map<Integer, List<Run>> byScale = new LinkedHashMap<>();
        List<Run> throughput = new ArrayList<>();
        for (Run run : r.runs()) {
            if ("sync".equals(run.scenario())) {
                byScale.computeIfAbsent(run.groups(), k -> new ArrayList<>()).add(run);
            } else {
                throughput.add(run);
            }
        }
        boolean sequential = BenchSettings.SEQUENTIAL.equals(mode(r));
        if (!byScale.isEmpty()) {
            modeNote(md, byScale, sequential);
        }
        for (Map.Entry<Integer, List<Run>> e : byScale.entrySet()) {
            SyncTable.write(md, e.getKey(), e.getValue(), sequential, systemsAt.apply(e.getKey()));
        }
        if (!throughput.isEmpty()) {
            ThroughputTable.write(md, throughput);
        }
        targetsAndNotes(md, r);
        return md.toString();
    }

    private static void targetsAndNotes(StringBuilder md, Results r) {
        md.append("## Targets\n\n| target | measured | met |\n|---|---|---|\n");
        for (Target t : r.targets()) {
            md.append("| ").append(t.target()).append(" | ").append(t.measured()).append(" | ")
                    .append(t.met() == null ? "not measured" : t.met() ? "yes" : "**no**").append(" |\n");
        }
        md.append("\n## Notes\n\n");
        for (String note : r.notes()) {
            md.append("- ").append(note).append('\n');
        }
    }

    private static void modeNote(StringBuilder md, Map<Integer, List<Run>> byScale, boolean sequential) {
        List<String> order = BenchSettings.SEQUENTIAL_ORDER.stream().filter(system -> byScale.values().stream()
                .anyMatch(runs -> find(runs, system) != null)).toList();
        md.append(sequential
                ? "Mode **sequential**: at each scale each system ran alone on the machine, one after the other ("
                        + String.join(", then ", order) + "), against the same workload on its own caught-up "
                        + "topic; the tables put them side by side.\n\n"
                : "Mode **side-by-side**: at each scale the systems ran at the same time on the same clusters, "
                        + "competing for the machine (a quick look; `--mode sequential` runs each alone).\n\n");
    }

    /** The run's mode: the settings', else the first sync run's (results before modes existed: side by side). */
    static String mode(Results r) {
        if (r.settings() != null && r.settings().get("mode") instanceof String m) {
            return m;
        }
        return r.runs().stream().filter(x -> "sync".equals(x.scenario()) && x.details() != null
                && x.details().get("mode") instanceof String).map(x -> (String) x.details().get("mode"))
                .findFirst().orElse(BenchSettings.SIDE_BY_SIDE);
    }

    static Run find(List<Run> runs, String system) {
        return runs.stream().filter(x -> x.system().equals(system)).findFirst().orElse(null);
    }

    static Double detail(Run run, String key) {
        return run.details() != null && run.details().get(key) instanceof Number n ? n.doubleValue() : null;
    }

    /** MiB, or n/a when unknown. */
    static String mib(Object v) {
        return v instanceof Number n ? String.format(Locale.ROOT, "%,.0f", n.doubleValue()) : "n/a";
    }

    static String cell(Double v, DoubleFunction<String> format) {
        return v == null || v.isNaN() ? "n/a" : format.apply(v);
    }

    /** MM2 ÷ Sextant, for figures where lower is better: above 1 Sextant is better. */
    static String ratio(Double mm2, Double sextant) {
        if (mm2 == null || sextant == null || mm2.isNaN() || sextant.isNaN()) {
            return "n/a";
        }
        if (sextant == 0) {
            return mm2 == 0 ? "1×" : "∞";
        }
        double r = mm2 / sextant;
        if (r >= 100) {
            return String.format(Locale.ROOT, "%,.0f×", r);
        }
        if (r >= 10) {
            return String.format(Locale.ROOT, "%.0f×", r);
        }
        return String.format(Locale.ROOT, "%.2g×", r);
    }

    static String duration(double millis) {
        if (Double.isNaN(millis)) {
            return "n/a";
        }
        if (millis < 1_000) {
            return String.format(Locale.ROOT, "%.0f ms", millis);
        }
        if (millis < 100_000) {
            return String.format(Locale.ROOT, "%.1f s", millis / 1000);
        }
        return String.format(Locale.ROOT, "%.0f s", millis / 1000);
    }

    static String count(double v) {
        return String.format(Locale.ROOT, "%,.0f", v);
    }
}
