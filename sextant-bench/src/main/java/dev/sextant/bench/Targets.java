package dev.sextant.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The targets Sextant is built to meet, each evaluated from this run's measurements (nothing is hard-coded): met,
 * not met, or not measured (null) when its scale or scenario did not run, or its figure does not decide it (a lower
 * bound within the limit). A target on a run that failed is not met when Sextant itself failed (it did not start in
 * time, exited, ran out of memory) and not measured when the harness did.
 */
final class Targets {

    static final String THREADS_TARGET = "with two stream threads no slower than with one";

    private Targets() {
    }

    static List<Report.Target> of(BenchSettings cfg, List<Report.Run> runs,
                                  List<ThroughputScenario.Outcome> throughput) {
        List<Report.Target> targets = evaluate(cfg, runs, throughput);
        if (cfg.commitRate() == BenchSettings.STANDARD_COMMIT_RATE) {
            return targets;
        }
        // these targets are set for the standard workload; another commit rate is a point of the commit-rate sweep,
        // whose own targets SweepReport evaluates: figures kept, no verdict
        return targets.stream().map(t -> new Report.Target(t.target(), t.met() == null ? t.measured()
                : t.measured() + " (at " + cfg.commitRate() + " group commits/s: a sweep point, judged by the "
                + "sweep's targets)", null)).toList();
    }

    private static List<Report.Target> evaluate(BenchSettings cfg, List<Report.Run> runs,
                                                List<ThroughputScenario.Outcome> throughput) {
        List<Report.Target> out = new ArrayList<>();
        // the per-instance targets are about the default deployment, one stream thread; the others are stated
        int primary = throughput.isEmpty() ? 1
                : BenchMain.primaryThreads(throughput.stream().map(t -> t.threads).toList());
        ThroughputScenario.Outcome tp = throughput.stream().filter(t -> t.threads == primary).findFirst()
                .orElse(null);
        out.add(latency(runs, 1_000, 1_000));
        out.add(latency(runs, 10_000, 1_000));
        out.add(initialSync(runs, 10_000, 15));
        out.add(heap(runs, 10_000, 10, 256));
        out.add(initialSync(runs, 100_000, 60));
        out.add(latency(runs, 100_000, 2_000));
        out.add(heap(runs, 100_000, 2, 512));
        out.add(rss(runs, 100_000, 2, 1_024));
        out.add(throughput(tp, throughput));
        out.add(threads(throughput));
        out.add(replay(cfg, runs));
        out.add(laterSyncReplay(runs));
        out.add(replanWait(runs));
        out.add(requests(tp));
        return out;
    }

    /** Sextant's sync run at {@code groups} groups, or null. */
    static Report.Run sextantSyncRun(List<Report.Run> runs, int groups) {
        return runs.stream().filter(r -> r.scenario().equals("sync") && r.groups() == groups
                && r.system().equals(BenchSettings.SEXTANT)).findFirst().orElse(null);
    }

    private static String scale(int groups) {
        return String.format(Locale.ROOT, "%,d groups", groups);
    }

    private static String noRun(int groups) {
        return String.format(Locale.ROOT, "no %,d-group run", groups);
    }

    /** Whether a failed run was Sextant's own failure (not the harness's). */
    private static boolean ownFailure(Map<String, Object> details) {
        return details != null && SyncScenario.BY_SYSTEM.equals(details.get("failed_by"));
    }

    /** A target on a run that failed: not met when Sextant itself failed, not measured when the harness did. */
    private static Report.Target failed(String name, String failure, Map<String, Object> details, String figures) {
        return new Report.Target(name, "failed: " + failure + (figures == null ? "" : "; " + figures),
                ownFailure(details) ? false : null);
    }

    /**
     * Within {@code limit}: met; a lower bound (the wait ended first) above it: not met, within it: not measured.
     */
    private static Boolean within(double value, boolean lowerBound, double limit) {
        if (lowerBound) {
            return value > limit ? false : null;
        }
        return value <= limit;
    }

    /** Steady-state p99 sync latency at {@code groups} groups at most {@code limitMs}. */
    static Report.Target latency(List<Report.Run> runs, int groups, double limitMs) {
        String name = String.format(Locale.ROOT, limitMs % 1_000 == 0 ? "steady-state p99 ≤ %.0f s at %s"
                : "steady-state p99 ≤ %.1f s at %s", limitMs / 1_000, scale(groups));
        Report.Run run = sextantSyncRun(runs, groups);
        if (run == null) {
            return new Report.Target(name, noRun(groups), null);
        }
        Report.Latency l = run.steadyLatencyMs();
        String figures = l == null || l.p99() == null ? null : "p99 " + (l.lowerBounds().contains("p99") ? "≥ " : "")
                + Report.duration(l.p99()) + " (p50 " + (l.p50() == null ? "n/a" : Report.duration(l.p50())) + ")"
                + String.format(Locale.ROOT, ", %,d caught-up partitions per group", run.partitions());
        if (run.failed() != null) {
            return failed(name, run.failed(), run.details(), figures);
        }
        if (figures == null) {
            return new Report.Target(name, "no steady-state commit measured", null);
        }
        return new Report.Target(name, figures, within(l.p99(), l.lowerBounds().contains("p99"), limitMs));
    }

    /** Initial sync of every group at {@code groups} groups within {@code limitS}. */
    static Report.Target initialSync(List<Report.Run> runs, int groups, double limitS) {
        String name = String.format(Locale.ROOT, "initial sync ≤ %.0f s for %s", limitS, scale(groups));
        Report.Run run = sextantSyncRun(runs, groups);
        if (run == null) {
            return new Report.Target(name, noRun(groups), null);
        }
        boolean lower = Boolean.TRUE.equals(run.initialSyncLowerBound());
        String figures = run.initialSyncS() == null ? null
                : String.format(Locale.ROOT, "%s%.1f s", lower ? "≥ " : "", run.initialSyncS());
        if (run.failed() != null) {
            return failed(name, run.failed(), run.details(), figures);
        }
        if (figures == null) {
            return new Report.Target(name, "not measured", null);
        }
        return new Report.Target(name, figures, within(run.initialSyncS(), lower, limitS));
    }

    /**
     * The live set of Sextant's sync run at {@code groups} groups: its old generation after GC (or, if the old
     * generation was never collected, the heap after young GCs, an upper bound) at most {@code limitMib}, and the
     * JVM alive at the end (with -XX:+ExitOnOutOfMemoryError a JVM out of memory exits, so a dead one did not meet
     * it). Not measured below {@code minPartitions} partitions (fewer positions than the target's shape).
     */
    static Report.Target heap(List<Report.Run> runs, int groups, int minPartitions, double limitMib) {
        String name = String.format(Locale.ROOT, "heap ≤ %,.0f MiB at %s × %d partitions", limitMib, scale(groups),
                minPartitions);
        Report.Run run = sextantSyncRun(runs, groups);
        if (run == null) {
            return new Report.Target(name, noRun(groups), null);
        }
        Map<String, Object> d = run.details();
        String figures = heapFigures(run);
        if (run.failed() != null) { // out of memory, exited, not started in time: the run's own failure
            return failed(name, run.failed(), d, figures);
        }
        if (Boolean.TRUE.equals(d.get("out_of_memory")) || !Boolean.TRUE.equals(d.get("alive_at_end"))) {
            return new Report.Target(name, figures, false); // results from before failures were recorded
        }
        if (run.partitions() < minPartitions) {
            return new Report.Target(name, figures + "; not measured below " + minPartitions + " partitions", null);
        }
        Double afterGc = number(d.get("peak_heap_after_gc_mb"));
        Double live = afterGc != null ? afterGc : number(d.get("peak_heap_after_young_gc_mb"));
        return new Report.Target(name, figures, live == null ? null : live <= limitMib);
    }

    /** A sync run's heap figures, in words (with how it ended when it did not run to the end). */
    private static String heapFigures(Report.Run run) {
        Map<String, Object> d = run.details();
        Double afterGc = number(d.get("peak_heap_after_gc_mb"));
        StringBuilder m = new StringBuilder();
        if (Boolean.TRUE.equals(d.get("out_of_memory"))) {
            m.append("Sextant ran out of memory and exited; ");
        } else if (!Boolean.TRUE.equals(d.get("alive_at_end"))) {
            m.append("Sextant was no longer running at the end; ");
        }
        m.append(afterGc != null ? String.format(Locale.ROOT, "peak after GC %s MiB", mib(afterGc))
                : String.format(Locale.ROOT, "no old-generation collection ran (heap after young GCs at most %s MiB)",
                        mib(number(d.get("peak_heap_after_young_gc_mb")))));
        m.append(String.format(Locale.ROOT, ", peak used %s MiB, -Xmx %s MiB (%s caught-up groups × %d partitions "
                        + "+ %s lagging × %s)", mib(number(d.get("peak_heap_used_mb"))),
                mib(number(d.get("heap_max_mb"))), d.get("caught_up_groups"), run.partitions(),
                d.get("lagging_groups"), d.get("lag_partitions")));
        return m.toString();
    }

    /** Sextant's peak RSS ({@code VmHWM}) in its sync run at {@code groups} groups at most {@code limitMb}. */
    static Report.Target rss(List<Report.Run> runs, int groups, int minPartitions, double limitMb) {
        String name = String.format(Locale.ROOT, "peak RSS ≤ %s at %s", limitMb >= 1_024 && limitMb % 1_024 == 0
                ? String.format(Locale.ROOT, "%.0f GiB", limitMb / 1_024) : String.format(Locale.ROOT, "%.0f MB",
                limitMb), scale(groups));
        Report.Run run = sextantSyncRun(runs, groups);
        if (run == null) {
            return new Report.Target(name, noRun(groups), null);
        }
        String figures = run.peakRssMb() == null ? null : String.format(Locale.ROOT, "%,.0f MB (VmHWM; %d "
                + "partitions, -Xmx %s MiB)", run.peakRssMb(), run.partitions(), mib(number(run.details()
                .get("heap_max_mb"))));
        if (run.failed() != null) {
            return failed(name, run.failed(), run.details(), figures);
        }
        if (figures == null) {
            return new Report.Target(name, "not measured", null);
        }
        if (run.partitions() < minPartitions) {
            return new Report.Target(name, figures + "; not measured below " + minPartitions + " partitions", null);
        }
        return new Report.Target(name, figures, run.peakRssMb() <= limitMb);
    }

    /** {@code tp}: the primary throughput run, or null; the others in {@code throughput} are stated beside it. */
    static Report.Target throughput(ThroughputScenario.Outcome tp, List<ThroughputScenario.Outcome> throughput) {
        String name = "≥ 100,000 offset commits/s per instance";
        if (tp == null) {
            return new Report.Target(name, "not run", null);
        }
        StringBuilder measured = new StringBuilder(Double.isNaN(tp.overallCommitsPerSec) ? "n/a"
                : String.format(Locale.ROOT, "%,.0f commits/s with %s (%,d of %,d read in %.0f s)",
                tp.overallCommitsPerSec, BenchResults.threads(tp.threads), tp.reached, tp.commits, tp.readSeconds));
        for (ThroughputScenario.Outcome other : throughput) {
            if (other != tp) {
                measured.append(String.format(Locale.ROOT, "; %s: %s", BenchResults.threads(other.threads),
                        Double.isNaN(other.overallCommitsPerSec) ? "n/a"
                                : String.format(Locale.ROOT, "%,.0f commits/s", other.overallCommitsPerSec)));
            }
        }
        if (tp.failed != null) {
            return new Report.Target(name, "failed: " + tp.failed + "; " + measured,
                    SyncScenario.BY_SYSTEM.equals(tp.failedBy) ? false : null);
        }
        if (Double.isNaN(tp.overallCommitsPerSec)) {
            return new Report.Target(name, "not measured", null);
        }
        return new Report.Target(name, measured.toString(), tp.overallCommitsPerSec >= 100_000);
    }

    /** The 2-stream-thread run reads at least as many commits a second as the 1-thread run. */
    static Report.Target threads(List<ThroughputScenario.Outcome> throughput) {
        ThroughputScenario.Outcome one = throughput.stream().filter(t -> t.threads == 1).findFirst().orElse(null);
        ThroughputScenario.Outcome two = throughput.stream().filter(t -> t.threads == 2).findFirst().orElse(null);
        if (one == null || two == null) {
            return new Report.Target(THREADS_TARGET, "not run with both 1 and 2 stream threads", null);
        }
        String figures = String.format(Locale.ROOT, "2 stream threads: %s; 1 stream thread: %s%s",
                rate(two.overallCommitsPerSec), rate(one.overallCommitsPerSec),
                Double.isNaN(two.overallCommitsPerSec) || Double.isNaN(one.overallCommitsPerSec)
                        || one.overallCommitsPerSec <= 0 ? ""
                        : String.format(Locale.ROOT, " (×%.2f)", two.overallCommitsPerSec / one.overallCommitsPerSec));
        if (two.failed != null) { // the 2-thread instance itself failed: it was not as fast
            return new Report.Target(THREADS_TARGET, "2 stream threads failed: " + two.failed + "; " + figures,
                    SyncScenario.BY_SYSTEM.equals(two.failedBy) ? false : null);
        }
        if (one.failed != null || Double.isNaN(two.overallCommitsPerSec) || Double.isNaN(one.overallCommitsPerSec)) {
            return new Report.Target(THREADS_TARGET, (one.failed != null ? "1 stream thread failed: " + one.failed
                    + "; " : "") + figures, null);
        }
        return new Report.Target(THREADS_TARGET, figures, two.overallCommitsPerSec >= one.overallCommitsPerSec);
    }

    private static String rate(double perSec) {
        return Double.isNaN(perSec) ? "n/a" : String.format(Locale.ROOT, "%,.0f commits/s", perSec);
    }

    static Report.Target replay(BenchSettings cfg, List<Report.Run> runs) {
        long worst = -1;
        long bestPossible = -1;
        long aboveBest = Long.MIN_VALUE;
        for (Report.Run r : runs) {
            if (r.system().equals(BenchSettings.SEXTANT) && r.replayRecords() != null) {
                worst = Math.max(worst,
                        Math.max(nz(r.replayRecords().caughtUpMax()), nz(r.replayRecords().laggingMax())));
                if (r.details().get("replay_best_possible") instanceof Map<?, ?> ideal) {
                    bestPossible = Math.max(bestPossible, Math.max(longOf(ideal.get("caught_up_max")),
                            longOf(ideal.get("lagging_max"))));
                }
                Object above = r.details().get("replay_above_best_possible_max");
                if (above instanceof Number a) {
                    aboveBest = Math.max(aboveBest, a.longValue());
                }
            }
        }
        if (worst < 0) {
            return new Report.Target("replay ≤ offset.lag.max for every group at any lag", "not run", null);
        }
        return new Report.Target("replay ≤ offset.lag.max (" + cfg.offsetLagMax() + ") for every group at any lag",
                String.format(Locale.ROOT, "worst partition %,d records; best possible from the syncs MM2 "
                        + "emitted %,d; Sextant above the best possible by at most %,d", worst, bestPossible,
                        aboveBest == Long.MIN_VALUE ? 0 : aboveBest), worst <= cfg.offsetLagMax());
    }

    /** Replay 0 wherever MirrorMaker 2 synced a record above the commit (interpolation, proven by the records). */
    static Report.Target laterSyncReplay(List<Report.Run> runs) {
        long worst = -1;
        long partitions = 0;
        long exact = 0;
        for (Report.Run r : runs) {
            if (r.system().equals(BenchSettings.SEXTANT) && "sync".equals(r.scenario())) {
                for (String key : List.of("replay_where_later_sync_caught_up_max",
                        "replay_where_later_sync_lagging_max")) {
                    if (r.details().get(key) instanceof Number n) {
                        worst = Math.max(worst, n.longValue());
                    }
                }
                partitions += r.details().get("partitions_with_later_sync") instanceof Number n ? n.longValue() : 0;
                exact += r.details().get("partitions_with_later_sync_replaying_0") instanceof Number n
                        ? n.longValue() : 0;
            }
        }
        String name = "replay 0 where a later sync exists (caught-up and lagging groups)";
        if (worst < 0) {
            return new Report.Target(name, "not run", null);
        }
        return new Report.Target(name, String.format(Locale.ROOT, "worst partition %,d records; %,d of %,d such "
                + "partitions replay 0", worst, exact, partitions), worst == 0);
    }

    /**
     * A new commit is never queued behind re-plans: at every scale, each caught-up group's commit made in a second in
     * which re-planned groups (the lagging groups' exact rewrites after their proofs, closer syncs) were at least half
     * of Sextant's writes reached the destination within 1 s.
     */
    static Report.Target replanWait(List<Report.Run> runs) {
        String name = "a new commit is not queued behind re-plans: commits made while re-planned writes drain reach "
                + "the destination within 1 s";
        List<String> figures = new ArrayList<>();
        Boolean met = null;
        for (Report.Run r : runs) {
            if (r.system().equals(BenchSettings.SEXTANT) && "sync".equals(r.scenario())
                    && r.details().get("latency_of_commits_made_while_replans_drained_max_ms") instanceof Number ms) {
                figures.add(String.format(Locale.ROOT, "%s: slowest %s of %s commits made in the %s s in which "
                        + "re-plans were most of the writes (%,.0f re-planned writes; oldest unwritten commit at most "
                        + "%s s over the run)", scale(r.groups()), Report.duration(ms.doubleValue()),
                        r.details().get("commits_made_while_replans_drained"),
                        r.details().get("seconds_draining_replans"),
                        ((Number) r.details().get("replanned_group_writes")).doubleValue(),
                        r.details().get("oldest_new_commit_age_max_s")));
                met = (met == null || met) && ms.doubleValue() <= 1_000;
            }
        }
        return new Report.Target(name, figures.isEmpty() ? "not measured" : String.join("; ", figures), met);
    }

    static Report.Target requests(ThroughputScenario.Outcome tp) {
        if (tp == null || Double.isNaN(tp.alterRequests)) {
            return new Report.Target("Admin requests scale with groups changed, not commits", "not run", null);
        }
        long flushes = (long) Math.ceil(tp.readSeconds / 0.25) + 1;
        long bound = (long) tp.groups * flushes;
        return new Report.Target("Admin requests scale with groups changed, not commits",
                String.format(Locale.ROOT, "%,.0f alterConsumerGroupOffsets for %,d commits (%,.0f commits per "
                        + "request; bound groups x flushes = %,d)", tp.alterRequests, tp.commits,
                        tp.commits / Math.max(1, tp.alterRequests), bound),
                tp.alterRequests <= bound && tp.alterRequests < tp.commits / 10.0);
    }

    private static long nz(Long v) {
        return v == null ? -1 : v;
    }

    private static long longOf(Object v) {
        return v instanceof Number n ? n.longValue() : -1;
    }

    private static Double number(Object v) {
        return v instanceof Number n ? n.doubleValue() : null;
    }

    private static String mib(Double v) {
        return v == null ? "n/a" : String.format(Locale.ROOT, "%,.0f", v);
    }
}
