package dev.sextant.bench;

import com.fasterxml.jackson.core.type.TypeReference;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The results of a run as the results file states them ({@link Report.Results}), from the scenarios' outcomes: a run
 * entry per system, scenario and scale (a figure that does not apply is null), the targets, the notes, the machine.
 */
final class BenchResults {

    private BenchResults() {
    }

    /**
     * The results of a run.
     *
     * @param stops what stopped a scenario early (a note each, first)
     */
    static Report.Results of(BenchSettings cfg, OffsetDateTime date, String command, double loadStart,
                             List<SyncScenario.Outcome> scales, List<ThroughputScenario.Outcome> tp,
                             Map<String, Object> timings, Map<String, Long> lagSpacing, List<String> stops) {
        List<Report.Run> runs = new ArrayList<>();
        List<String> notes = new ArrayList<>(stops);
        // per scale, the systems in the same order whatever the mode (sequential: one outcome per system)
        for (int n : scales.stream().map(o -> o.groups).distinct().toList()) {
            for (String system : BenchSettings.ALL_SYSTEMS) {
                for (SyncScenario.Outcome o : scales) {
                    SyncScenario.SystemOutcome so = o.systems.get(system);
                    if (o.groups == n && so != null) {
                        runs.add(syncRun(cfg, o, so));
                    }
                }
            }
        }
        for (SyncScenario.Outcome o : scales) {
            o.checks.forEach((topic, check) -> {
                if (!String.valueOf(check).startsWith("1:1")) {
                    notes.add("Mirror check failed for " + topic + ": " + check);
                }
            });
        }
        for (ThroughputScenario.Outcome t : tp) {
            runs.add(throughputRun(cfg, t));
        }
        List<Report.Target> targets = Targets.of(cfg, runs, tp);
        if (!lagSpacing.isEmpty()) {
            notes.add(String.format(Locale.ROOT, "Lagging topic %s: %,d records per partition, offset syncs %s "
                    + "(a gap above offset.lag.max+1 means MirrorMaker coalesced syncs while it was filled; then "
                    + "no translation can be that precise).", Session.LAG_TOPIC,
                    scales.isEmpty() ? -1 : scales.get(0).lagTopicEnd, lagSpacing));
        }
        notes.addAll(ResultNotes.of(cfg, scales, tp));
        Map<String, Object> settings = Report.json().convertValue(cfg, new TypeReference<Map<String, Object>>() { });
        return new Report.Results(date.toString(), command, machine(loadStart), settings, runs, targets, timings,
                notes);
    }

    /** A throughput run's entry: one Sextant instance and its stream-thread count. */
    private static Report.Run throughputRun(BenchSettings cfg, ThroughputScenario.Outcome t) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("commits", t.commits);
        d.put("rounds", t.rounds);
        d.put("commits_read", t.reached);
        d.put("prefill_s", Report.round(t.prefillSeconds, 1));
        d.put("commits_per_sec_10_to_90_percent", Report.round(t.commitsPerSec, 0));
        d.put("read_timeout_s", cfg.tpTimeoutSeconds());
        d.put("wire_admin_requests_per_sec", Report.round(t.wireRequestsPerSec, 1));
        d.put("alter_requests", Report.round(t.alterRequests, 0));
        d.put("startup_s", Report.round(t.startupSeconds, 1));
        d.put("read_s", Report.round(t.readSeconds, 1));
        d.put("drain_s", Report.round(t.drainSeconds, 1));
        d.put("drained", t.drained);
        d.put("application_id", t.applicationId);
        heapDetails(d, t.heap, t.alive, t.outOfMemory);
        d.put("kafka_streams_thread", t.streamThread);
        d.put("failed_by", t.failedBy);
        return new Report.Run(BenchSettings.SEXTANT, "throughput", t.groups, t.partitions, t.failed, null,
                null, null, null, Report.round(t.overallCommitsPerSec, 0), t.threads,
                Report.round(t.countedRequestsPerSec, 1), null,
                Report.round(t.cpuSeconds, 1), Report.round(t.peakRssMb, 0), d);
    }

    private static Report.Run syncRun(BenchSettings cfg, SyncScenario.Outcome o, SyncScenario.SystemOutcome so) {
        if (so.poller == null) {
            return failedSyncRun(cfg, o, so);
        }
        String system = so.system;
        DestinationPoller poller = so.poller;
        Samples lat = poller.caughtUpLatency();
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("caught_up_groups", o.caughtUpGroups);
        d.put("lagging_groups", o.laggingGroups);
        d.put("lag_partitions", cfg.lagPartitions());
        d.put("latency_samples", lat.size());
        d.put("unresolved_commits", so.unresolved);
        d.put("lagging_latency_ms", latency(poller.laggingLatency(), poller.laggingCensored()));
        d.put("poll_cycle_ms_mean", Report.round(poller.cycleMillis().mean(), 1));
        d.put("poll_cycle_ms_p99", Report.round(poller.cycleMillis().quantile(0.99), 1));
        d.put("poll_min_period_ms", system.equals(BenchSettings.MM2_DEFAULT) ? 1000 : 100);
        Samples live = poller.liveReplay();
        // a system that wrote nothing in the window has no quantiles: null, which Map.of does not take
        Map<String, Object> writes = new LinkedHashMap<>();
        writes.put("p50", nan(live.quantile(0.5)));
        writes.put("p99", nan(live.quantile(0.99)));
        writes.put("max", nan(live.max()));
        writes.put("writes", live.size());
        d.put("replay_of_every_write_caught_up", writes);
        replayDetails(d, so);
        d.put("settle_s", Report.round(so.settleSeconds, 1));
        d.put("cpu_s_since_process_start", Report.round(so.cpuSecondsTotal, 1));
        d.put("measured_s", Report.round(o.measuredSeconds, 0));
        d.put("window_group_commits", o.windowCommits);
        loadDetails(d, o);
        d.put("mode", o.mode);
        d.put("caught_up_topic", o.topic);
        d.put("load_average_1m_start", o.loadStart);
        d.put("load_average_1m_end", o.loadEnd);
        d.put("benchmark_cpu_busy_percent", Report.round(busyPercent(o), 0));
        if (BenchSettings.isSextant(system)) {
            d.put("sextant_admin_requests_per_sec", Report.round(so.countedRequestsPerSec, 1));
            d.put("stream_threads", cfg.sextantThreads());
            d.put("verification_records_read_per_sec", Report.round(so.verificationReadsPerSec, 1));
            d.put("verification_intervals_proven", Report.round(so.intervalsProven, 0));
            d.put("verification_cpu_s", Report.round(so.verificationCpuSeconds, 2));
            // every group commit the run made: each group's first, the lagging groups' one, the window's
            d.put("verification_records_read_per_group_commit", Report.round(so.verificationReadsPerSec
                    * o.measuredSeconds / Math.max(1, o.groups + o.laggingGroups + o.windowCommits), 1));
            // from the lagging groups' commits to the end of the tail: the burst of bounded writes, their exact
            // rewrites once proven, and how long the oldest new commit waited meanwhile
            d.put("replanned_group_writes", Report.round(so.replans.replannedWrites(), 0));
            d.put("seconds_draining_replans", so.replans.drainSeconds());
            d.put("commits_made_while_replans_drained", so.replans.commitsInDrain());
            d.put("latency_of_commits_made_while_replans_drained_max_ms",
                    Report.round(so.replans.latencyInDrainMs(), 0));
            d.put("oldest_new_commit_age_max_s", Report.round(so.replans.oldestMaxSeconds(), 2));
            writePathDetails(d, so);
        }
        systemDetails(d, o, so);
        Report.Latency steady = latencyMs(lat, poller.caughtUpCensored());
        d.put("initial_sync_latency_ms", latency(poller.initialLatency(), new Samples()));
        boolean replayRead = so.finalStateRead;
        return new Report.Run(system, "sync", o.groups, o.partitions, so.failed, steady, steady,
                Double.isNaN(so.initialSyncSeconds) ? null : Report.round(so.initialSyncSeconds, 1),
                Double.isNaN(so.initialSyncSeconds) ? null : so.initialSyncCensored, null, null,
                Report.round(so.destinationRequestsPerSec, 1),
                replayRead ? new Report.Replay(so.caughtUpReplayMax < 0 ? null : so.caughtUpReplayMax,
                        so.laggingReplayMax < 0 ? null : so.laggingReplayMax) : null,
                Report.round(so.cpuSeconds, 1), Report.round(so.peakRssMb, 0), d);
    }

    /** The window's commit rate and the source's own commit calls; with --bare-writer, the destination's ceiling. */
    private static void loadDetails(Map<String, Object> d, SyncScenario.Outcome o) {
        // the window's commits start 2 s after it opens (records first, so commits have offsets to move)
        double commitSeconds = (o.windowEndMs - o.windowStartMs) / 1000.0 - 2;
        d.put("window_group_commits_per_sec", commitSeconds > 0 ? Report.round(o.windowCommits / commitSeconds, 0)
                : null);
        if (o.commitCallMillis != null && o.commitCallMillis.size() > 0) {
            d.put("source_commit_call_ms", Map.of("p50", Report.round(o.commitCallMillis.quantile(0.5), 0),
                    "p99", Report.round(o.commitCallMillis.quantile(0.99), 0)));
        }
        if (o.bareWriter != null) {
            Map<String, Object> bare = new LinkedHashMap<>();
            bare.put("best_writes_per_sec", Report.round(o.bareWriter.bestWritesPerSec(), 0));
            bare.put("best_in_flight", o.bareWriter.bestInFlight());
            Map<String, Object> steps = new LinkedHashMap<>();
            o.bareWriter.byInFlight().forEach((k, v) -> steps.put(Integer.toString(k), Report.round(v, 0)));
            bare.put("by_in_flight", steps);
            d.put("bare_writer", bare);
        }
    }

    /** Sextant: what the window asked of its write path, whether it kept up, and what idle recommits cost. */
    private static void writePathDetails(Map<String, Object> d, SyncScenario.SystemOutcome so) {
        d.put("window_group_writes_per_sec", Report.round(so.window.writesPerSec(), 0));
        d.put("window_wire_requests_per_write", Report.round(so.window.wireRequestsPerWrite(), 2));
        d.put("window_write_limit_mean", Report.round(so.window.writeLimitMean(), 1));
        d.put("window_pending_age_slope", Report.round(so.window.pendingAgeSlope(), 3));
        d.put("window_pending_age_end_s", Report.round(so.window.pendingAgeEndSeconds(), 2));
        d.put("window_pending_age_max_s", Report.round(so.window.pendingAgeMaxSeconds(), 2));
        if (so.idleRecommits >= 0) {
            d.put("idle_recommits", so.idleRecommits);
            d.put("idle_recommit_destination_writes", Report.round(so.idleWrites, 0));
            d.put("idle_recommits_after_quiet", so.idleAfterQuiet);
        }
    }

    /** Replay at the end, when the final state was read (not for a system that stopped during the run). */
    private static void replayDetails(Map<String, Object> d, SyncScenario.SystemOutcome so) {
        boolean read = so.finalStateRead;
        Map<String, Object> best = new LinkedHashMap<>();
        best.put("caught_up_max", read ? so.caughtUpIdealMax : null);
        best.put("lagging_max", read ? so.laggingIdealMax : null);
        d.put("replay_best_possible", best);
        d.put("replay_above_best_possible_max", !read || so.aboveBestMax == Long.MIN_VALUE ? null : so.aboveBestMax);
        // where MirrorMaker 2 has synced a record above the commit, the syncs (and the records) can prove the exact
        // position: the figure interpolation brings to 0 (-1: no such partition)
        d.put("replay_where_later_sync_caught_up_max", read ? so.caughtUpLaterSyncMax : null);
        d.put("replay_where_later_sync_lagging_max", read ? so.laggingLaterSyncMax : null);
        d.put("partitions_with_later_sync", read ? so.laterSyncPartitions : null);
        d.put("partitions_with_later_sync_replaying_0", read ? so.laterSyncExact : null);
        d.put("partitions_not_showing_last_commit", read ? so.stale : null);
    }

    /**
     * What every sync run states about its system: its heap (Sextant) or interval (MirrorMaker), whether it ran to
     * the end, and when it failed, how and where to read about it.
     */
    private static void systemDetails(Map<String, Object> d, SyncScenario.Outcome o, SyncScenario.SystemOutcome so) {
        if (BenchSettings.isSextant(so.system)) {
            d.put("sextant_heap", o.sextantHeap);
            heapDetails(d, so.heap == null ? SextantChild.Heap.UNKNOWN : so.heap, so.alive, so.outOfMemory);
        } else {
            d.put("interval_s", so.system.equals(BenchSettings.MM2_FAST) ? 1 : 60);
            d.put("alive_at_end", so.alive);
        }
        d.put("failed_by", so.failedBy);
        d.put("failed_at_s", Report.round(so.failedAtSeconds, 0));
        d.put("log", so.logFile == null ? null : so.logFile.toString());
    }

    /** A system that failed before its workload started (or the scale's set-up did): its failure, no figures. */
    private static Report.Run failedSyncRun(BenchSettings cfg, SyncScenario.Outcome o, SyncScenario.SystemOutcome so) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("caught_up_groups", o.caughtUpGroups);
        d.put("lagging_groups", o.laggingGroups);
        d.put("lag_partitions", cfg.lagPartitions());
        d.put("mode", o.mode);
        d.put("caught_up_topic", o.topic);
        d.put("measured_s", null);
        systemDetails(d, o, so);
        return new Report.Run(so.system, "sync", o.groups, o.partitions, so.failed, null, null, null, null, null,
                null, null, null, null, null, d);
    }

    static String threads(int n) {
        return n + " stream thread" + (n == 1 ? "" : "s");
    }

    /** A Sextant run's heap figures (MiB; null when unknown) and whether its JVM lived to the end. */
    static void heapDetails(Map<String, Object> d, SextantChild.Heap heap, boolean alive, boolean outOfMemory) {
        d.put("peak_heap_used_mb", Report.round(heap.peakUsedMb(), 1));
        d.put("peak_heap_after_gc_mb", Report.round(heap.peakAfterGcMb(), 1));
        d.put("peak_heap_after_young_gc_mb", Report.round(heap.peakAfterYoungGcMb(), 1));
        d.put("heap_max_mb", Report.round(heap.maxMb(), 0));
        d.put("alive_at_end", alive);
        d.put("out_of_memory", outOfMemory);
    }

    /** How busy the machine's cores were with the benchmark's processes over an outcome's measured span (%). */
    static double busyPercent(SyncScenario.Outcome o) {
        if (o.measuredSeconds <= 0) {
            return Double.NaN;
        }
        double total = o.otherCpu.values().stream().mapToDouble(Double::doubleValue).sum()
                + o.systems.values().stream().mapToDouble(so -> Double.isNaN(so.cpuSeconds) ? 0 : so.cpuSeconds)
                .sum();
        return 100 * total / (o.measuredSeconds * Runtime.getRuntime().availableProcessors());
    }

    private static Report.Latency latencyMs(Samples resolved, Samples censored) {
        Samples.Censored c = Samples.Censored.of(resolved, censored);
        return new Report.Latency(Report.round(c.p50(), 1), Report.round(c.p99(), 1), Report.round(c.max(), 1),
                c.lowerBounds());
    }

    private static Map<String, Object> latency(Samples resolved, Samples censored) {
        Samples.Censored c = Samples.Censored.of(resolved, censored);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("p50", Report.round(c.p50(), 1));
        m.put("p99", Report.round(c.p99(), 1));
        m.put("max", Report.round(c.max(), 1));
        m.put("lower_bounds", c.lowerBounds());
        m.put("samples", resolved.size());
        m.put("unresolved", censored.size());
        return m;
    }

    private static Object nan(double v) {
        return Report.round(v, 0);
    }

    static Report.Machine machine(double loadStart) {
        String cpu = "?";
        long memMb = -1;
        try {
            cpu = Files.readAllLines(Paths.get("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("?");
            memMb = Files.readAllLines(Paths.get("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal"))
                    .map(l -> Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024).findFirst().orElse(-1L);
        } catch (IOException | RuntimeException e) {
            // not Linux: leave unknown
        }
        return new Report.Machine(Runtime.getRuntime().availableProcessors(), memMb, cpu,
                System.getProperty("java.runtime.version") + " (" + System.getProperty("java.vendor") + ")",
                System.getProperty("os.name") + " " + System.getProperty("os.version"), loadStart,
                ProcStats.loadAverage1m(), "1-minute load averages at start and end; above the core count means "
                + "other work shared the machine");
    }
}
