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

/**
 * The results file ({@code bench/results/<date>.json}) and its Markdown table. Field names are snake_case; a
 * figure that does not apply to a system is null.
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

    /** One system in one scenario at one scale. */
    /**
     * One system in one scenario at one scale. {@code steadyLatencyMs}: commits of groups that already exist on the
     * destination (the window, after the initial sync; the same commits as {@code syncLatencyMs}, which keeps its
     * name for earlier results); {@code initialSyncS}: from the syncers being ready until every group that existed
     * on the source before was on the destination ({@code initialSyncLowerBound}: it had not finished when the wait
     * ended). {@code threads}: Sextant's stream threads (throughput).
     */
    @JsonPropertyOrder({"system", "scenario", "groups", "partitions", "sync_latency_ms", "steady_latency_ms",
            "initial_sync_s", "initial_sync_lower_bound", "commits_per_sec", "threads", "admin_requests_per_sec",
            "replay_records", "cpu_s", "peak_rss_mb", "details"})
    record Run(String system, String scenario, int groups, int partitions, Latency syncLatencyMs,
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

    static String markdown(Results r, List<String> systemsRun) {
        StringBuilder md = new StringBuilder();
        md.append("# Sextant vs MirrorMaker 2's checkpoint connector\n\n");
        Machine m = r.machine();
        md.append(String.format(Locale.ROOT, "Run %s with `%s` on %d cores (%s), %,d MB RAM, Java %s, %s. "
                        + "Load average (1 min): %.2f at start, %.2f at end%s.%n%n", r.date(), r.command(), m.cores(),
                m.cpuModel(), m.memoryMb(), m.javaVersion(), m.os(), m.loadAverage1mStart(), m.loadAverage1mEnd(),
                m.loadAverage1mStart() > m.cores() || m.loadAverage1mEnd() > m.cores()
                        ? " (the machine was shared: other processes ran too)" : ""));
        Map<Integer, List<Run>> byScale = new LinkedHashMap<>();
        Run throughput = null;
        for (Run run : r.runs()) {
            if ("sync".equals(run.scenario())) {
                byScale.computeIfAbsent(run.groups(), k -> new ArrayList<>()).add(run);
            } else {
                throughput = run;
            }
        }
        boolean anyLower = false;
        for (Map.Entry<Integer, List<Run>> e : byScale.entrySet()) {
            Run sx = find(e.getValue(), BenchSettings.SEXTANT);
            Run fast = find(e.getValue(), BenchSettings.MM2_FAST);
            Run def = find(e.getValue(), BenchSettings.MM2_DEFAULT);
            Run any = e.getValue().get(0);
            md.append(String.format(Locale.ROOT, "## Sync: %,d groups per system%n%n", e.getKey()));
            md.append(String.format(Locale.ROOT, "%s caught-up groups x %d partitions commit in turn; %s lagging "
                            + "groups x %s partition(s) commit once, 10^3-10^6 records behind (see settings). "
                            + "Measured over %s s.%n%n", any.details().get("caught_up_groups"), any.partitions(),
                    any.details().get("lagging_groups"), any.details().get("lag_partitions"),
                    any.details().get("measured_s")));
            md.append("The initial sync is timed from the syncers being ready until every group (all of them "
                    + "committed before) is on the destination; the sync latency rows are steady state: commits of "
                    + "groups that are already there.\n\n");
            md.append("| figure | MM2 default (60 s) | MM2 1 s | Sextant | MM2 default ÷ Sextant | MM2 1 s ÷ Sextant |\n");
            md.append("|---|---:|---:|---:|---:|---:|\n");
            row(md, "initial sync: every group on the destination (s)", def, fast, sx,
                    x -> x.initialSyncS(), v -> String.format(Locale.ROOT, "%,.1f", v));
            latencyRow(md, "sync latency p50", "p50", def, fast, sx, Latency::p50);
            latencyRow(md, "sync latency p99", "p99", def, fast, sx, Latency::p99);
            latencyRow(md, "sync latency max", "max", def, fast, sx, Latency::max);
            row(md, "replay, caught-up groups (max records)", def, fast, sx,
                    x -> x.replayRecords() == null || x.replayRecords().caughtUpMax() == null ? null
                            : x.replayRecords().caughtUpMax().doubleValue(), Report::count);
            row(md, "replay, lagging groups (max records)", def, fast, sx,
                    x -> x.replayRecords() == null || x.replayRecords().laggingMax() == null ? null
                            : x.replayRecords().laggingMax().doubleValue(), Report::count);
            row(md, "Admin requests/s to the destination", def, fast, sx, Run::adminRequestsPerSec,
                    v -> String.format(Locale.ROOT, "%,.1f", v));
            row(md, "CPU seconds", def, fast, sx, Run::cpuS, v -> String.format(Locale.ROOT, "%,.1f", v));
            row(md, "peak RSS (MB)", def, fast, sx, Run::peakRssMb, v -> String.format(Locale.ROOT, "%,.0f", v));
            md.append('\n');
            for (Run run : e.getValue()) {
                if (run.syncLatencyMs() != null && !run.syncLatencyMs().lowerBounds().isEmpty()) {
                    md.append(String.format(Locale.ROOT, "%s: %s of its commits were still not visible when the run "
                                    + "ended; they count with their age then, so figures marked ≥ are lower bounds.%n%n",
                            run.system(), run.details().get("unresolved_commits")));
                }
            }
            if (def == null && !systemsRun.contains(BenchSettings.MM2_DEFAULT)) {
                md.append("MM2 default was not run (`--quick`): with emit and sync every 60 s its latency is "
                        + "between ~0 and ~120 s (about 60 s on average), by construction.\n\n");
            }
        }
        if (throughput != null) {
            Map<String, Object> d = throughput.details();
            md.append(String.format(Locale.ROOT, "## Throughput: one Sextant instance, %,d commits pre-filled%n%n",
                    ((Number) d.get("commits")).longValue()));
            md.append(String.format(Locale.ROOT, "%,d groups x %d partitions x %s rounds, each round one "
                    + "`alterConsumerGroupOffsets` per group. MM2 has no equivalent (it samples group offsets every "
                    + "interval instead of reading commits).%n%n", throughput.groups(), throughput.partitions(),
                    d.get("rounds")));
            md.append("| figure | Sextant |\n|---|---:|\n");
            md.append(String.format(Locale.ROOT, "| offset commits read/s (first read to the total, or to the %s s "
                    + "time-out) | %,.0f |%n", d.get("read_timeout_s"), nz(throughput.commitsPerSec())));
            md.append(String.format(Locale.ROOT, "| commits read before the time-out | %,d of %,d |%n",
                    ((Number) d.get("commits_read")).longValue(), ((Number) d.get("commits")).longValue()));
            md.append(String.format(Locale.ROOT, "| offset commits read/s between 10%% and 90%% of what was read | %,.0f |%n",
                    nz((Double) d.get("commits_per_sec_10_to_90_percent"))));
            md.append(String.format(Locale.ROOT, "| Admin requests/s (`sextant.admin.requests`, same span) | %,.1f |%n",
                    nz(throughput.adminRequestsPerSec())));
            md.append(String.format(Locale.ROOT, "| Admin requests/s on the wire (same span) | %,.1f |%n",
                    nz((Double) d.get("wire_admin_requests_per_sec"))));
            md.append(String.format(Locale.ROOT, "| alterConsumerGroupOffsets sent, in all | %,.0f |%n",
                    nz((Double) d.get("alter_requests"))));
            md.append(String.format(Locale.ROOT, "| launch to first commit read | %s |%n",
                    duration(nz((Double) d.get("startup_s")) * 1000)));
            md.append(String.format(Locale.ROOT, "| launch to every group's last commit on the destination | %s%s |%n",
                    duration(nz((Double) d.get("drain_s")) * 1000),
                    Boolean.TRUE.equals(d.get("drained")) ? "" : " (not all)"));
            md.append(String.format(Locale.ROOT, "| CPU seconds / peak RSS (MB) | %,.1f / %,.0f |%n",
                    nz(throughput.cpuS()), nz(throughput.peakRssMb())));
            if (d.get("kafka_streams_thread") instanceof Map<?, ?> st && !st.isEmpty()) {
                md.append(String.format(Locale.ROOT, "| stream thread: share of time punctuating (Sextant's flush) / "
                                + "processing / polling | %s / %s / %s |%n", pct(st.get("punctuate.ratio")),
                        pct(st.get("process.ratio")), pct(st.get("poll.ratio"))));
                md.append(String.format(Locale.ROOT, "| stream thread: ms per record processed; ms per flush (avg / "
                                + "max) | %s; %s / %s |%n", st.get("process.latency.avg"), st.get("punctuate.latency.avg"),
                        st.get("punctuate.latency.max")));
            }
            md.append('\n');
        }
        md.append("## Targets\n\n| target | measured | met |\n|---|---|---|\n");
        for (Target t : r.targets()) {
            md.append("| ").append(t.target()).append(" | ").append(t.measured()).append(" | ")
                    .append(t.met() == null ? "not measured" : t.met() ? "yes" : "**no**").append(" |\n");
        }
        md.append("\n## Notes\n\n");
        for (String note : r.notes()) {
            md.append("- ").append(note).append('\n');
        }
        return md.toString();
    }

    private static String pct(Object ratio) {
        return ratio instanceof Number n ? String.format(Locale.ROOT, "%.0f%%", 100 * n.doubleValue()) : "n/a";
    }

    private static double nz(Double v) {
        return v == null ? Double.NaN : v;
    }

    private static Run find(List<Run> runs, String system) {
        return runs.stream().filter(x -> x.system().equals(system)).findFirst().orElse(null);
    }

    private static void row(StringBuilder md, String label, Run def, Run fast, Run sx,
                            java.util.function.Function<Run, Double> value,
                            java.util.function.DoubleFunction<String> format) {
        Double d = def == null ? null : value.apply(def);
        Double f = fast == null ? null : value.apply(fast);
        Double s = sx == null ? null : value.apply(sx);
        md.append("| ").append(label).append(" | ").append(cell(d, format)).append(" | ").append(cell(f, format))
                .append(" | ").append(cell(s, format)).append(" | ").append(ratio(d, s)).append(" | ")
                .append(ratio(f, s)).append(" |\n");
    }

    private static void latencyRow(StringBuilder md, String label, String which, Run def, Run fast, Run sx,
                                   java.util.function.Function<Latency, Double> value) {
        md.append("| ").append(label);
        Double[] values = new Double[3];
        Run[] runs = {def, fast, sx};
        for (int i = 0; i < 3; i++) {
            Latency l = runs[i] == null ? null : runs[i].syncLatencyMs();
            values[i] = l == null ? null : value.apply(l);
            String cell = cell(values[i], Report::duration);
            if (l != null && l.lowerBounds().contains(which)) {
                cell = "≥ " + cell;
            }
            md.append(" | ").append(cell);
        }
        boolean sxLower = lower(sx, which);
        md.append(" | ").append(sxLower ? "n/a" : (lower(def, which) ? "≥ " : "") + ratio(values[0], values[2]))
                .append(" | ").append(sxLower ? "n/a" : (lower(fast, which) ? "≥ " : "") + ratio(values[1], values[2]))
                .append(" |\n");
    }

    private static boolean lower(Run run, String which) {
        return run != null && run.syncLatencyMs() != null && run.syncLatencyMs().lowerBounds().contains(which);
    }

    private static String cell(Double v, java.util.function.DoubleFunction<String> format) {
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
