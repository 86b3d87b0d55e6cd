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
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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

    @Option(names = "--groups", split = ",", paramLabel = "N[xP][,N[xP]...]",
            description = "Groups per system, one scale each; NxP gives that scale's caught-up topic P partitions "
                    + "instead of --partitions (default 1000,10000,100000x2; quick 100,1000).")
    List<String> groups;

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
            description = "-Xmx of the sync scenario's Sextant JVMs up to 10,000 groups (default 256m, the heap "
                    + "Sextant is built to fit at 10,000 groups x 10 partitions).")
    String sextantHeap;

    @Option(names = "--large-sextant-heap", paramLabel = "SIZE",
            description = "-Xmx of the sync scenario's Sextant JVMs above 10,000 groups (default 512m, the heap "
                    + "Sextant is built to fit at 100,000 groups x 2 partitions).")
    String largeSextantHeap;

    @Option(names = "--broker-heap", paramLabel = "SIZE",
            description = "-Xmx of each of the two brokers (default 1g: at 256m, the testkit's default, the "
                    + "destination broker ran out of heap holding the full run's 133,000 groups).")
    String brokerHeap;

    @Option(names = "--large-systems", split = ",", paramLabel = "S[,S...]",
            description = "The systems that run above 10,000 groups, of those --systems names (default sextant,"
                    + "mm2-1s: MM2 at its 60 s default would only add a very long run there).")
    List<String> largeSystems;

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
        int defaultPartitions = or(partitions, ifQuick(4, 10));
        Map<Integer, Integer> scales = chosenScales(defaultPartitions);
        BenchSettings s = new BenchSettings(
                quick,
                List.copyOf(scales.keySet()),
                defaultPartitions,
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
                or(tpHeap, "512m"),
                Collections.unmodifiableMap(scales),
                or(largeSextantHeap, "512m"),
                chosen("--large-systems", or(largeSystems, List.of(BenchSettings.SEXTANT, BenchSettings.MM2_FAST))),
                or(brokerHeap, "1g"));
        boolean badLags = s.lagMin() < 1 || s.lagMax() < s.lagMin();
        boolean badShare = s.laggingShare() < 0 || s.laggingShare() > 1;
        boolean badRates = s.commitRate() < 1 || s.produceRate() < 1;
        if (badLags || badShare || badRates || s.scales().isEmpty() || s.partitions() < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "inconsistent settings: " + s);
        }
        return s;
    }

    /** {@code --groups} as groups -> partitions of the caught-up topic, in the order given. */
    private Map<Integer, Integer> chosenScales(int defaultPartitions) {
        List<String> given = or(groups, ifQuick(List.of("100", "1000"), List.of("1000", "10000", "100000x2")));
        try {
            return BenchSettings.Scale.resolve(given.stream().map(BenchSettings.Scale::parse).toList(),
                    defaultPartitions);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--groups: " + e.getMessage());
        }
    }

    private List<String> chosenSystems() {
        return chosen("--systems", systems != null ? systems
                : ifQuick(List.of(BenchSettings.MM2_FAST, BenchSettings.SEXTANT), BenchSettings.ALL_SYSTEMS));
    }

    /** {@code sys}, every one a known system. */
    private List<String> chosen(String option, List<String> sys) {
        for (String s : sys) {
            if (!BenchSettings.ALL_SYSTEMS.contains(s)) {
                throw new CommandLine.ParameterException(spec.commandLine(), option + ": unknown system '" + s
                        + "'; use " + BenchSettings.ALL_SYSTEMS);
            }
        }
        return List.copyOf(sys);
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
        List<String> stops = new ArrayList<>();
        long t0 = System.nanoTime();
        try (Session session = Session.start(cfg, workDir)) {
            timings.put("clusters", round1(Bench.seconds(System.nanoTime() - t0)));
            Bench.log("clusters and data-mirroring MirrorMaker ready in %.1f s", Bench.seconds(System.nanoTime() - t0));
            try {
                if (cfg.sync()) {
                    session.fillLagTopic();
                    timings.put("fill_lag_topic", round1(session.lagFillSeconds));
                    lagSpacing = session.syncSpacing(Session.LAG_TOPIC, cfg.lagPartitions());
                    Bench.log("%s filled with %,d records per partition in %.1f s; offset syncs %s",
                            Session.LAG_TOPIC, session.lagTopicEnd, session.lagFillSeconds, lagSpacing);
                }
                for (int n : cfg.sync() ? cfg.scales() : List.<Integer>of()) {
                    long ts = System.nanoTime();
                    runSyncScale(session, cfg, n, scales, timings);
                    timings.put("sync_" + n, round1(Bench.seconds(System.nanoTime() - ts)));
                }
            } catch (RuntimeException e) { // the sync scenario as a whole (its shared set-up): throughput may still run
                stops.add("The sync scenario stopped early: " + FailureText.describe(e) + " (figures of the scales "
                        + "that ran are kept).");
                Bench.log("the sync scenario stopped early: %s", e);
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

        Report.Results res = results(cfg, now, command, loadStart, scales, tp, timings, lagSpacing, stops);
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
        String md = Report.markdown(res, cfg::systemsInOrderAt);
        Files.writeString(results.resolve(stamp + ".md"), md);
        Path png = results.resolve(stamp + ".png");
        Charts.write(png, "Sextant vs MirrorMaker 2 checkpoints — " + now.toLocalDate() + (quick ? " (--quick)" : "")
                        + (cfg.sequential() ? " — each system alone" : " — systems side by side"),
                cdfs(scales), replayPoints(scales), cfg.offsetLagMax(), cfg.scales(), failures(scales));
        for (String ext : List.of("json", "md", "png")) {
            Files.copy(results.resolve(stamp + "." + ext), results.resolve("latest." + ext),
                    StandardCopyOption.REPLACE_EXISTING);
        }
        System.out.println();
        System.out.println(md);
        Bench.log("results: %s (+ .md, .png; copied to latest.*) in %.0f s", json,
                Bench.seconds(System.nanoTime() - started));
    }

    /**
     * The sync scenario at {@code n} groups per system: each system alone, or all side by side; above 10,000 groups
     * only the systems of {@code --large-systems}. A system that fails is recorded as failed in its outcome
     * ({@link SyncScenario#run()} does not throw), and the next one runs.
     */
    private static void runSyncScale(Session session, BenchSettings cfg, int n, List<SyncScenario.Outcome> scales,
                                     Map<String, Object> timings) {
        List<String> systems = cfg.systemsInOrderAt(n);
        if (!cfg.systemsLeftOutAt(n).isEmpty()) {
            Bench.log("scale %d: %s not run above %,d groups (--large-systems)", n,
                    String.join(", ", cfg.systemsLeftOutAt(n)), BenchSettings.LARGE_SCALE);
        }
        if (systems.isEmpty()) {
            return;
        }
        if (!cfg.sequential()) {
            scales.add(new SyncScenario(session, n, systems, "").run());
            return;
        }
        // each system alone on the machine, on its own caught-up topic: nothing it does slows another
        for (String system : systems) {
            long tsys = System.nanoTime();
            scales.add(new SyncScenario(session, n, List.of(system), "-" + SyncScenario.code(system)).run());
            timings.put("sync_" + n + "_" + system, round1(Bench.seconds(System.nanoTime() - tsys)));
        }
    }

    /**
     * The throughput scenario: one prefill, then one Sextant per stream thread count. A run that fails (or a prefill
     * that does) is recorded as failed, and the next count runs.
     */
    private static void runThroughput(Session session, BenchSettings cfg, List<ThroughputScenario.Outcome> tp,
                                      Map<String, Object> timings) {
        long ts = System.nanoTime();
        ThroughputScenario scenario = new ThroughputScenario(session);
        try {
            scenario.prefill();
        } catch (Exception e) {
            String reason = "the harness failed while pre-filling: " + FailureText.describe(e);
            Bench.log("throughput: %s", e);
            for (int threads : cfg.sextantThreadCounts()) {
                tp.add(failedThroughput(scenario.outcome(threads), reason, e));
            }
            return;
        }
        timings.put("throughput_prefill", round1(Bench.seconds(System.nanoTime() - ts)));
        int profiled = primaryThreads(cfg.sextantThreadCounts());
        for (int threads : cfg.sextantThreadCounts()) {
            long tt = System.nanoTime();
            try {
                tp.add(scenario.run(threads, cfg.jfr() && threads == profiled));
            } catch (Exception e) {
                Bench.log("throughput with %s: %s", threads(threads), e);
                tp.add(failedThroughput(scenario.outcome(threads), "the harness failed during the run: "
                        + FailureText.describe(e), e));
            }
            timings.put("throughput_" + threads + "_threads", round1(Bench.seconds(System.nanoTime() - tt)));
        }
    }

    private static ThroughputScenario.Outcome failedThroughput(ThroughputScenario.Outcome out, String reason,
                                                               Exception e) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        out.failed = reason;
        out.failedBy = SyncScenario.BY_HARNESS;
        return out;
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
                if (so.poller != null) { // a system that failed before its workload has no latency
                    out.add(new Charts.Cdf(so.system, o.groups, Samples.Censored.of(so.poller.caughtUpLatency(),
                            so.poller.caughtUpCensored()).sorted(), so.failed != null));
                }
            }
        }
        return out;
    }

    /** The sync runs that failed, for the chart: "system, N groups (reason)". */
    private static List<String> failures(List<SyncScenario.Outcome> scales) {
        List<String> out = new ArrayList<>();
        for (SyncScenario.Outcome o : scales) {
            for (SyncScenario.SystemOutcome so : o.systems.values()) {
                if (so.failed != null) {
                    out.add(String.format(Locale.ROOT, "%s, %,d groups (%s)", so.system, o.groups, so.failed));
                }
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

    /** @param stops what stopped a scenario early (a note each, first) */
    Report.Results results(BenchSettings cfg, OffsetDateTime date, String command, double loadStart,
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
            runs.add(new Report.Run(BenchSettings.SEXTANT, "throughput", t.groups, t.partitions, t.failed, null,
                    null, null, null, Report.round(t.overallCommitsPerSec, 0), t.threads,
                    Report.round(t.countedRequestsPerSec, 1), null,
                    Report.round(t.cpuSeconds, 1), Report.round(t.peakRssMb, 0), d));
        }
        List<Report.Target> targets = Targets.of(cfg, runs, tp);
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
        if (so.system.equals(BenchSettings.SEXTANT)) {
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
    private static double busyPercent(SyncScenario.Outcome o) {
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
        if (!scales.isEmpty()) {
            notes.add(scalesNote(cfg));
        }
        notes.addAll(failureNotes(scales, tp));
        notes.add(resolutionNote(scales) + " a latency sample is stamped when the poll that saw it returned (an "
                + "upper bound), and a poll starts at most every 100 ms (1 s for MM2 default), and at most every 8 "
                + "poll durations up to 5 s.");
        notes.add("Commit time is when Admin.alterConsumerGroupOffsets returned on the source; 'visible' means the "
                + "destination offset's metadata names that source offset or a later one (MM2 copies the "
                + "workload's 'src=' metadata, Sextant writes its own).");
        notes.add("Replay = source offset of the destination's value minus the destination offset (MM2 copies a "
                + "fresh topic 1:1, checked per topic), at the end of the run; 'best possible' is the newest "
                + "offset sync at or below the commit over the full sync history.");
        notes.add("CPU seconds are measured over " + (cfg.sequential() ? "each system's own run" : "the same span for "
                + "every system") + " (from the syncers being ready to the end of the tail); MM2 runs its "
                + "checkpoint connector alone in its own process (its idle MirrorSourceConnector and Connect worker "
                + "included). Sextant's JVM gets " + cfg.sextantJvmOptions() + (cfg.scales().stream()
                .anyMatch(BenchSettings::large) ? " (above " + String.format(Locale.ROOT, "%,d",
                BenchSettings.LARGE_SCALE) + " groups -Xmx" + cfg.largeSextantHeap() + ")" : "") + " (throughput: "
                + cfg.throughputJvmOptions() + "), MirrorMaker's get "
                + cfg.childJvmOptions() + "; each broker -Xmx" + cfg.brokerHeap() + ".");
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
            if (o.measuredSeconds > 0) { // else every system of it failed before its workload: nothing measured
                notes.addAll(scaleNotes(cfg, o));
            }
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

    /** One note per failed run: what failed, whose failure it was, what the harness did. */
    private static List<String> failureNotes(List<SyncScenario.Outcome> scales, List<ThroughputScenario.Outcome> tp) {
        List<String> notes = new ArrayList<>();
        for (SyncScenario.Outcome o : scales) {
            for (SyncScenario.SystemOutcome so : o.systems.values()) {
                if (so.failed != null) {
                    notes.add(String.format(Locale.ROOT, "%,d groups, %s failed (%s): %s%s; the harness stopped it, "
                            + "kept what it had measured until then (lower bounds where marked, replay not read if "
                            + "it stopped during the run) and went on with the next system and scale.", o.groups,
                            so.system, whose(so.failedBy), so.failed,
                            so.logFile == null ? "" : " (see " + so.logFile + ")"));
                }
            }
        }
        for (ThroughputScenario.Outcome t : tp) {
            if (t.failed != null) {
                notes.add(String.format(Locale.ROOT, "Throughput with %s failed (%s): %s.", threads(t.threads),
                        whose(t.failedBy), t.failed));
            }
        }
        return notes;
    }

    private static String whose(String failedBy) {
        return SyncScenario.BY_SYSTEM.equals(failedBy) ? "the system's own failure"
                : "a failure of the harness or the clusters";
    }

    private static String resolutionNote(List<SyncScenario.Outcome> scales) {
        StringBuilder res = new StringBuilder("Polling resolution (mean poll cycle, ms):");
        for (SyncScenario.Outcome o : scales) {
            for (SyncScenario.SystemOutcome so : o.systems.values()) {
                if (so.poller != null) {
                    res.append(String.format(Locale.ROOT, " %s@%,d %.0f;", so.system, o.groups,
                            so.poller.cycleMillis().mean()));
                }
            }
        }
        return res.toString();
    }

    /** A scale's (sequential: a system's run's) checks, phases, and how busy the machine was. */
    private static List<String> scaleNotes(BenchSettings cfg, SyncScenario.Outcome o) {
        String who = String.format(Locale.ROOT, "%,d groups", o.groups)
                + (cfg.sequential() ? ", " + String.join(", ", o.systems.keySet()) + " alone" : "");
        String phases = String.format(Locale.ROOT, "%s: mirror checks %s; offset syncs %s; phases (s) %s", who,
                o.checks, o.syncSpacing, o.phases.entrySet().stream()
                        .map(e -> e.getKey() + "=" + Report.round(e.getValue(), 1)).toList());
        StringBuilder cpu = new StringBuilder(String.format(Locale.ROOT,
                "%s: the machine's %d cores were %.0f%% busy with the benchmark's processes over the "
                        + "%.0f s measured, load average %.2f at its start and %.2f at its end (CPU s:", who,
                Runtime.getRuntime().availableProcessors(), busyPercent(o), o.measuredSeconds, o.loadStart,
                o.loadEnd));
        o.otherCpu.forEach((name, sec) -> cpu.append(String.format(Locale.ROOT, " %s %.0f;", name, sec)));
        o.systems.values().stream().filter(so -> !Double.isNaN(so.cpuSeconds)).forEach(
                so -> cpu.append(String.format(Locale.ROOT, " %s %.0f;", so.system, so.cpuSeconds)));
        return List.of(phases, cpu.append(")").toString());
    }

    /**
     * The scales as run: partitions of the caught-up topic, Sextant's heap, and the systems left out of the large
     * ones (and why).
     */
    static String scalesNote(BenchSettings cfg) {
        List<String> each = new ArrayList<>();
        for (int n : cfg.scales()) {
            int nLag = (int) Math.round(n * cfg.laggingShare());
            each.add(String.format(Locale.ROOT, "%,d groups (%,d caught up × %d partitions + %,d lagging × %d; "
                    + "Sextant -Xmx%s; %s)", n, n - nLag, cfg.partitionsAt(n), nLag, cfg.lagPartitions(),
                    cfg.sextantHeap(n), String.join(", ", cfg.systemsInOrderAt(n))));
        }
        String note = "Scales: " + String.join("; ", each) + ".";
        List<String> leftOut = cfg.scales().stream().filter(n -> !cfg.systemsLeftOutAt(n).isEmpty())
                .map(n -> String.format(Locale.ROOT, "%,d", n)).toList();
        if (!leftOut.isEmpty()) {
            List<String> who = cfg.systemsLeftOutAt(cfg.scales().stream().filter(BenchSettings::large).findFirst()
                    .orElseThrow());
            note += " At " + String.join(" and ", leftOut) + " groups " + String.join(" and ", who) + " did not run "
                    + "(`--large-systems`)" + (who.contains(BenchSettings.MM2_DEFAULT) ? ": MirrorMaker 2 at its 60 s "
                    + "default would only add a very long run with no new information (its latency follows from its "
                    + "intervals)." : ".");
        }
        return note;
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
