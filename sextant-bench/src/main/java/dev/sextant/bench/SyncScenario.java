package dev.sextant.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One scale of the sync scenario for the syncers it is given: N groups per syncer, the same workload for each syncer
 * on its own groups. Side by side, every syncer of the run at once; sequential, one syncer per instance, each on its
 * own caught-up topic (the lagging topic and every lag are the same for all).
 *
 * <ol>
 *   <li>A fresh topic {@code bench-lat-N[suffix]} for the caught-up groups; the lagging groups use {@code bench-lag},
 *       filled once per run before any syncer starts ({@link Session#fillLagTopic}). Every group commits offset 0
 *       first, so MirrorMaker's checkpoint connector finds it when it starts.</li>
 *   <li>The syncers start, each in its own JVM: Sextant, MirrorMaker's checkpoint connector at 1 s, and at its
 *       defaults (60 s). Both read the whole offset-sync history at start.</li>
 *   <li>Each lagging group commits once, {@code L} records behind the end of {@code bench-lag} ({@code L}
 *       log-uniform in [lagMin, lagMax], the same for every syncer's copy of the group).</li>
 *   <li>Window: a producer writes {@code bench-lat-N}; the caught-up groups commit in turn, at the acknowledged
 *       end offsets, {@code commitRate} group commits per second per syncer (side by side, the copies of a group
 *       commit the same offsets at the same moment; sequential, each system's at the same point of its own
 *       window).</li>
 *   <li>Tail: commits and production stop; the pollers wait until the destination shows every commit.</li>
 *   <li>Final state: replay per partition = source offset of the destination's value - destination offset (the
 *       exact destination equivalent of source offset {@code s} is {@code s}: MirrorMaker copies a fresh topic
 *       1:1, which is checked).</li>
 * </ol>
 */
final class SyncScenario {

    /** What one syncer did at one scale. */
    static final class SystemOutcome {
        String system;
        DestinationPoller poller;
        double cpuSeconds = Double.NaN;
        double cpuSecondsTotal = Double.NaN;
        double peakRssMb = Double.NaN;
        double destinationRequestsPerSec = Double.NaN;
        double countedRequestsPerSec = Double.NaN;
        long unresolved;
        long stale;
        long caughtUpReplayMax = -1;
        long laggingReplayMax = -1;
        long caughtUpIdealMax = -1;
        long laggingIdealMax = -1;
        long minReplay = Long.MAX_VALUE;
        long aboveBestMax = Long.MIN_VALUE; // replay minus the best possible replay, worst partition
        /** Worst replay over partitions whose commit has a MirrorMaker 2 sync above it (-1: none such). */
        long caughtUpLaterSyncMax = -1;
        long laggingLaterSyncMax = -1;
        /** Partitions whose commit has a sync above it, and how many of them replay nothing. */
        long laterSyncPartitions;
        long laterSyncExact;
        /** Sextant only, over the measured span: records read to prove intervals, per second; proofs; CPU s. */
        double verificationReadsPerSec = Double.NaN;
        double intervalsProven = Double.NaN;
        double verificationCpuSeconds = Double.NaN;
        /** Sextant: re-plans written from the lagging groups' commits to the end of the tail, and new commits' wait. */
        ReplanDrain replans = ReplanDrain.NONE;
        /** Sextant: what the window asked of its write path, and whether it kept up. */
        WindowLoad window = WindowLoad.NONE;
        /** With --idle-commits: the same offsets committed again, and Sextant's destination writes for them. */
        long idleRecommits = -1;
        double idleWrites = Double.NaN;
        /** Whether Sextant had stopped writing before the idle recommits (else its writes count theirs too). */
        boolean idleAfterQuiet;
        /** Seconds the destination offsets took to stop moving after the tail (upgrades to exact included). */
        double settleSeconds = Double.NaN;
        final List<long[]> replayPoints = new ArrayList<>(); // {lag, replay, ideal, lagging?1:0}
        /** Seconds from the syncers being ready until every group's initial commit was visible (or the wait ended). */
        double initialSyncSeconds = Double.NaN;
        /** True when the initial sync did not finish within the wait: initialSyncSeconds is a lower bound. */
        boolean initialSyncCensored;
        String log;
        /** Sextant only: its heap figures at the end of the tail. */
        SextantChild.Heap heap;
        /** Whether the process still ran at the end of the tail (a JVM out of memory exits). */
        boolean alive = true;
        /** Sextant only: its log says it ran out of memory. */
        boolean outOfMemory;
        /**
         * Why this system's run failed (it did not start in time, its process exited or ran out of memory, or the
         * harness failed during its part); null when it ran to the end. A failed run keeps what was measured until
         * then: statistics its unresolved commits reach are lower bounds, and its replay is not measured.
         */
        String failed;
        /** Whose failure it was: {@link #BY_SYSTEM} or {@link #BY_HARNESS}; null when it did not fail. */
        String failedBy;
        /** Seconds from the syncers being ready until it failed (NaN: it failed before, or after the tail). */
        double failedAtSeconds = Double.NaN;
        /** Its log (or, if it did not start, what its start left behind). */
        Path logFile;
        /** Whether the final state (replay) was read: not for a system that stopped during the run. */
        boolean finalStateRead;

        SystemOutcome(String system) {
            this.system = system;
        }

        void fail(String by, String reason, double atSeconds) {
            if (failed == null) {
                failedBy = by;
                failed = reason;
                failedAtSeconds = atSeconds;
            }
        }
    }

    /** A failure of the system under test: it did not start in time, it exited, it ran out of memory. */
    static final String BY_SYSTEM = "system";
    /** A failure of the harness (or the clusters) while that system's part of the scenario ran. */
    static final String BY_HARNESS = "harness";

    /** One scale's outcome. */
    static final class Outcome {
        int groups;
        /** Partitions of the caught-up topic at this scale. */
        int partitions;
        /** Sextant's -Xmx at this scale. */
        String sextantHeap;
        /** {@link BenchSettings#SEQUENTIAL} (one system in this outcome) or {@link BenchSettings#SIDE_BY_SIDE}. */
        String mode;
        /** The caught-up groups' topic. */
        String topic;
        /** 1-minute load average at the start and the end of the measured span. */
        double loadStart = -1;
        double loadEnd = -1;
        int caughtUpGroups;
        int laggingGroups;
        long lagTopicEnd;
        /** Epoch ms: just before the lagging groups commit, and the end of the tail (the re-plans' span). */
        long burstStartMs;
        long endMs;
        /** When the window started, epoch ms and {@link System#nanoTime()}: the commits' times to the wall clock. */
        long windowStartMs;
        long windowStartNanos;
        long windowCommits;
        /** When the window's commits stopped, epoch ms. */
        long windowEndMs;
        Samples commitCallMillis;
        /** With --bare-writer: the destination's ceiling on group writes, measured after the systems stopped. */
        BareWriter bareWriter;
        double measuredSeconds;
        final Map<String, SystemOutcome> systems = new LinkedHashMap<>();
        final Map<String, Object> checks = new LinkedHashMap<>();
        final Map<String, Double> phases = new LinkedHashMap<>();
        final Map<String, Object> syncSpacing = new LinkedHashMap<>();
        /** CPU seconds over the measured span of the processes that are not under test. */
        final Map<String, Double> otherCpu = new LinkedHashMap<>();
    }

    private final Session session;
    private final BenchSettings cfg;
    private final int n;
    /** Partitions of the caught-up topic. */
    private final int partitions;
    private final Path dir;
    private final List<String> systems;
    private final String topicSuffix;
    /** How the log names this instance: the scale, and the system when it runs alone. */
    private final String label;

    /**
     * @param systems     the syncers that run in this instance, all at once
     * @param topicSuffix appended to {@code bench-lat-N}: one caught-up topic per instance, so neither the offsets
     *                    nor the offset syncs of one system's run meet another's
     */
    SyncScenario(Session session, int groups, List<String> systems, String topicSuffix) {
        this.session = session;
        this.cfg = session.settings;
        this.n = groups;
        this.partitions = cfg.partitionsAt(groups);
        this.dir = session.workDir.resolve("scale-" + groups);
        this.systems = BenchSettings.ALL_SYSTEMS.stream().filter(systems::contains).toList();
        this.topicSuffix = topicSuffix;
        this.label = "scale " + groups + (cfg.sequential() ? " " + String.join(",", this.systems) : "");
    }

    static String code(String system) {
        return switch (system) {
            case BenchSettings.SEXTANT -> "sx";
            case BenchSettings.SEXTANT_INTERPOLATION_OFF -> "sxo";
            case BenchSettings.SEXTANT_ADMIN_POLL -> "sxa";
            case BenchSettings.MM2_FAST -> "mm2f";
            case BenchSettings.MM2_DEFAULT -> "mm2d";
            default -> throw new IllegalArgumentException(system);
        };
    }

    /**
     * Runs this scale for its syncers. Never fails as a whole: a syncer that does not start, exits or runs out of
     * memory, or a harness failure during its part, is recorded in its {@link SystemOutcome} ({@code failed}) and the
     * others carry on; what was measured is kept.
     */
    Outcome run() {
        Outcome out = new Outcome();
        out.groups = n;
        out.partitions = partitions;
        out.sextantHeap = cfg.sextantHeap(n);
        out.mode = cfg.mode();
        long t0 = System.nanoTime();
        String lat = "bench-lat-" + n + topicSuffix;
        out.topic = lat;
        String lag = Session.LAG_TOPIC;
        int nLag = (int) Math.round(n * cfg.laggingShare());
        int nCaught = n - nLag;
        out.caughtUpGroups = nCaught;
        out.laggingGroups = nLag;
        Committer committer = new Committer(session.committers, 500);
        Map<String, List<TrackedGroup>> groups;
        try {
            Files.createDirectories(dir);
            groups = ScaleSetUp.groups(session, n, systems, committer, lat, nCaught, nLag);
        } catch (Exception e) {
            failAll(out, systems, "setting up the scale failed: " + FailureText.describe(e), e);
            session.keepClusterLogs(dir.resolve("clusters"));
            return out;
        }
        out.phases.put("create_groups_s", Bench.seconds(System.nanoTime() - t0));
        Bench.log("%s: %d groups per syncer (%d caught up on %s x%d, %d lagging on %s x%d) created in %.1f s",
                label, n, nCaught, lat, partitions, nLag, lag, cfg.lagPartitions(),
                Bench.seconds(System.nanoTime() - t0));

        long t1 = System.nanoTime();
        SyncerProcesses processes = new SyncerProcesses(session, n, dir, systems, label);
        Map<String, Syncer> syncers = processes.start(out, lat, lag);
        out.phases.put("start_syncers_s", Bench.seconds(System.nanoTime() - t1));
        groups.keySet().retainAll(syncers.keySet()); // a syncer that did not start gets no workload
        try {
            if (!syncers.isEmpty()) {
                Bench.log("%s: syncers ready in %.1f s: %s", label, Bench.seconds(System.nanoTime() - t1),
                        syncers.values());
                new SyncWorkload(session, partitions, dir, label).run(out, groups, syncers, committer, lat, lag,
                        nCaught, nLag);
            }
        } catch (Exception e) {
            failAll(out, syncers.keySet(), "the harness failed during the run: " + FailureText.describe(e), e);
        } finally {
            processes.closeAll(syncers);
        }
        bareWriter(out, syncers.keySet(), lat, nCaught);
        try {
            out.checks.put(lat, MirrorCheck.of(session, lat, partitions));
            out.syncSpacing.put(lat, session.syncSpacing(lat, partitions));
            Path jfr = dir.resolve(BenchSettings.SEXTANT).resolve("sextant.jfr");
            if (Files.exists(jfr)) {
                JfrSummary.write(jfr, session.workDir.resolve("sync-" + n + "-profile.txt"));
            }
        } catch (Exception e) {
            out.checks.putIfAbsent(lat, "not checked: " + FailureText.describe(e));
        }
        out.phases.put("total_s", Bench.seconds(System.nanoTime() - t0));
        if (out.systems.values().stream().anyMatch(so -> so.failed != null)) {
            session.keepClusterLogs(dir.resolve("clusters"));
        }
        Bench.log("%s done in %.0f s; mirror %s%s", label, Bench.seconds(System.nanoTime() - t0), out.checks,
                out.systems.values().stream().filter(so -> so.failed != null)
                        .map(so -> "; " + so.system + " failed: " + so.failed).reduce("", String::concat));
        return out;
    }

    /** With --bare-writer, after a Sextant's run: the destination's ceiling on group writes, with no commit load. */
    private void bareWriter(Outcome out, Collection<String> ran, String lat, int nCaught) {
        if (cfg.bareWriter() && ran.stream().anyMatch(BenchSettings::isSextant)) {
            try {
                out.bareWriter = BareWriter.measure(session, n, "source." + lat, partitions, Math.max(1, nCaught));
            } catch (RuntimeException e) {
                Bench.log("%s: the bare writer failed: %s", label, FailureText.describe(e));
            }
        }
    }

    /** Records a harness failure for each of {@code which} that has no failure of its own yet; logs it once. */
    private void failAll(Outcome out, Collection<String> which, String reason, Exception e) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        Bench.log("%s: %s (%s)", label, reason, String.join(", ", which));
        FailureText.write(dir.resolve("failure.txt"), reason, e);
        for (String system : which) {
            SystemOutcome so = out.systems.computeIfAbsent(system, SystemOutcome::new);
            so.fail(BY_HARNESS, reason, Double.NaN);
        }
    }

    /** The names of a system's groups at {@code groups} groups start with this. */
    static String prefix(String system, int groups) {
        return "bench-" + code(system) + "-" + groups + "-";
    }
}
