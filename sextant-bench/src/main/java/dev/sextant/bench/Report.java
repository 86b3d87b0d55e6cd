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
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.stream.Stream;

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
            syncSection(md, e.getKey(), e.getValue(), sequential, systemsAt.apply(e.getKey()));
        }
        if (!throughput.isEmpty()) {
            throughputSection(md, throughput);
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

    /** The sync scenario at one scale: what ran, the table of figures, and what qualifies them. */
    private static void syncSection(StringBuilder md, int groups, List<Run> runs, boolean sequential,
                                    List<String> systemsRun) {
        Run sx = find(runs, BenchSettings.SEXTANT);
        Run fast = find(runs, BenchSettings.MM2_FAST);
        Run def = find(runs, BenchSettings.MM2_DEFAULT);
        Run any = runs.get(0);
        md.append(String.format(Locale.ROOT, "## Sync: %,d groups per system%n%n", groups));
        String measured;
        if (sequential) {
            List<String> spans = new ArrayList<>();
            for (Run run : runs) {
                spans.add(run.details().get("measured_s") == null ? run.system() + " not measured (failed)"
                        : String.format(Locale.ROOT, "%s %s s (load %s → %s)", run.system(),
                        run.details().get("measured_s"), run.details().get("load_average_1m_start"),
                        run.details().get("load_average_1m_end")));
            }
            measured = "Each system alone, measured over its own run: " + String.join("; ", spans) + ".";
        } else {
            measured = runs.stream().map(x -> x.details().get("measured_s")).filter(x -> x != null).findFirst()
                    .map(x -> "Measured over " + x + " s, all systems at once.")
                    .orElse("Not measured: every system failed.");
        }
        md.append(String.format(Locale.ROOT, "%s caught-up groups x %d partitions commit in turn; %s lagging "
                        + "groups x %s partition(s) commit once, 10^3-10^6 records behind (see settings). "
                        + "%s%n%n", any.details().get("caught_up_groups"), any.partitions(),
                any.details().get("lagging_groups"), any.details().get("lag_partitions"), measured));
        md.append("The initial sync is timed from the syncers being ready until every group (all of them "
                + "committed before) is on the destination; the sync latency rows are steady state: commits of "
                + "groups that are already there.\n\n");
        syncTable(md, def, fast, sx);
        md.append('\n');
        failureNotes(md, runs);
        if (sx != null) {
            sextantNotes(md, sx);
        }
        for (Run run : runs) {
            if (run.syncLatencyMs() != null && !run.syncLatencyMs().lowerBounds().isEmpty()) {
                md.append(String.format(Locale.ROOT, "%s: %s of its commits were still not visible when the run "
                                + "ended; they count with their age then, so figures marked ≥ are lower bounds."
                                + "%n%n", run.system(), run.details().get("unresolved_commits")));
            }
        }
        if (def == null && (systemsRun == null || !systemsRun.contains(BenchSettings.MM2_DEFAULT))) {
            md.append(BenchSettings.large(groups)
                    ? String.format(Locale.ROOT, "MM2 default was not run at %,d groups (above %,d groups only "
                    + "`--large-systems` run): at its 60 s intervals it would only add a very long run with no new "
                    + "information; its latency is between ~0 and ~120 s (about 60 s on average) by construction, "
                    + "as long as one interval covers every group.%n%n", groups, BenchSettings.LARGE_SCALE)
                    : "MM2 default was not run: with emit and sync every 60 s its latency is between ~0 and ~120 s "
                    + "(about 60 s on average), by construction.\n\n");
        }
    }

    /** What stopped each failed run, and what its figures then are. */
    private static void failureNotes(StringBuilder md, List<Run> runs) {
        for (Run run : runs) {
            if (run.failed() != null) {
                md.append(String.format(Locale.ROOT, "**%s failed**: %s%s. Its column shows what was measured "
                                + "until then (≥: a lower bound); its replay was %s.%n%n", run.system(), run.failed(),
                        run.details() != null && run.details().get("log") != null ? " (see `"
                                + run.details().get("log") + "`)" : "",
                        run.replayRecords() == null ? "not measured" : "read at the end as usual"));
            }
        }
    }

    private static void syncTable(StringBuilder md, Run def, Run fast, Run sx) {
        md.append("| figure | MM2 default (60 s) | MM2 1 s | Sextant | MM2 default ÷ Sextant "
                + "| MM2 1 s ÷ Sextant |\n");
        md.append("|---|---:|---:|---:|---:|---:|\n");
        if (Stream.of(def, fast, sx).anyMatch(x -> x != null && x.failed() != null)) {
            md.append("| run |");
            for (Run x : new Run[] {def, fast, sx}) {
                md.append(' ').append(x == null ? "n/a" : x.failed() == null ? "completed" : "failed: " + x.failed())
                        .append(" |");
            }
            md.append(" | |\n");
        }
        initialSyncRow(md, def, fast, sx);
        latencyRow(md, "sync latency p50", "p50", def, fast, sx, Latency::p50);
        latencyRow(md, "sync latency p99", "p99", def, fast, sx, Latency::p99);
        latencyRow(md, "sync latency max", "max", def, fast, sx, Latency::max);
        row(md, "replay, caught-up groups (max records)", def, fast, sx,
                x -> x.replayRecords() == null || x.replayRecords().caughtUpMax() == null ? null
                        : x.replayRecords().caughtUpMax().doubleValue(), Report::count);
        row(md, "replay, lagging groups (max records)", def, fast, sx,
                x -> x.replayRecords() == null || x.replayRecords().laggingMax() == null ? null
                        : x.replayRecords().laggingMax().doubleValue(), Report::count);
        row(md, "replay where a later sync exists, caught-up (max records)", def, fast, sx,
                x -> laterSync(x, "replay_where_later_sync_caught_up_max"), Report::count);
        row(md, "replay where a later sync exists, lagging (max records)", def, fast, sx,
                x -> laterSync(x, "replay_where_later_sync_lagging_max"), Report::count);
        row(md, "Admin requests/s to the destination", def, fast, sx, Run::adminRequestsPerSec,
                v -> String.format(Locale.ROOT, "%,.1f", v));
        row(md, "CPU seconds", def, fast, sx, Run::cpuS, v -> String.format(Locale.ROOT, "%,.1f", v));
        row(md, "of which proving intervals (CPU s, Sextant)", def, fast, sx, x -> detail(x, "verification_cpu_s"),
                v -> String.format(Locale.ROOT, "%,.2f", v));
        row(md, "records read to prove intervals (/s, both clusters)", def, fast, sx,
                x -> detail(x, "verification_records_read_per_sec"), v -> String.format(Locale.ROOT, "%,.0f", v));
        row(md, "peak RSS (MB)", def, fast, sx, Run::peakRssMb, v -> String.format(Locale.ROOT, "%,.0f", v));
        row(md, "peak heap used (MiB)", def, fast, sx, x -> detail(x, "peak_heap_used_mb"),
                v -> String.format(Locale.ROOT, "%,.0f", v));
        row(md, "peak heap after GC, old generation (MiB)", def, fast, sx,
                x -> detail(x, "peak_heap_after_gc_mb"), v -> String.format(Locale.ROOT, "%,.0f", v));
    }

    /** Whether Sextant ran to the end, and its heap. */
    private static void sextantNotes(StringBuilder md, Run sx) {
        if (Boolean.FALSE.equals(sx.details().get("alive_at_end"))) {
            md.append(Boolean.TRUE.equals(sx.details().get("out_of_memory"))
                    ? "Sextant ran out of memory and exited during this run.\n\n"
                    : "Sextant was no longer running at the end of this run.\n\n");
        }
        if (sx.details().get("heap_max_mb") != null) {
            md.append(String.format(Locale.ROOT, "Sextant's heap: -Xmx %s MiB; MirrorMaker's heap is not "
                            + "measured (see peak RSS).%s%n%n", mib(sx.details().get("heap_max_mb")),
                    sx.details().get("peak_heap_after_gc_mb") == null ? String.format(Locale.ROOT, " Its old "
                            + "generation was never collected, so there is no after-GC figure; the heap after "
                            + "young GCs peaked at %s MiB (an upper bound of the live set).",
                            mib(sx.details().get("peak_heap_after_young_gc_mb"))) : ""));
        }
    }

    /** One column per throughput run (one per stream-thread count). */
    private static void throughputSection(StringBuilder md, List<Run> runs) {
        throughputHeader(md, runs);
        if (runs.stream().anyMatch(x -> x.failed() != null)) {
            tpRow(md, runs, "run", x -> x.failed() == null ? "completed" : "failed: " + x.failed());
        }
        throughputRows(md, runs);
        throughputFooter(md, runs);
    }

    private static void throughputHeader(StringBuilder md, List<Run> runs) {
        Run first = runs.get(0);
        Map<String, Object> d0 = first.details();
        md.append(String.format(Locale.ROOT, "## Throughput: one Sextant instance, %s commits pre-filled%n%n",
                cell(detail(first, "commits"), Report::count)));
        md.append(String.format(Locale.ROOT, "%,d groups x %d partitions x %s rounds, each round one "
                + "`alterConsumerGroupOffsets` per group, pre-filled once; %s. MM2 has no equivalent (it samples "
                + "group offsets every interval instead of reading commits).%n%n", first.groups(), first.partitions(),
                d0.get("rounds"), runs.size() > 1 ? "then one Sextant per stream-thread count, one after the other, "
                        + "each reading every commit from the start (its own application.id)" : "then Sextant"));
        md.append("| figure |");
        for (Run run : runs) {
            md.append(" Sextant, ").append(run.threads() == null ? "?" : run.threads()).append(" stream thread")
                    .append(Integer.valueOf(1).equals(run.threads()) ? "" : "s").append(" |");
        }
        md.append("\n|---|").append("---:|".repeat(runs.size())).append('\n');
    }

    private static void throughputRows(StringBuilder md, List<Run> runs) {
        Map<String, Object> d0 = runs.get(0).details();
        tpRow(md, runs, "offset commits read/s (first read to the total, or to the " + d0.get("read_timeout_s")
                + " s time-out)", x -> cell(x.commitsPerSec(), Report::count));
        tpRow(md, runs, "commits read before the time-out", x -> String.format(Locale.ROOT, "%s of %s",
                cell(detail(x, "commits_read"), Report::count), cell(detail(x, "commits"), Report::count)));
        tpRow(md, runs, "offset commits read/s between 10% and 90% of what was read",
                x -> cell(detail(x, "commits_per_sec_10_to_90_percent"), Report::count));
        tpRow(md, runs, "Admin requests/s (`sextant.admin.requests`, same span)",
                x -> cell(x.adminRequestsPerSec(), v -> String.format(Locale.ROOT, "%,.1f", v)));
        tpRow(md, runs, "Admin requests/s on the wire (same span)",
                x -> cell(detail(x, "wire_admin_requests_per_sec"), v -> String.format(Locale.ROOT, "%,.1f", v)));
        tpRow(md, runs, "alterConsumerGroupOffsets sent, in all",
                x -> cell(detail(x, "alter_requests"), Report::count));
        tpRow(md, runs, "launch to first commit read", x -> duration(nz(detail(x, "startup_s")) * 1000));
        tpRow(md, runs, "launch to every group's last commit on the destination",
                x -> duration(nz(detail(x, "drain_s")) * 1000)
                        + (Boolean.TRUE.equals(x.details().get("drained")) ? "" : " (not all)"));
        tpRow(md, runs, "CPU seconds / peak RSS (MB)", x -> cell(x.cpuS(), v -> String.format(Locale.ROOT, "%,.1f",
                v)) + " / " + cell(x.peakRssMb(), v -> String.format(Locale.ROOT, "%,.0f", v)));
        tpRow(md, runs, "peak heap used / after GC / -Xmx (MiB)", x -> String.format(Locale.ROOT, "%s / %s / %s",
                mib(x.details().get("peak_heap_used_mb")), mib(x.details().get("peak_heap_after_gc_mb")),
                mib(x.details().get("heap_max_mb")))
                + (Boolean.TRUE.equals(x.details().get("out_of_memory")) ? " (out of memory)" : ""));
        streamThreadRows(md, runs);
    }

    private static void streamThreadRows(StringBuilder md, List<Run> runs) {
        if (runs.stream().anyMatch(x -> x.details().get("kafka_streams_thread") instanceof Map<?, ?> st
                && !st.isEmpty())) {
            tpRow(md, runs, "stream thread: share of time punctuating (Sextant's flush) / processing / polling",
                    x -> x.details().get("kafka_streams_thread") instanceof Map<?, ?> st
                            ? pct(st.get("punctuate.ratio")) + " / " + pct(st.get("process.ratio")) + " / "
                            + pct(st.get("poll.ratio")) : "n/a");
            tpRow(md, runs, "stream thread: ms per record processed; ms per flush (avg / max)",
                    x -> x.details().get("kafka_streams_thread") instanceof Map<?, ?> st
                            ? st.get("process.latency.avg") + "; " + st.get("punctuate.latency.avg") + " / "
                            + st.get("punctuate.latency.max") : "n/a");
        }
    }

    private static void throughputFooter(StringBuilder md, List<Run> runs) {
        md.append('\n');
        if (runs.size() > 1) {
            md.append("With several stream threads the figures of the stream thread are one thread's (the last "
                    + "reported).\n\n");
        }
    }

    private static void tpRow(StringBuilder md, List<Run> runs, String label,
                              Function<Run, String> cell) {
        md.append("| ").append(label).append(" |");
        for (Run run : runs) {
            md.append(' ').append(cell.apply(run)).append(" |");
        }
        md.append('\n');
    }

    private static String mib(Object v) {
        return v instanceof Number n ? String.format(Locale.ROOT, "%,.0f", n.doubleValue()) : "n/a";
    }

    /** A "replay where a later sync exists" figure; none (no such partition, or an older results file): null. */
    private static Double laterSync(Run run, String key) {
        Double value = detail(run, key);
        return value == null || value < 0 ? null : value;
    }

    private static Double detail(Run run, String key) {
        return run.details() != null && run.details().get(key) instanceof Number n ? n.doubleValue() : null;
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
                            Function<Run, Double> value,
                            DoubleFunction<String> format) {
        Double d = def == null ? null : value.apply(def);
        Double f = fast == null ? null : value.apply(fast);
        Double s = sx == null ? null : value.apply(sx);
        md.append("| ").append(label).append(" | ").append(cell(d, format)).append(" | ").append(cell(f, format))
                .append(" | ").append(cell(s, format)).append(" | ").append(ratio(d, s)).append(" | ")
                .append(ratio(f, s)).append(" |\n");
    }

    /** The initial sync, "≥" where the wait (or the system) ended before it finished. */
    private static void initialSyncRow(StringBuilder md, Run def, Run fast, Run sx) {
        md.append("| initial sync: every group on the destination (s)");
        Run[] runs = {def, fast, sx};
        for (Run x : runs) {
            md.append(" | ").append(initialLower(x) ? "≥ " : "").append(cell(x == null ? null : x.initialSyncS(),
                    v -> String.format(Locale.ROOT, "%,.1f", v)));
        }
        for (Run mm2 : new Run[] {def, fast}) {
            Double m = mm2 == null ? null : mm2.initialSyncS();
            Double x = sx == null ? null : sx.initialSyncS();
            md.append(" | ").append(initialLower(sx) ? "n/a" : (initialLower(mm2) ? "≥ " : "") + ratio(m, x));
        }
        md.append(" |\n");
    }

    private static boolean initialLower(Run run) {
        return run != null && run.initialSyncS() != null && Boolean.TRUE.equals(run.initialSyncLowerBound());
    }

    private static void latencyRow(StringBuilder md, String label, String which, Run def, Run fast, Run sx,
                                   Function<Latency, Double> value) {
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

    private static String cell(Double v, DoubleFunction<String> format) {
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
