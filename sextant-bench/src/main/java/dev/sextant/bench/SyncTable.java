package dev.sextant.bench;

import static dev.sextant.bench.Report.cell;
import static dev.sextant.bench.Report.detail;
import static dev.sextant.bench.Report.find;
import static dev.sextant.bench.Report.mib;
import static dev.sextant.bench.Report.ratio;

import dev.sextant.bench.Report.Latency;
import dev.sextant.bench.Report.Run;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The sync scenario's part of the Markdown report: a section per scale, its table putting MM2 at its default and at
 * 1 s beside Sextant, with the MM2 ÷ Sextant ratios.
 */
final class SyncTable {

    private SyncTable() {
    }

    /** The sync scenario at one scale: what ran, the table of figures, and what qualifies them. */
    static void write(StringBuilder md, int groups, List<Run> runs, boolean sequential, List<String> systemsRun) {
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
        variantTables(md, runs, sx);
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

    /** Sextant beside each of its variants the run measured: interpolation off, the Admin API poll. */
    private static void variantTables(StringBuilder md, List<Run> runs, Run sx) {
        Run off = find(runs, BenchSettings.SEXTANT_INTERPOLATION_OFF);
        if (off != null) {
            exactnessTable(md, sx, off);
        }
        Run admin = find(runs, BenchSettings.SEXTANT_ADMIN_POLL);
        if (admin != null) {
            adminPollTable(md, sx, admin);
        }
    }

    /** The rows every Sextant-beside-a-variant table starts with: latency, replay, CPU. */
    private static void latencyReplayAndCpu(StringBuilder md, Run[] both) {
        pair(md, "sync latency p50", both, x -> x.syncLatencyMs() == null ? "n/a"
                : (lower(x, "p50") ? "≥ " : "") + cell(x.syncLatencyMs().p50(), Report::duration));
        pair(md, "sync latency p99", both, x -> x.syncLatencyMs() == null ? "n/a"
                : (lower(x, "p99") ? "≥ " : "") + cell(x.syncLatencyMs().p99(), Report::duration));
        pair(md, "replay, caught-up / lagging groups (max records)", both, x -> x.replayRecords() == null ? "n/a"
                : count(x.replayRecords().caughtUpMax()) + " / " + count(x.replayRecords().laggingMax()));
        pair(md, "CPU seconds", both, x -> cell(x.cpuS(), v -> String.format(Locale.ROOT, "%,.1f", v)));
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

    /**
     * What replay 0 costs: Sextant as it runs by default ({@code translation.interpolation=verified}, intervals
     * proven by their records) beside the same workload with {@code translation.interpolation=off} (MirrorMaker 2's
     * rule between syncs, nothing read).
     */
    private static void exactnessTable(StringBuilder md, Run sx, Run off) {
        md.append("What exactness costs: Sextant as it runs by default (`translation.interpolation=verified`) beside "
                + "the same workload with `translation.interpolation=off` (MirrorMaker 2's rule between syncs: no "
                + "record read, replay up to the sync spacing).\n\n");
        md.append("| figure | Sextant, verified | Sextant, interpolation off |\n|---|---:|---:|\n");
        Run[] both = {sx, off};
        if (Stream.of(both).anyMatch(x -> x != null && x.failed() != null)) {
            pair(md, "run", both, x -> x.failed() == null ? "completed" : "failed: " + x.failed());
        }
        latencyReplayAndCpu(md, both);
        pair(md, "of which proving intervals (CPU s)", both, x -> cell(detail(x, "verification_cpu_s"),
                v -> String.format(Locale.ROOT, "%,.2f", v)));
        pair(md, "records read to prove intervals (/s, both clusters)", both,
                x -> cell(detail(x, "verification_records_read_per_sec"), Report::count));
        pair(md, "records read to prove intervals, per group commit (approximate)", both,
                x -> cell(detail(x, "verification_records_read_per_group_commit"),
                        v -> String.format(Locale.ROOT, "%,.1f", v)));
        pair(md, "Admin requests/s to the destination", both, x -> cell(x.adminRequestsPerSec(),
                v -> String.format(Locale.ROOT, "%,.1f", v)));
        pair(md, "group writes planned again without a new commit (lagging commits to the end)", both,
                x -> cell(detail(x, "replanned_group_writes"), Report::count));
        pair(md, "slowest caught-up commit made while those were most of the writes", both,
                x -> cell(detail(x, "latency_of_commits_made_while_replans_drained_max_ms"), Report::duration));
        pair(md, "oldest new commit not yet written, at its highest (s)", both,
                x -> cell(detail(x, "oldest_new_commit_age_max_s"), v -> String.format(Locale.ROOT, "%,.2f", v)));
        md.append('\n');
    }

    private static void pair(StringBuilder md, String label, Run[] runs, Function<Run, String> value) {
        md.append("| ").append(label);
        for (Run x : runs) {
            md.append(" | ").append(x == null ? "n/a" : value.apply(x));
        }
        md.append(" |\n");
    }

    private static String count(Long v) {
        return v == null ? "n/a" : Report.count(v);
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

    /** A "replay where a later sync exists" figure; none (no such partition, or an older results file): null. */
    private static Double laterSync(Run run, String key) {
        Double value = detail(run, key);
        return value == null || value < 0 ? null : value;
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

    /**
     * The fallback for sources that hide {@code __consumer_offsets} beside the log: committed offsets polled through
     * the Admin API every {@code source.offsets.poll.interval.ms}.
     */
    private static void adminPollTable(StringBuilder md, Run sx, Run admin) {
        md.append("What the Admin API fallback costs: Sextant reading `__consumer_offsets` (`source.offsets.read=log`, "
                + "the default) beside the same workload with `source.offsets.read=admin` (the groups' committed "
                + "offsets polled every `source.offsets.poll.interval.ms`, as MirrorMaker 2 reads them; a commit "
                + "replaced before the next poll is never seen).\n\n");
        md.append("| figure | Sextant, log | Sextant, Admin API poll |\n|---|---:|---:|\n");
        Run[] both = {sx, admin};
        if (Stream.of(both).anyMatch(x -> x != null && x.failed() != null)) {
            pair(md, "run", both, x -> x.failed() == null ? "completed" : "failed: " + x.failed());
        }
        pair(md, "initial sync: every group on the destination (s)", both, x -> (initialLower(x) ? "≥ " : "")
                + cell(x.initialSyncS(), v -> String.format(Locale.ROOT, "%,.1f", v)));
        latencyReplayAndCpu(md, both);
        pair(md, "Admin requests/s to the destination", both, x -> cell(x.adminRequestsPerSec(),
                v -> String.format(Locale.ROOT, "%,.1f", v)));
        md.append('\n');
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
}
