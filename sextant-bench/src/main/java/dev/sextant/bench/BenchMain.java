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
import java.util.concurrent.Callable;
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
            + "lags up to 10^5, 100,000 commits for throughput, MM2 at 1 s only.")
    boolean quick;

    @Option(names = "--groups", split = ",", paramLabel = "N[,N...]",
            description = "Groups per system, one scale each (default 1000,10000; quick 100,1000).")
    List<Integer> groups;

    @Option(names = "--partitions", paramLabel = "P", description = "Partitions of the caught-up groups' topic "
            + "(default 4).")
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
            description = "-Xmx of the Sextant and checkpoint-MirrorMaker JVMs (default 512m).")
    String heap;

    @Option(names = "--sextant-threads", paramLabel = "N",
            description = "Sextant's streams.num.stream.threads (default 1, Kafka Streams' default).")
    Integer sextantThreads;

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
        List<String> sys = systems != null ? systems
                : quick ? List.of(BenchSettings.MM2_FAST, BenchSettings.SEXTANT) : BenchSettings.ALL_SYSTEMS;
        for (String s : sys) {
            if (!BenchSettings.ALL_SYSTEMS.contains(s)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "unknown system '" + s + "'; use "
                        + BenchSettings.ALL_SYSTEMS);
            }
        }
        BenchSettings s = new BenchSettings(
                quick,
                groups != null ? groups : quick ? List.of(100, 1_000) : List.of(1_000, 10_000),
                or(partitions, 4),
                or(lagPartitions, 1),
                or(commitRate, 100),
                or(produceRate, 2_000),
                laggingShare != null ? laggingShare : 0.2,
                lagMin != null ? lagMin : 1_000,
                lagMax != null ? lagMax : quick ? 100_000 : 1_000_000,
                or(lagProduceRate, 50_000),
                or(offsetLagMax, 100),
                or(window, quick ? 15 : 60),
                or(tailMax, quick ? 15 : 150),
                sys,
                !noSync,
                !noThroughput,
                or(tpGroups, 1_000),
                or(tpPartitions, 100),
                tpCommits != null ? tpCommits : quick ? 100_000 : 1_000_000,
                quick ? 20 : 90,
                heap != null ? heap : "512m",
                or(sextantThreads, 1),
                jfr,
                sextantConfig != null ? Map.copyOf(sextantConfig) : Map.of());
        if (s.lagMin() < 1 || s.lagMax() < s.lagMin() || s.laggingShare() < 0 || s.laggingShare() > 1
                || s.commitRate() < 1 || s.produceRate() < 1 || s.scales().isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "inconsistent settings: " + s);
        }
        return s;
    }

    private static int or(Integer value, int otherwise) {
        return value != null ? value : otherwise;
    }

    @Override
    public Integer call() throws Exception {
        long started = System.nanoTime();
        java.util.concurrent.atomic.AtomicBoolean finished = new java.util.concurrent.atomic.AtomicBoolean();
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
        ThroughputScenario.Outcome tp = null;
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
                scales.add(new SyncScenario(session, n).run());
                timings.put("sync_" + n, round1(Bench.seconds(System.nanoTime() - ts)));
            }
            if (cfg.throughput()) {
                long ts = System.nanoTime();
                tp = new ThroughputScenario(session).run();
                timings.put("throughput", round1(Bench.seconds(System.nanoTime() - ts)));
            }
            Bench.log("stopping the clusters");
        }
        if (tp != null && tp.jfr != null && Files.exists(tp.jfr)) {
            Path summary = workDir.resolve("throughput-profile.txt");
            JfrSummary.write(tp.jfr, summary);
            Bench.log("JFR profile of the throughput run: %s", summary);
        }
        timings.put("total", round1(Bench.seconds(System.nanoTime() - started)));

        Report.Results res = results(cfg, now, command, loadStart, scales, tp, timings, lagSpacing);
        Path json = results.resolve(stamp + ".json");
        Report.writeJson(res, json);
        String md = Report.markdown(res, cfg.systems());
        Files.writeString(results.resolve(stamp + ".md"), md);
        Path png = results.resolve(stamp + ".png");
        Charts.write(png, "Sextant vs MirrorMaker 2 checkpoints — " + now.toLocalDate() + (quick ? " (--quick)" : ""),
                cdfs(scales), replayPoints(scales), cfg.offsetLagMax(), cfg.scales());
        for (String ext : List.of("json", "md", "png")) {
            Files.copy(results.resolve(stamp + "." + ext), results.resolve("latest." + ext),
                    StandardCopyOption.REPLACE_EXISTING);
        }
        System.out.println();
        System.out.println(md);
        Bench.log("results: %s (+ .md, .png; copied to latest.*) in %.0f s", json,
                Bench.seconds(System.nanoTime() - started));
        finished.set(true);
        return 0;
    }

    private static Double round1(double v) {
        return Report.round(v, 1);
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
                           List<SyncScenario.Outcome> scales, ThroughputScenario.Outcome tp,
                           Map<String, Object> timings, Map<String, Long> lagSpacing) {
        List<Report.Run> runs = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (SyncScenario.Outcome o : scales) {
            for (String system : BenchSettings.ALL_SYSTEMS) {
                SyncScenario.SystemOutcome so = o.systems.get(system);
                if (so == null) {
                    continue;
                }
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
                d.put("replay_of_every_write_caught_up", Map.of("p50", nan(live.quantile(0.5)), "p99",
                        nan(live.quantile(0.99)), "max", nan(live.max()), "writes", live.size()));
                d.put("replay_best_possible", Map.of("caught_up_max", so.caughtUpIdealMax, "lagging_max",
                        so.laggingIdealMax));
                d.put("replay_above_best_possible_max", so.aboveBestMax == Long.MIN_VALUE ? null : so.aboveBestMax);
                d.put("partitions_not_showing_last_commit", so.stale);
                d.put("cpu_s_since_process_start", Report.round(so.cpuSecondsTotal, 1));
                d.put("measured_s", Report.round(o.measuredSeconds, 0));
                d.put("window_group_commits", o.windowCommits);
                if (system.equals(BenchSettings.SEXTANT)) {
                    d.put("sextant_admin_requests_per_sec", Report.round(so.countedRequestsPerSec, 1));
                } else {
                    d.put("interval_s", system.equals(BenchSettings.MM2_FAST) ? 1 : 60);
                }
                Report.Latency steady = latencyMs(lat, poller.caughtUpCensored());
                d.put("initial_sync_latency_ms", latency(poller.initialLatency(), new Samples()));
                runs.add(new Report.Run(system, "sync", o.groups, cfg.partitions(), steady, steady,
                        Double.isNaN(so.initialSyncSeconds) ? null : Report.round(so.initialSyncSeconds, 1),
                        Double.isNaN(so.initialSyncSeconds) ? null : so.initialSyncCensored, null, null,
                        Report.round(so.destinationRequestsPerSec, 1),
                        new Report.Replay(so.caughtUpReplayMax < 0 ? null : so.caughtUpReplayMax,
                                so.laggingReplayMax < 0 ? null : so.laggingReplayMax),
                        Report.round(so.cpuSeconds, 1), Report.round(so.peakRssMb, 0), d));
            }
            o.checks.forEach((topic, check) -> {
                if (!String.valueOf(check).startsWith("1:1")) {
                    notes.add("Mirror check failed for " + topic + ": " + check);
                }
            });
        }
        if (tp != null) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("commits", tp.commits);
            d.put("rounds", tp.rounds);
            d.put("commits_read", tp.reached);
            d.put("prefill_s", Report.round(tp.prefillSeconds, 1));
            d.put("commits_per_sec_10_to_90_percent", Report.round(tp.commitsPerSec, 0));
            d.put("read_timeout_s", cfg.tpTimeoutSeconds());
            d.put("wire_admin_requests_per_sec", Report.round(tp.wireRequestsPerSec, 1));
            d.put("alter_requests", Report.round(tp.alterRequests, 0));
            d.put("startup_s", Report.round(tp.startupSeconds, 1));
            d.put("read_s", Report.round(tp.readSeconds, 1));
            d.put("drain_s", Report.round(tp.drainSeconds, 1));
            d.put("drained", tp.drained);
            d.put("kafka_streams_thread", tp.streamThread);
            runs.add(new Report.Run(BenchSettings.SEXTANT, "throughput", tp.groups, tp.partitions, null, null, null,
                    null, Report.round(tp.overallCommitsPerSec, 0), cfg.sextantThreads(),
                    Report.round(tp.countedRequestsPerSec, 1), null,
                    Report.round(tp.cpuSeconds, 1), Report.round(tp.peakRssMb, 0), d));
        }
        List<Report.Target> targets = targets(cfg, runs, tp);
        if (!lagSpacing.isEmpty()) {
            notes.add(String.format(Locale.ROOT, "Lagging topic %s: %,d records per partition, offset syncs %s "
                    + "(a gap above offset.lag.max+1 means MirrorMaker coalesced syncs while it was filled; then "
                    + "no translation can be that precise).", Session.LAG_TOPIC,
                    scales.isEmpty() ? -1 : scales.get(0).lagTopicEnd, lagSpacing));
        }
        notes.addAll(notes(cfg, scales, loadStart));
        Map<String, Object> settings = Report.json().convertValue(cfg, new TypeReference<Map<String, Object>>() { });
        return new Report.Results(date.toString(), command, machine(loadStart), settings, runs, targets, timings,
                notes);
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

    static List<Report.Target> targets(BenchSettings cfg, List<Report.Run> runs, ThroughputScenario.Outcome tp) {
        List<Report.Target> out = new ArrayList<>();
        Report.Run at1000 = runs.stream().filter(r -> r.scenario().equals("sync") && r.groups() == 1_000
                && r.system().equals(BenchSettings.SEXTANT)).findFirst().orElse(null);
        if (at1000 == null || at1000.syncLatencyMs().p99() == null) {
            out.add(new Report.Target("steady-state p99 ≤ 1 s at 1,000 groups", "no 1,000-group run", null));
        } else {
            double p99 = at1000.syncLatencyMs().p99();
            boolean lower = at1000.syncLatencyMs().lowerBounds().contains("p99");
            out.add(new Report.Target("steady-state p99 ≤ 1 s at 1,000 groups",
                    "p99 " + (lower ? "≥ " : "") + Report.duration(p99) + " (p50 "
                            + Report.duration(at1000.syncLatencyMs().p50()) + ")", p99 <= 1_000 && !lower));
        }
        Report.Run at10000 = runs.stream().filter(r -> r.scenario().equals("sync") && r.groups() == 10_000
                && r.system().equals(BenchSettings.SEXTANT)).findFirst().orElse(null);
        if (at10000 != null && at10000.steadyLatencyMs() != null && at10000.steadyLatencyMs().p99() != null) {
            double p99 = at10000.steadyLatencyMs().p99();
            boolean lower = at10000.steadyLatencyMs().lowerBounds().contains("p99");
            out.add(new Report.Target("steady-state p99 ≤ 1 s at 10,000 groups", "p99 " + (lower ? "≥ " : "")
                    + Report.duration(p99) + " (p50 " + Report.duration(at10000.steadyLatencyMs().p50()) + ")",
                    p99 <= 1_000 && !lower));
        }
        if (at10000 != null && at10000.initialSyncS() != null) {
            boolean lower = Boolean.TRUE.equals(at10000.initialSyncLowerBound());
            out.add(new Report.Target("initial sync ≤ 30 s for 10,000 groups", String.format(Locale.ROOT,
                    "%s%.1f s", lower ? "≥ " : "", at10000.initialSyncS()), at10000.initialSyncS() <= 30 && !lower));
        }
        if (tp == null || Double.isNaN(tp.overallCommitsPerSec)) {
            out.add(new Report.Target("≥ 100,000 offset commits/s per instance", "not run", null));
        } else {
            out.add(new Report.Target("≥ 100,000 offset commits/s per instance",
                    String.format(Locale.ROOT, "%,.0f commits/s (%,d of %,d read in %.0f s)", tp.overallCommitsPerSec,
                            tp.reached, tp.commits, tp.readSeconds), tp.overallCommitsPerSec >= 100_000));
        }
        long worst = -1;
        long bestPossible = -1;
        long aboveBest = Long.MIN_VALUE;
        for (Report.Run r : runs) {
            if (r.system().equals(BenchSettings.SEXTANT) && r.replayRecords() != null) {
                worst = Math.max(worst, Math.max(nz(r.replayRecords().caughtUpMax()), nz(r.replayRecords().laggingMax())));
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
            out.add(new Report.Target("replay ≤ offset.lag.max for every group at any lag", "not run", null));
        } else {
            out.add(new Report.Target("replay ≤ offset.lag.max (" + cfg.offsetLagMax() + ") for every group at any lag",
                    String.format(Locale.ROOT, "worst partition %,d records; best possible from the syncs MM2 "
                                    + "emitted %,d; Sextant above the best possible by at most %,d", worst, bestPossible,
                            aboveBest == Long.MIN_VALUE ? 0 : aboveBest), worst <= cfg.offsetLagMax()));
        }
        if (tp == null || Double.isNaN(tp.alterRequests)) {
            out.add(new Report.Target("Admin requests scale with groups changed, not commits", "not run", null));
        } else {
            long flushes = (long) Math.ceil(tp.readSeconds / 0.25) + 1;
            long bound = (long) tp.groups * flushes;
            out.add(new Report.Target("Admin requests scale with groups changed, not commits",
                    String.format(Locale.ROOT, "%,.0f alterConsumerGroupOffsets for %,d commits (%,.0f commits per "
                                    + "request; bound groups x flushes = %,d)", tp.alterRequests, tp.commits,
                            tp.commits / Math.max(1, tp.alterRequests), bound),
                    tp.alterRequests <= bound && tp.alterRequests < tp.commits / 10.0));
        }
        return out;
    }

    private static long nz(Long v) {
        return v == null ? -1 : v;
    }

    private static List<String> notes(BenchSettings cfg, List<SyncScenario.Outcome> scales, double loadStart) {
        List<String> notes = new ArrayList<>();
        StringBuilder res = new StringBuilder("Polling resolution (mean poll cycle, ms):");
        for (SyncScenario.Outcome o : scales) {
            for (SyncScenario.SystemOutcome so : o.systems.values()) {
                res.append(String.format(Locale.ROOT, " %s@%,d %.0f;", so.system, o.groups,
                        so.poller.cycleMillis().mean()));
            }
        }
        notes.add(res + " a latency sample is stamped when the poll that saw it returned (an upper bound), and "
                + "a poll starts at most every 100 ms (1 s for MM2 default), and at most every 8 poll durations up to 5 s.");
        notes.add("Commit time is when Admin.alterConsumerGroupOffsets returned on the source; 'visible' means the "
                + "destination offset's metadata names that source offset or a later one (MM2 copies the "
                + "workload's 'src=' metadata, Sextant writes its own).");
        notes.add("Replay = source offset of the destination's value minus the destination offset (MM2 copies a "
                + "fresh topic 1:1, checked per topic), at the end of the run; 'best possible' is the newest "
                + "offset sync at or below the commit over the full sync history.");
        notes.add("CPU seconds are measured over the same span for every system (from before the lagging topic "
                + "is filled to the end of the tail); MM2 runs its checkpoint connector alone in its own process "
                + "(its idle MirrorSourceConnector and Connect worker included); both JVMs get " + cfg.childJvmOptions()
                + ".");
        notes.add("Admin requests/s are Kafka's own client metric request-total of the Admin clients talking to "
                + "the destination, over the same span (Sextant: its destination client, including its "
                + "destination-view refresh; MM2: the checkpoint connector's and task's target admins).");
        for (SyncScenario.Outcome o : scales) {
            notes.add(String.format(Locale.ROOT, "%,d groups: mirror checks %s; offset syncs %s; phases (s) %s", o.groups,
                    o.checks, o.syncSpacing, o.phases.entrySet().stream()
                            .map(e -> e.getKey() + "=" + Report.round(e.getValue(), 1)).toList()));
            double total = o.otherCpu.values().stream().mapToDouble(Double::doubleValue).sum()
                    + o.systems.values().stream().mapToDouble(so -> so.cpuSeconds).sum();
            StringBuilder cpu = new StringBuilder(String.format(Locale.ROOT,
                    "%,d groups: the machine's %d cores were %.0f%% busy with the benchmark's processes over the "
                            + "%.0f s measured (CPU s:", o.groups, Runtime.getRuntime().availableProcessors(),
                    100 * total / (o.measuredSeconds * Runtime.getRuntime().availableProcessors()), o.measuredSeconds));
            o.otherCpu.forEach((name, sec) -> cpu.append(String.format(Locale.ROOT, " %s %.0f;", name, sec)));
            o.systems.values().forEach(so -> cpu.append(String.format(Locale.ROOT, " %s %.0f;", so.system, so.cpuSeconds)));
            notes.add(cpu.append(")").toString());
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
