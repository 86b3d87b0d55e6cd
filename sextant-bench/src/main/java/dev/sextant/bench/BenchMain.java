package dev.sextant.bench;

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
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code bench/run}: Sextant against MirrorMaker 2's checkpoint connector on real local clusters, the same workload
 * for each, and the results as JSON, Markdown and a PNG chart under {@code bench/results}. Method:
 * {@code bench/README.md}.
 */
@Command(name = "bench/run", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Benchmarks Sextant against MirrorMaker 2's checkpoint connector (sync latency, throughput, "
                + "replay at failover, cost) on two local Kafka clusters mirrored by MirrorMaker 2.")
public final class BenchMain implements Callable<Integer> {

    @Mixin
    BenchOptions options;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        int code = new CommandLine(new BenchMain()).execute(args);
        System.exit(code);
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
        BenchSettings cfg = options.settings();
        OffsetDateTime now = OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS);
        String stamp = stamp(now, cfg);
        Path workDir = (options.work != null ? options.work : Paths.get("bench", "work", stamp)).toAbsolutePath();
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

        Report.Results res = BenchResults.of(cfg, now, command, loadStart, scales, tp, timings, lagSpacing, stops);
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

    /** {@code <date>[-quick][-NAME]}: the results' and work folder's name. */
    private String stamp(OffsetDateTime now, BenchSettings cfg) {
        return now.format(DateTimeFormatter.ofPattern("yyyy-MM-dd-HHmm")) + (cfg.quick() ? "-quick" : "")
                + (options.name == null ? "" : "-" + options.name);
    }

    /**
     * The results as JSON, Markdown (printed too) and a chart, under {@code --results}, copied to latest.* (with
     * {@code --name}, latest-NAME.*).
     */
    private void publish(Report.Results res, BenchSettings cfg, OffsetDateTime now, String stamp,
                         List<SyncScenario.Outcome> scales, long started) throws IOException {
        Path results = options.results;
        Path json = results.resolve(stamp + ".json");
        Report.writeJson(res, json);
        String md = Report.markdown(res, cfg::systemsInOrderAt);
        Files.writeString(results.resolve(stamp + ".md"), md);
        Path png = results.resolve(stamp + ".png");
        Charts.write(png, "Sextant vs MirrorMaker 2 checkpoints — " + now.toLocalDate()
                        + (cfg.quick() ? " (--quick)" : "")
                        + (cfg.sequential() ? " — each system alone" : " — systems side by side"),
                cdfs(scales), replayPoints(scales), cfg.offsetLagMax(), cfg.scales(), failures(scales));
        String latest = options.name == null ? "latest" : "latest-" + options.name;
        for (String ext : List.of("json", "md", "png")) {
            Files.copy(results.resolve(stamp + "." + ext), results.resolve(latest + "." + ext),
                    StandardCopyOption.REPLACE_EXISTING);
        }
        updateDocs(results, cfg);
        System.out.println();
        System.out.println(md);
        Bench.log("results: %s (+ .md, .png; copied to %s.*) in %.0f s", json, latest,
                Bench.seconds(System.nanoTime() - started));
    }

    /**
     * After a full run into this repository's {@code bench/results}, the figures the README and {@code docs/} quote
     * from {@code latest.json} ({@link DocFigures}); a quick run, or results elsewhere, leave them alone.
     */
    private static void updateDocs(Path results, BenchSettings cfg) throws IOException {
        Path repo = results.toAbsolutePath().normalize().getParent();
        repo = repo == null ? null : repo.getParent();
        if (cfg.quick() || repo == null || !results.toAbsolutePath().normalize().endsWith(Path.of("bench", "results"))
                || !Files.exists(repo.resolve("README.md"))) {
            return;
        }
        DocFigures figures = new DocFigures(results);
        for (Path doc : DocFigures.documents(repo)) {
            try {
                if (figures.update(doc)) {
                    Bench.log("figures updated from latest.json: %s", doc);
                }
            } catch (IllegalArgumentException e) {
                Bench.log("figures of %s not updated: %s", doc, e.getMessage());
            }
        }
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
                Bench.log("throughput with %s: %s", BenchResults.threads(threads), e);
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
}
