package dev.sextant.bench;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.sextant.Version;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench/run}: Sextant against MirrorMaker 2's checkpoint connector on real local clusters, the same workload
 * for each, and the results as JSON, Markdown and a PNG chart under {@code bench/results}. Method:
 * {@code bench/README.md}.
 */
@Command(name = "bench/run", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Benchmarks Sextant against MirrorMaker 2's checkpoint connector (sync latency, throughput, "
                + "replay at failover, cost) on two local Kafka clusters mirrored by MirrorMaker 2.")
public final class BenchMain implements Callable<Integer> {

    @Option(names = "--quick", description = "Small and short (under 3 minutes): 100 and 1,000 groups, 15 s window, "
            + "lags up to 10^5, 100,000 commits for throughput, MM2 at 1 s only, side by side, 4 partitions.")
    boolean quick;

    @Option(names = "--mode", paramLabel = "sequential|side-by-side",
            description = "sequential: at each scale each system runs alone against the same workload, one after "
                    + "the other (Sextant, mm2-1s, mm2-default), each on its own caught-up topic; side-by-side: all "
                    + "at once, competing for the machine (default sequential; quick side-by-side).")
    String mode;

    @Option(names = "--groups", split = ",", paramLabel = "N[,N...]",
            description = "Groups per system, one scale each (default 1000,10000; quick 100,1000).")
    List<Integer> groups;

    @Option(names = "--partitions", paramLabel = "P", description = "Partitions of the caught-up groups' topic "
            + "(default 10; quick 4).")
    Integer partitions;

    @Option(names = "--lag-partitions", paramLabel = "P", description = "Partitions of the lagging groups' topic "
            + "(default 1).")
    Integer lagPartitions;

    @Option(names = "--commit-rate", paramLabel = "PER_SEC",
            description = "Group commits per second per system in the window; each covers every partition "
                    + "(default 100).")
    Integer commitRate;

    @Option(names = "--produce-rate", paramLabel = "PER_SEC",
            description = "Records per second on the caught-up topic during the window (default 2000).")
    Integer produceRate;

    @Option(names = "--lagging-share", paramLabel = "0..1",
            description = "Share of each system's groups that lag (default 0.2).")
    Double laggingShare;

    @Option(names = "--lag-min", paramLabel = "RECORDS", description = "Smallest lag (default 1000).")
    Long lagMin;

    @Option(names = "--lag-max", paramLabel = "RECORDS",
            description = "Largest lag (default 1000000; quick 100000). The lagging topic gets 5%% more records.")
    Long lagMax;

    @Option(names = "--lag-produce-rate", paramLabel = "PER_SEC",
            description = "Most records per second while filling the lagging topic (default 50000); the "
                    + "producer also keeps within 8 syncs of MirrorMaker's newest offset sync, so none is coalesced.")
    Integer lagProduceRate;

    @Option(names = "--offset-lag-max", paramLabel = "RECORDS",
            description = "MirrorMaker 2's offset.lag.max: records between offset syncs (default 100, MM2's own).")
    Integer offsetLagMax;

    @Option(names = "--window", paramLabel = "SECONDS",
            description = "How long the caught-up groups commit (default 60; quick 15).")
    Integer window;

    @Option(names = "--tail-max", paramLabel = "SECONDS",
            description = "Longest wait after the window for commits to become visible (default 150; quick 15).")
    Integer tailMax;

    @Option(names = "--systems", split = ",", paramLabel = "S[,S...]",
            description = "Any of mm2-default, mm2-1s, sextant (default all; quick mm2-1s,sextant).")
    List<String> systems;

    @Option(names = "--no-sync", description = "Skip the sync scenario (e.g. to profile throughput alone).")
    boolean noSync;

    @Option(names = "--no-throughput", description = "Skip the throughput scenario.")
    boolean noThroughput;

    @Option(names = "--tp-groups", paramLabel = "N", description = "Groups in the throughput prefill (default 1000).")
    Integer tpGroups;

    @Option(names = "--tp-partitions", paramLabel = "P",
            description = "Partitions each prefill commit covers (default 100).")
    Integer tpPartitions;

    @Option(names = "--tp-commits", paramLabel = "N",
            description = "Offset commits in the prefill (default 1000000; quick 100000); Sextant gets 90 s (quick "
                    + "20 s) to read them.")
    Long tpCommits;

    @Option(names = "--heap", paramLabel = "SIZE",
            description = "-Xmx of the checkpoint-MirrorMaker JVMs (default 512m).")
    String heap;

    @Option(names = "--sextant-heap", paramLabel = "SIZE",
            description = "-Xmx of the sync scenario's Sextant JVMs (default 256m, the heap Sextant is built to fit "
                    + "at 10,000 groups x 10 partitions).")
    String sextantHeap;

    @Option(names = "--tp-heap", paramLabel = "SIZE",
            description = "-Xmx of the throughput scenario's Sextant JVMs (default 512m, as in every throughput "
                    + "figure before the heap target; the backlog of a million commits is buffered too).")
    String tpHeap;

    @Option(names = "--sextant-threads", split = ",", paramLabel = "N[,N...]",
            description = "Sextant's streams.num.stream.threads: the throughput scenario runs one Sextant per count, "
                    + "one after the other; the sync scenario uses the first (default 1,2).")
    List<Integer> sextantThreads;

    @Option(names = "--sextant-config", paramLabel = "KEY=VALUE",
            description = "Extra Sextant setting for every Sextant instance (repeatable), e.g. "
                    + "streams.max.task.idle.ms=-1, to measure its effect.")
    Map<String, String> sextantConfig;

    @Option(names = "--jfr", description = "Profile the throughput Sextant with JFR and summarise where its CPU went.")
    boolean jfr;

    @Option(names = "--results", paramLabel = "DIR", description = "Where results go (default bench/results).")
    Path results = Paths.get("bench", "results");

    @Option(names = "--work", paramLabel = "DIR",
            description = "Logs and state of this run (default bench/work/<date>; not committed).")
    Path work;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        int code = new CommandLine(new BenchMain()).execute(args);
        System.exit(code);
    }

    BenchSettings settings() {
        List<String> sys = chosenSystems();
        String m = chosenMode();
        List<Integer> threads = chosenThreadCounts();
        BenchSettings s = new BenchSettings(
                quick,
                or(groups, ifQuick(List.of(100, 1_000), List.of(1_000, 10_000))),
                or(partitions, ifQuick(4, 10)),
                or(lagPartitions, 1),
                or(commitRate, 100),
                or(produceRate, 2_000),
                or(laggingShare, 0.2),
                or(lagMin, 1_000L),
                or(lagMax, ifQuick(100_000L, 1_000_000L)),
                or(lagProduceRate, 50_000),
                or(offsetLagMax, 100),
                or(window, ifQuick(15, 60)),
                or(tailMax, ifQuick(15, 150)),
                sys,
                !noSync,
                !noThroughput,
                or(tpGroups, 1_000),
                or(tpPartitions, 100),
                or(tpCommits, ifQuick(100_000L, 1_000_000L)),
                ifQuick(20, 90),
                or(heap, "512m"),
                threads.get(0),
                jfr,
                sextantConfig != null ? Map.copyOf(sextantConfig) : Map.of(),
                m,
                or(sextantHeap, "256m"),
                threads,
                or(tpHeap, "512m"));
        boolean badLags = s.lagMin() < 1 || s.lagMax() < s.lagMin();
        boolean badShare = s.laggingShare() < 0 || s.laggingShare() > 1;
        boolean badRates = s.commitRate() < 1 || s.produceRate() < 1;
        if (badLags || badShare || badRates || s.scales().isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "inconsistent settings: " + s);
        }
        return s;
    }

    private List<String> chosenSystems() {
        List<String> sys = systems != null ? systems
                : ifQuick(List.of(BenchSettings.MM2_FAST, BenchSettings.SEXTANT), BenchSettings.ALL_SYSTEMS);
        for (String s : sys) {
            if (!BenchSettings.ALL_SYSTEMS.contains(s)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "unknown system '" + s + "'; use "
                        + BenchSettings.ALL_SYSTEMS);
            }
        }
        return sys;
    }

    private String chosenMode() {
        String m = or(mode, ifQuick(BenchSettings.SIDE_BY_SIDE, BenchSettings.SEQUENTIAL));
        if (!BenchSettings.MODES.contains(m)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "unknown mode '" + m + "'; use "
                    + BenchSettings.MODES);
        }
        return m;
    }

    private List<Integer> chosenThreadCounts() {
        List<Integer> threads = sextantThreads != null ? List.copyOf(sextantThreads) : List.of(1, 2);
        if (threads.isEmpty() || threads.stream().anyMatch(t -> t < 1) || threads.stream().distinct().count()
                < threads.size()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--sextant-threads: distinct counts of 1 "
                    + "or more, e.g. 1,2");
        }
        return threads;
    }

    /** {@code value}, or {@code otherwise} when the option was not given. */
    private static <T> T or(T value, T otherwise) {
        return value != null ? value : otherwise;
    }

    /** The default under {@code --quick}, or the full run's. */
    private <T> T ifQuick(T quickValue, T otherwise) {
        return quick ? quickValue : otherwise;
    }

    @Override
    public Integer call() throws Exception {
        long started = System.nanoTime();
        AtomicBoolean finished = new AtomicBoolean();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (!finished.get()) {
                System.err.println("bench/run: stopped before it finished (signal or exit); stopping everything it "
                        + "started, no results written");
            }
        }, "bench-interrupted"));
        BenchSettings cfg = settings();
        OffsetDateTime now = OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS);
        String stamp = now.format(DateTimeFormatter.ofPattern("yyyy-MM-dd-HHmm")) + (quick ? "-quick" : "");
        Path workDir = (work != null ? work : Paths.get("bench", "work", stamp)).toAbsolutePath();
        Files.createDirectories(workDir);
        double loadStart = ProcStats.loadAverage1m();
        String command = "bench/run" + (spec.commandLine().getParseResult().originalArgs().isEmpty() ? ""
                : " " + String.join(" ", spec.commandLine().getParseResult().originalArgs()));
        Bench.log("Sextant %s benchmark: %s", Version.current(), cfg);
        Bench.log("work directory %s; load average %.2f", workDir, loadStart);

        Map<String, Object> timings = new LinkedHashMap<>();
        List<SyncScenario.Outcome> scales = new ArrayList<>();
        List<ThroughputScenario.Outcome> tp = new ArrayList<>();
        Map<String, Long> lagSpacing = Map.of();
        long t0 = System.nanoTime();
        try (Session session = Session.start(cfg, workDir)) {
            timings.put("clusters", round1(Bench.seconds(System.nanoTime() - t0)));
            Bench.log("clusters and data-mirroring MirrorMaker ready in %.1f s", Bench.seconds(System.nanoTime() - t0));
            if (cfg.sync()) {
                session.fillLagTopic();
                timings.put("fill_lag_topic", round1(session.lagFillSeconds));
                lagSpacing = session.syncSpacing(Session.LAG_TOPIC, cfg.lagPartitions());
                Bench.log("%s filled with %,d records per partition in %.1f s; offset syncs %s", Session.LAG_TOPIC,
                        session.lagTopicEnd, session.lagFillSeconds, lagSpacing);
            }
            for (int n : cfg.sync() ? cfg.scales() : List.<Integer>of()) {
                long ts = System.nanoTime();
                runSyncScale(session, cfg, n, scales, timings);
                timings.put("sync_" + n, round1(Bench.seconds(System.nanoTime() - ts)));
            }
            if (cfg.throughput()) {
                long ts = System.nanoTime();
                runThroughput(session, cfg, tp, timings);
                timings.put("throughput", round1(Bench.seconds(System.nanoTime() - ts)));
            }
            Bench.log("stopping the clusters");
        }
        summariseProfiles(tp, workDir);
        timings.put("total", round1(Bench.seconds(System.nanoTime() - started)));

        Report.Results res = results(cfg, now, command, loadStart, scales, tp, timings, lagSpacing);
        publish(res, cfg, now, stamp, scales, started);
        finished.set(true);
        return 0;
    }

    private static void summariseProfiles(List<ThroughputScenario.Outcome> tp, Path workDir) throws IOException {
        for (ThroughputScenario.Outcome run : tp) {
            if (run.jfr != null && Files.exists(run.jfr)) {
                Path summary = workDir.resolve("throughput-profile.txt");
                JfrSummary.write(run.jfr, summary);
                Bench.log("JFR profile of the throughput run with %d stream thread(s): %s", run.threads, summary);
            }
        }
    }

    /** The results as JSON, Markdown (printed too) and a chart, under {@code --results}, copied to latest.*. */
    private void publish(Report.Results res, BenchSettings cfg, OffsetDateTime now, String stamp,
                         List<SyncScenario.Outcome> scales, long started) throws IOException {
        Path json = results.resolve(stamp + ".json");
        Report.writeJson(res, json);
        String md = Report.markdown(res, cfg.systems());
        Files.writeString(results.resolve(stamp + ".md"), md);
        Path png = results.resolve(stamp + ".png");
        Charts.write(png, "Sextant vs MirrorMaker 2 checkpoints — " + now.toLocalDate() + (quick ? " (--quick)" : "")
                        + (cfg.sequential() ? " — each system alone" : " — systems side by side"),
                cdfs(scales), replayPoints(scales), cfg.offsetLagMax(), cfg.scales());
        for (String ext : List.of("json", "md", "png")) {
            Files.copy(results.resolve(stamp + "." + ext), results.resolve("latest." + ext),
                    StandardCopyOption.REPLACE_EXISTING);
        }
        System.out.println();
        System.out.println(md);
        Bench.log("results: %s (+ .md, .png; copied to latest.*) in %.0f s", json,
                Bench.seconds(System.nanoTime() - started));
    }

    /** The sync scenario at {@code n} groups per system: each system alone, or all side by side. */
    private static void runSyncScale(Session session, BenchSettings cfg, int n, List<SyncScenario.Outcome> scales,
                                     Map<String, Object> timings) throws Exception {
        if (!cfg.sequential()) {
            scales.add(new SyncScenario(session, n, cfg.systems(), "").run());
            return;
        }
        // each system alone on the machine, on its own caught-up topic: nothing it does slows another
        for (String system : cfg.systemsInOrder()) {
            long tsys = System.nanoTime();
            scales.add(new SyncScenario(session, n, List.of(system), "-" + SyncScenario.code(system)).run());
            timings.put("sync_" + n + "_" + system, round1(Bench.seconds(System.nanoTime() - tsys)));
        }
    }

    /** The throughput scenario: one prefill, then one Sextant per stream thread count. */
    private static void runThroughput(Session session, BenchSettings cfg, List<ThroughputScenario.Outcome> tp,
                                      Map<String, Object> timings) throws Exception {
        long ts = System.nanoTime();
        ThroughputScenario scenario = new ThroughputScenario(session);
        scenario.prefill();
        timings.put("throughput_prefill", round1(Bench.seconds(System.nanoTime() - ts)));
        int profiled = primaryThreads(cfg.sextantThreadCounts());
        for (int threads : cfg.sextantThreadCounts()) {
            long tt = System.nanoTime();
            tp.add(scenario.run(threads, cfg.jfr() && threads == profiled));
            timings.put("throughput_" + threads + "_threads", round1(Bench.seconds(System.nanoTime() - tt)));
        }
    }

    private static Double round1(double v) {
        return Report.round(v, 1);
    }

    /** The throughput run the targets use (and --jfr profiles): the 1-thread one, else the first. */
    static int primaryThreads(List<Integer> threadCounts) {
        return threadCounts.contains(1) ? 1 : threadCounts.get(0);
    }

    private static List<Charts.Cdf> cdfs(List<SyncScenario.Outcome> scales) {
        List<Charts.Cdf> out = new ArrayList<>();
        for (SyncScenario.Outcome o : scales) {
            for (SyncScenario.SystemOutcome so : o.systems.values()) {
                out.add(new Charts.Cdf(so.system, o.groups, Samples.Censored.of(so.poller.caughtUpLatency(),
                        so.poller.caughtUpCensored()).sorted()));
            }
        }
        return out;
    }

    private static List<Charts.ReplayPoint> replayPoints(List<SyncScenario.Outcome> scales) {
        List<Charts.ReplayPoint> out = new ArrayList<>();
        for (SyncScenario.Outcome o : scales) {
            for (SyncScenario.SystemOutcome so : o.systems.values()) {
                for (long[] p : so.replayPoints) {
                    out.add(new Charts.ReplayPoint(so.system, o.groups, p[0], p[1]));
                }
            }
        }
        return out;
    }

    Report.Results results(BenchSettings cfg, OffsetDateTime date, String command, double loadStart,
                           List<SyncScenario.Outcome> scales, List<ThroughputScenario.Outcome> tp,
                           Map<String, Object> timings, Map<String, Long> lagSpacing) {
        List<Report.Run> runs = new ArrayList<>();
        List<String> notes = new ArrayList<>();
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
            runs.add(new Report.Run(BenchSettings.SEXTANT, "throughput", t.groups, t.partitions, null, null, null,
                    null, Report.round(t.overallCommitsPerSec, 0), t.threads,
                    Report.round(t.countedRequestsPerSec, 1), null,
                    Report.round(t.cpuSeconds, 1), Report.round(t.peakRssMb, 0), d));
        }
        List<Report.Target> targets = targets(cfg, runs, tp);
        if (!lagSpacing.isEmpty()) {
            notes.add(String.format(Locale.ROOT, "Lagging topic %s: %,d records per partition, offset syncs %s "
                    + "(a gap above offset.lag.max+1 means MirrorMaker coalesced syncs while it was filled; then "
                    + "no translation can be that precise).", Session.LAG_TOPIC,
                    scales.isEmpty() ? -1 : scales.get(0).lagTopicEnd, lagSpacing));
        }
        notes.addAll(notes(cfg, scales, tp));
        Map<String, Object> settings = Report.json().convertValue(cfg, new TypeReference<Map<String, Object>>() { });
        return new Report.Results(date.toString(), command, machine(loadStart), settings, runs, targets, timings,
                notes);
    }

    private static Report.Run syncRun(BenchSettings cfg, SyncScenario.Outcome o, SyncScenario.SystemOutcome so) {
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
        d.put("replay_best_possible", Map.of("caught_up_max", so.caughtUpIdealMax, "lagging_max",
                so.laggingIdealMax));
        d.put("replay_above_best_possible_max", so.aboveBestMax == Long.MIN_VALUE ? null : so.aboveBestMax);
        // where MirrorMaker 2 has synced a record above the commit, the syncs (and the records) can prove the exact
        // position: the figure interpolation brings to 0 (-1: no such partition)
        d.put("replay_where_later_sync_caught_up_max", so.caughtUpLaterSyncMax);
        d.put("replay_where_later_sync_lagging_max", so.laggingLaterSyncMax);
        d.put("partitions_with_later_sync", so.laterSyncPartitions);
        d.put("partitions_with_later_sync_replaying_0", so.laterSyncExact);
        d.put("settle_s", Report.round(so.settleSeconds, 1));
        d.put("partitions_not_showing_last_commit", so.stale);
        d.put("cpu_s_since_process_start", Report.round(so.cpuSecondsTotal, 1));
        d.put("measured_s", Report.round(o.measuredSeconds, 0));
        d.put("window_group_commits", o.windowCommits);
        d.put("mode", o.mode);
        d.put("caught_up_topic", o.topic);
        d.put("load_average_1m_start", o.loadStart);
        d.put("load_average_1m_end", o.loadEnd);
        d.put("benchmark_cpu_busy_percent", Report.round(busyPercent(o), 0));
        if (system.equals(BenchSettings.SEXTANT)) {
            d.put("sextant_admin_requests_per_sec", Report.round(so.countedRequestsPerSec, 1));
            d.put("stream_threads", cfg.sextantThreads());
            d.put("verification_records_read_per_sec", Report.round(so.verificationReadsPerSec, 1));
            d.put("verification_intervals_proven", Report.round(so.intervalsProven, 0));
            d.put("verification_cpu_s", Report.round(so.verificationCpuSeconds, 2));
            heapDetails(d, so.heap == null ? SextantChild.Heap.UNKNOWN : so.heap, so.alive, so.outOfMemory);
        } else {
            d.put("interval_s", system.equals(BenchSettings.MM2_FAST) ? 1 : 60);
            d.put("alive_at_end", so.alive);
        }
        Report.Latency steady = latencyMs(lat, poller.caughtUpCensored());
        d.put("initial_sync_latency_ms", latency(poller.initialLatency(), new Samples()));
        return new Report.Run(system, "sync", o.groups, cfg.partitions(), steady, steady,
                Double.isNaN(so.initialSyncSeconds) ? null : Report.round(so.initialSyncSeconds, 1),
                Double.isNaN(so.initialSyncSeconds) ? null : so.initialSyncCensored, null, null,
                Report.round(so.destinationRequestsPerSec, 1),
                new Report.Replay(so.caughtUpReplayMax < 0 ? null : so.caughtUpReplayMax,
                        so.laggingReplayMax < 0 ? null : so.laggingReplayMax),
                Report.round(so.cpuSeconds, 1), Report.round(so.peakRssMb, 0), d);
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
    private static double busyPercent(SyncScenario.Outcome o) {
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

    static List<Report.Target> targets(BenchSettings cfg, List<Report.Run> runs,
                                       List<ThroughputScenario.Outcome> throughput) {
        List<Report.Target> out = new ArrayList<>();
        // the per-instance targets are about the default deployment, one stream thread; the others are stated
        int primary = throughput.isEmpty() ? 1
                : primaryThreads(throughput.stream().map(t -> t.threads).toList());
        ThroughputScenario.Outcome tp = throughput.stream().filter(t -> t.threads == primary).findFirst()
                .orElse(null);
        out.add(latencyTarget(sextantSyncRun(runs, 1_000)));
        Report.Run at10000 = sextantSyncRun(runs, 10_000);
        latencyTargetAt10000(at10000).ifPresent(out::add);
        initialSyncTarget(at10000).ifPresent(out::add);
        out.add(heapTarget(runs));
        out.add(throughputTarget(tp, throughput));
        out.add(replayTarget(cfg, runs));
        out.add(laterSyncReplayTarget(runs));
        out.add(requestsTarget(tp));
        return out;
    }

    /** Sextant's sync run at {@code groups} groups, or null. */
    private static Report.Run sextantSyncRun(List<Report.Run> runs, int groups) {
        return runs.stream().filter(r -> r.scenario().equals("sync") && r.groups() == groups
                && r.system().equals(BenchSettings.SEXTANT)).findFirst().orElse(null);
    }

    private static Report.Target latencyTarget(Report.Run at1000) {
        if (at1000 == null || at1000.syncLatencyMs().p99() == null) {
            return new Report.Target("steady-state p99 ≤ 1 s at 1,000 groups", "no 1,000-group run", null);
        }
        double p99 = at1000.syncLatencyMs().p99();
        boolean lower = at1000.syncLatencyMs().lowerBounds().contains("p99");
        return new Report.Target("steady-state p99 ≤ 1 s at 1,000 groups",
                "p99 " + (lower ? "≥ " : "") + Report.duration(p99) + " (p50 "
                        + Report.duration(at1000.syncLatencyMs().p50()) + ")", p99 <= 1_000 && !lower);
    }

    private static Optional<Report.Target> latencyTargetAt10000(Report.Run at10000) {
        if (at10000 == null || at10000.steadyLatencyMs() == null || at10000.steadyLatencyMs().p99() == null) {
            return Optional.empty();
        }
        double p99 = at10000.steadyLatencyMs().p99();
        boolean lower = at10000.steadyLatencyMs().lowerBounds().contains("p99");
        return Optional.of(new Report.Target("steady-state p99 ≤ 1 s at 10,000 groups", "p99 " + (lower ? "≥ " : "")
                + Report.duration(p99) + " (p50 " + Report.duration(at10000.steadyLatencyMs().p50()) + ")",
                p99 <= 1_000 && !lower));
    }

    private static Optional<Report.Target> initialSyncTarget(Report.Run at10000) {
        if (at10000 == null || at10000.initialSyncS() == null) {
            return Optional.empty();
        }
        boolean lower = Boolean.TRUE.equals(at10000.initialSyncLowerBound());
        return Optional.of(new Report.Target("initial sync ≤ 30 s for 10,000 groups", String.format(Locale.ROOT,
                "%s%.1f s", lower ? "≥ " : "", at10000.initialSyncS()), at10000.initialSyncS() <= 30 && !lower));
    }

    /** {@code tp}: the primary throughput run, or null; the others in {@code throughput} are stated beside it. */
    private static Report.Target throughputTarget(ThroughputScenario.Outcome tp,
                                                  List<ThroughputScenario.Outcome> throughput) {
        if (tp == null || Double.isNaN(tp.overallCommitsPerSec)) {
            return new Report.Target("≥ 100,000 offset commits/s per instance", "not run", null);
        }
        StringBuilder measured = new StringBuilder(String.format(Locale.ROOT,
                "%,.0f commits/s with %s (%,d of %,d read in %.0f s)", tp.overallCommitsPerSec,
                threads(tp.threads), tp.reached, tp.commits, tp.readSeconds));
        for (ThroughputScenario.Outcome other : throughput) {
            if (other != tp) {
                measured.append(String.format(Locale.ROOT, "; %s: %s", threads(other.threads),
                        Double.isNaN(other.overallCommitsPerSec) ? "n/a"
                                : String.format(Locale.ROOT, "%,.0f commits/s", other.overallCommitsPerSec)));
            }
        }
        return new Report.Target("≥ 100,000 offset commits/s per instance", measured.toString(),
                tp.overallCommitsPerSec >= 100_000);
    }

    private static Report.Target replayTarget(BenchSettings cfg, List<Report.Run> runs) {
        long worst = -1;
        long bestPossible = -1;
        long aboveBest = Long.MIN_VALUE;
        for (Report.Run r : runs) {
            if (r.system().equals(BenchSettings.SEXTANT) && r.replayRecords() != null) {
                worst = Math.max(worst,
                        Math.max(nz(r.replayRecords().caughtUpMax()), nz(r.replayRecords().laggingMax())));
                @SuppressWarnings("unchecked")
                Map<String, Object> ideal = (Map<String, Object>) r.details().get("replay_best_possible");
                bestPossible = Math.max(bestPossible, Math.max(((Number) ideal.get("caught_up_max")).longValue(),
                        ((Number) ideal.get("lagging_max")).longValue()));
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
    private static Report.Target laterSyncReplayTarget(List<Report.Run> runs) {
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

    private static Report.Target requestsTarget(ThroughputScenario.Outcome tp) {
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

    static String threads(int n) {
        return n + " stream thread" + (n == 1 ? "" : "s");
    }

    static final String HEAP_TARGET = "heap ≤ 256 MiB at 10,000 groups × 10 partitions";

    /**
     * The live set of Sextant's 10,000-group sync run: its old generation after GC (or, if the old generation was
     * never collected, the heap after young GCs, an upper bound) at most 256 MiB, and the JVM alive at the end (with
     * -XX:+ExitOnOutOfMemoryError a JVM out of memory exits, so a dead one did not meet it).
     */
    static Report.Target heapTarget(List<Report.Run> runs) {
        Report.Run run = sextantSyncRun(runs, 10_000);
        if (run == null) {
            return new Report.Target(HEAP_TARGET, "no 10,000-group run", null);
        }
        Map<String, Object> d = run.details();
        Double afterGc = number(d.get("peak_heap_after_gc_mb"));
        Double afterYoung = number(d.get("peak_heap_after_young_gc_mb"));
        Double used = number(d.get("peak_heap_used_mb"));
        Double max = number(d.get("heap_max_mb"));
        boolean oom = Boolean.TRUE.equals(d.get("out_of_memory"));
        boolean dead = !Boolean.TRUE.equals(d.get("alive_at_end"));
        StringBuilder m = new StringBuilder();
        if (oom || dead) {
            m.append(oom ? "Sextant ran out of memory and exited; " : "Sextant was no longer running at the end; ");
        }
        m.append(afterGc != null ? String.format(Locale.ROOT, "peak after GC %s MiB", mib(afterGc))
                : String.format(Locale.ROOT, "no old-generation collection ran (heap after young GCs at most %s MiB)",
                        mib(afterYoung)));
        m.append(String.format(Locale.ROOT, ", peak used %s MiB, -Xmx %s MiB (%s caught-up groups × %d partitions "
                        + "+ %s lagging × %s)", mib(used), mib(max), d.get("caught_up_groups"), run.partitions(),
                d.get("lagging_groups"), d.get("lag_partitions")));
        Double live = afterGc != null ? afterGc : afterYoung;
        Boolean met;
        if (oom || dead) {
            met = false;
        } else if (run.partitions() < 10) {
            m.append("; not measured at 10 partitions");
            met = null;
        } else {
            met = live == null ? null : live <= 256;
        }
        return new Report.Target(HEAP_TARGET, m.toString(), met);
    }

    private static Double number(Object v) {
        return v instanceof Number n ? n.doubleValue() : null;
    }

    private static String mib(Double v) {
        return v == null ? "n/a" : String.format(Locale.ROOT, "%,.0f", v);
    }

    private static List<String> notes(BenchSettings cfg, List<SyncScenario.Outcome> scales,
                                      List<ThroughputScenario.Outcome> tp) {
        List<String> notes = new ArrayList<>();
        if (!scales.isEmpty()) {
            notes.add(cfg.sequential()
                    ? "Mode sequential: at each scale each system ran alone on the machine, one after the other ("
                            + String.join(", then ", cfg.systemsInOrder()) + "), against the same workload: its own "
                            + "fresh caught-up topic bench-lat-<N>-<code>, the same group counts, the same lags on "
                            + "bench-lag (filled once), the same commit rate and window. Its CPU seconds and the "
                            + "machine's load are over its own run's measured span."
                    : "Mode side-by-side: at each scale the systems ran at the same time on the same clusters and "
                            + "the same caught-up topic, so they competed for the machine's cores and brokers (a "
                            + "quick look; `--mode sequential` runs each alone).");
        }
        StringBuilder res = new StringBuilder("Polling resolution (mean poll cycle, ms):");
        for (SyncScenario.Outcome o : scales) {
            for (SyncScenario.SystemOutcome so : o.systems.values()) {
                res.append(String.format(Locale.ROOT, " %s@%,d %.0f;", so.system, o.groups,
                        so.poller.cycleMillis().mean()));
            }
        }
        notes.add(res + " a latency sample is stamped when the poll that saw it returned (an upper bound), and "
                + "a poll starts at most every 100 ms (1 s for MM2 default), and at most every 8 poll durations up "
                + "to 5 s.");
        notes.add("Commit time is when Admin.alterConsumerGroupOffsets returned on the source; 'visible' means the "
                + "destination offset's metadata names that source offset or a later one (MM2 copies the "
                + "workload's 'src=' metadata, Sextant writes its own).");
        notes.add("Replay = source offset of the destination's value minus the destination offset (MM2 copies a "
                + "fresh topic 1:1, checked per topic), at the end of the run; 'best possible' is the newest "
                + "offset sync at or below the commit over the full sync history.");
        notes.add("CPU seconds are measured over " + (cfg.sequential() ? "each system's own run" : "the same span for "
                + "every system") + " (from the syncers being ready to the end of the tail); MM2 runs its "
                + "checkpoint connector alone in its own process (its idle MirrorSourceConnector and Connect worker "
                + "included). Sextant's JVM gets " + cfg.sextantJvmOptions() + " (throughput: "
                + cfg.throughputJvmOptions() + "), MirrorMaker's get "
                + cfg.childJvmOptions() + ".");
        notes.add("Heap (Sextant): peak used = the largest MemoryMXBean heap-used sample (every 100 ms, garbage "
                + "included); peak after GC = the largest occupancy of G1's old generation after a collection of "
                + "it (MemoryPoolMXBean collection usage: the live set, exact after a full collection, with the "
                + "garbage of the regions a mixed collection left alone after a mixed one; G1 updates it only "
                + "after a mixed or full collection, so a run that never needed one has none and reports the heap "
                + "after young GCs, an upper bound); heap max = -Xmx.");
        notes.add("Admin requests/s are Kafka's own client metric request-total of the Admin clients talking to "
                + "the destination, over the same span (Sextant: its destination client, including its "
                + "destination-view refresh; MM2: the checkpoint connector's and task's target admins).");
        for (SyncScenario.Outcome o : scales) {
            String who = String.format(Locale.ROOT, "%,d groups", o.groups)
                    + (cfg.sequential() ? ", " + String.join(", ", o.systems.keySet()) + " alone" : "");
            notes.add(String.format(Locale.ROOT, "%s: mirror checks %s; offset syncs %s; phases (s) %s", who,
                    o.checks, o.syncSpacing, o.phases.entrySet().stream()
                            .map(e -> e.getKey() + "=" + Report.round(e.getValue(), 1)).toList()));
            StringBuilder cpu = new StringBuilder(String.format(Locale.ROOT,
                    "%s: the machine's %d cores were %.0f%% busy with the benchmark's processes over the "
                            + "%.0f s measured, load average %.2f at its start and %.2f at its end (CPU s:", who,
                    Runtime.getRuntime().availableProcessors(), busyPercent(o), o.measuredSeconds, o.loadStart,
                    o.loadEnd));
            o.otherCpu.forEach((name, sec) -> cpu.append(String.format(Locale.ROOT, " %s %.0f;", name, sec)));
            o.systems.values().forEach(
                    so -> cpu.append(String.format(Locale.ROOT, " %s %.0f;", so.system, so.cpuSeconds)));
            notes.add(cpu.append(")").toString());
        }
        if (tp.size() > 1) {
            notes.add("Throughput: __consumer_offsets was pre-filled once; then one Sextant per stream-thread count "
                    + "ran alone, one after the other (" + String.join(", then ", tp.stream()
                    .map(t -> threads(t.threads)).toList()) + "), each with its own application.id (so each read "
                    + "every commit from the start) and the destination's groups deleted before it (an instance "
                    + "never overwrites another's offsets).");
        }
        return notes;
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
