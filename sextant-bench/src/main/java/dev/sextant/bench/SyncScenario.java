package dev.sextant.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

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
    }

    /** One scale's outcome. */
    static final class Outcome {
        int groups;
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
        long windowCommits;
        Samples commitCallMillis;
        double measuredSeconds;
        final Map<String, SystemOutcome> systems = new LinkedHashMap<>();
        final Map<String, Object> checks = new LinkedHashMap<>();
        final Map<String, Double> phases = new LinkedHashMap<>();
        final Map<String, Object> syncSpacing = new LinkedHashMap<>();
        /** CPU seconds over the measured span of the processes that are not under test. */
        final Map<String, Double> otherCpu = new LinkedHashMap<>();
    }

    /** Records per partition of the caught-up topic before the groups commit offset 0 (so 0 translates). */
    static final int FIRST_RECORDS = 10;

    private final Session session;
    private final BenchSettings cfg;
    private final int n;
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
        this.dir = session.workDir.resolve("scale-" + groups);
        this.systems = BenchSettings.ALL_SYSTEMS.stream().filter(systems::contains).toList();
        this.topicSuffix = topicSuffix;
        this.label = "scale " + groups + (cfg.sequential() ? " " + String.join(",", this.systems) : "");
    }

    static String code(String system) {
        return switch (system) {
            case BenchSettings.SEXTANT -> "sx";
            case BenchSettings.MM2_FAST -> "mm2f";
            case BenchSettings.MM2_DEFAULT -> "mm2d";
            default -> throw new IllegalArgumentException(system);
        };
    }

    Outcome run() throws Exception {
        Outcome out = new Outcome();
        out.groups = n;
        out.mode = cfg.mode();
        long t0 = System.nanoTime();
        Files.createDirectories(dir);
        String lat = "bench-lat-" + n + topicSuffix;
        out.topic = lat;
        String lag = Session.LAG_TOPIC;
        session.clusters.createTopic(session.clusters.source(), lat, cfg.partitions());
        // the groups' first commit (offset 0) must be translatable for the initial sync to finish: a few records,
        // and MirrorMaker's first offset sync of each partition (upstream 0), before any group commits
        try (NumberedProducer producer = new NumberedProducer(session.sourceConfig(), lat, cfg.partitions())) {
            producer.produce(FIRST_RECORDS, 1_000);
        }
        long syncDeadline = System.nanoTime() + 120_000_000_000L;
        for (String topic : List.of(lat, lag)) {
            int parts = topic.equals(lat) ? cfg.partitions() : cfg.lagPartitions();
            for (int p = 0; p < parts; p++) {
                while (session.syncs.bestTranslation(topic, p, 0) < 0) {
                    if (System.nanoTime() > syncDeadline) {
                        throw new IllegalStateException("no MirrorMaker offset sync for " + topic + "-" + p
                                + " within 120 s");
                    }
                    Bench.sleep(100);
                }
            }
        }
        int nLag = (int) Math.round(n * cfg.laggingShare());
        int nCaught = n - nLag;
        out.caughtUpGroups = nCaught;
        out.laggingGroups = nLag;

        Map<String, List<TrackedGroup>> groups = new LinkedHashMap<>();
        for (String system : systems) {
            String prefix = prefix(system);
            List<TrackedGroup> list = new ArrayList<>();
            for (int i = 0; i < nCaught; i++) {
                list.add(new TrackedGroup(String.format("%sc-%05d", prefix, i), lat, "source." + lat,
                        cfg.partitions(), false));
            }
            for (int j = 0; j < nLag; j++) {
                list.add(new TrackedGroup(String.format("%sl-%05d", prefix, j), lag, "source." + lag,
                        cfg.lagPartitions(), true));
            }
            groups.put(system, list);
        }

        // every group exists (with an offset on a mirrored topic) before MirrorMaker's checkpoint connector starts
        Committer committer = new Committer(session.committers, 500);
        for (List<TrackedGroup> list : groups.values()) {
            for (TrackedGroup g : list) {
                committer.commit(g, new long[g.partitions], false);
            }
        }
        committer.drain();
        failOn(committer, "creating the groups");
        out.phases.put("create_groups_s", Bench.seconds(System.nanoTime() - t0));
        Bench.log("%s: %d groups per syncer (%d caught up on %s x%d, %d lagging on %s x%d) created in %.1f s",
                label, n, nCaught, lat, cfg.partitions(), nLag, lag, cfg.lagPartitions(),
                Bench.seconds(System.nanoTime() - t0));

        long t1 = System.nanoTime();
        Map<String, Syncer> syncers = startSyncers(lat, lag);
        try {
            out.phases.put("start_syncers_s", Bench.seconds(System.nanoTime() - t1));
            Bench.log("%s: syncers ready in %.1f s: %s", label, Bench.seconds(System.nanoTime() - t1),
                    syncers.values());
            runWorkload(out, groups, syncers, committer, lat, lag, nCaught, nLag);
        } finally {
            closeAll(syncers, out);
        }
        checkMirror(out, lat, cfg.partitions());
        out.syncSpacing.put(lat, session.syncSpacing(lat, cfg.partitions()));
        Path jfr = dir.resolve(BenchSettings.SEXTANT).resolve("sextant.jfr");
        if (Files.exists(jfr)) {
            JfrSummary.write(jfr, session.workDir.resolve("sync-" + n + "-profile.txt"));
        }
        out.phases.put("total_s", Bench.seconds(System.nanoTime() - t0));
        Bench.log("%s done in %.0f s; mirror %s", label, Bench.seconds(System.nanoTime() - t0), out.checks);
        return out;
    }

    private String prefix(String system) {
        return "bench-" + code(system) + "-" + n + "-";
    }

    private Map<String, Syncer> startSyncers(String lat, String lag) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        Map<String, CompletableFuture<Syncer>> futures = new LinkedHashMap<>();
        String topics = lat + "|" + lag;
        try {
            for (String system : systems) {
                Path sysDir = dir.resolve(system);
                futures.put(system, CompletableFuture.supplyAsync(() -> switch (system) {
                    case BenchSettings.SEXTANT -> startSextant(sysDir);
                    case BenchSettings.MM2_FAST -> Mm2CheckpointProcess.start(system, prefix(system), 1, topics,
                            session.sourceBootstrap(), session.destinationBootstrap(), sysDir,
                            cfg.childJvmOptions());
                    default -> Mm2CheckpointProcess.start(system, prefix(system), 60, topics,
                            session.sourceBootstrap(), session.destinationBootstrap(), sysDir,
                            cfg.childJvmOptions());
                }, pool));
            }
            Map<String, Syncer> started = new LinkedHashMap<>();
            RuntimeException failure = null;
            for (Map.Entry<String, CompletableFuture<Syncer>> e : futures.entrySet()) {
                try {
                    started.put(e.getKey(), e.getValue().join());
                } catch (RuntimeException ex) {
                    failure = failure == null ? ex : failure;
                }
            }
            if (failure != null) {
                started.values().forEach(Syncer::close);
                throw failure;
            }
            try {
                for (Syncer s : started.values()) {
                    if (s instanceof SextantChild sextant) {
                        sextant.awaitRunning(Duration.ofSeconds(120));
                    } else if (s instanceof Mm2CheckpointProcess mm2) {
                        mm2.awaitCheckpointTask(Duration.ofSeconds(120));
                    }
                }
            } catch (RuntimeException e) {
                started.values().forEach(Syncer::close);
                throw e;
            }
            return started;
        } finally {
            pool.shutdown();
        }
    }

    private Syncer startSextant(Path sysDir) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("source.bootstrap.servers", session.sourceBootstrap());
        config.put("destination.bootstrap.servers", session.destinationBootstrap());
        config.put("application.id", "sextant-bench-" + n);
        config.put("state.dir", sysDir.resolve("state").toAbsolutePath().toString());
        config.put("groups.include", Pattern.quote(prefix(BenchSettings.SEXTANT)) + ".*");
        config.put("query.listen", "127.0.0.1:0");
        config.put("streams.num.stream.threads", Integer.toString(cfg.sextantThreads()));
        config.putAll(cfg.sextantConfig());
        List<String> jvm = new ArrayList<>(cfg.sextantJvmOptions());
        if (cfg.jfr()) {
            jvm.add("-XX:StartFlightRecording=filename=" + sysDir.toAbsolutePath().resolve("sextant.jfr")
                    + ",settings=profile,dumponexit=true");
        }
        return SextantChild.start(BenchSettings.SEXTANT, prefix(BenchSettings.SEXTANT), config, sysDir, jvm);
    }

    private void runWorkload(Outcome out, Map<String, List<TrackedGroup>> groups, Map<String, Syncer> syncers,
                             Committer committer, String lat, String lag, int nCaught, int nLag) throws Exception {
        Baseline baseline = baseline(syncers);
        long workStart = System.nanoTime();
        out.loadStart = ProcStats.loadAverage1m();

        Map<String, DestinationPoller> pollers = new LinkedHashMap<>();
        for (Map.Entry<String, List<TrackedGroup>> e : groups.entrySet()) {
            long period = e.getKey().equals(BenchSettings.MM2_DEFAULT) ? 1_000 : 100;
            DestinationPoller poller = new DestinationPoller(e.getKey(),
                    session.clusters.destination().clientProperties(), e.getValue(), period,
                    session.syncs::bestTranslation);
            pollers.put(e.getKey(), poller);
            poller.start();
        }
        try {
            Map<String, double[]> initialSync = initialSync(out, groups, pollers);
            commitLagging(out, groups, committer, nCaught, nLag);
            long tWindow = window(out, groups, pollers, committer, lat, nCaught);
            tail(out, pollers, tWindow, workStart);

            // 4. cost and final state
            baseline.others().forEach((name, pid) -> out.otherCpu.put(name,
                    ProcStats.sample(pid).cpuSeconds() - baseline.othersCpu().get(name).cpuSeconds()));
            for (Syncer s : syncers.values()) {
                out.systems.put(s.system(), cost(s, baseline, initialSync.get(s.system()), out.measuredSeconds));
            }
            for (Map.Entry<String, DestinationPoller> e : pollers.entrySet()) {
                DestinationPoller poller = e.getValue();
                poller.close();
                out.systems.get(e.getKey()).settleSeconds = settle(poller);
                poller.pollAll();
                poller.censor(System.nanoTime());
                SystemOutcome so = out.systems.get(e.getKey());
                so.poller = poller;
                so.unresolved = poller.outstanding();
                finalState(so, poller, lat, lag, out.lagTopicEnd);
            }
        } finally {
            pollers.values().forEach(DestinationPoller::close);
            pollers.values().forEach(DestinationPoller::closeAdmin);
        }
    }

    /**
     * What the workload's cost is measured from: each syncer's CPU and destination requests, and the CPU of the
     * other processes on the machine.
     */
    private record Baseline(Map<String, ProcStats.Sample> cpu, Map<String, Double> requests,
                            Map<String, Double> counted, Map<String, double[]> proofs, Map<String, Long> others,
                            Map<String, ProcStats.Sample> othersCpu) {
    }

    private Baseline baseline(Map<String, Syncer> syncers) {
        Map<String, ProcStats.Sample> cpuStart = new HashMap<>();
        Map<String, Double> requestsStart = new HashMap<>();
        Map<String, Double> countedStart = new HashMap<>();
        Map<String, double[]> proofsStart = new HashMap<>();
        for (Syncer s : syncers.values()) {
            cpuStart.put(s.system(), ProcStats.sample(s.pid()));
            requestsStart.put(s.system(), s.destinationAdminRequests());
            if (s instanceof SextantChild sextant) {
                countedStart.put(s.system(), sextant.countedAdminRequests());
                proofsStart.put(s.system(), sextant.intervalProofs());
            }
        }
        Map<String, Long> others = new LinkedHashMap<>();
        others.put("source broker", session.clusters.source().pid());
        others.put("destination broker", session.clusters.destination().pid());
        others.put("data-mirroring MirrorMaker", session.dataMirrorMakerPid());
        others.put("benchmark harness", ProcessHandle.current().pid());
        Map<String, ProcStats.Sample> othersStart = new HashMap<>();
        others.forEach((name, pid) -> othersStart.put(name, ProcStats.sample(pid)));
        return new Baseline(cpuStart, requestsStart, countedStart, proofsStart, others, othersStart);
    }

    /**
     * 0. The initial sync: every group exists on the source (offset 0 on each partition, committed before the
     * syncers started); timed from the syncers being ready until each system shows all of them. The window then
     * measures steady state: groups that already exist on the destination.
     *
     * @return by system: {seconds, 1 when it did not finish in time else 0}
     */
    private Map<String, double[]> initialSync(Outcome out, Map<String, List<TrackedGroup>> groups,
                                              Map<String, DestinationPoller> pollers) {
        Map<String, double[]> initialSync = new LinkedHashMap<>();
        long initialStart = System.nanoTime();
        for (Map.Entry<String, List<TrackedGroup>> e : groups.entrySet()) {
            pollers.get(e.getKey()).startInitialSync();
            e.getValue().forEach(g -> g.trackInitial(initialStart));
        }
        Map<String, Long> doneAt = new HashMap<>();
        while (doneAt.size() < pollers.size()
                && System.nanoTime() - initialStart < cfg.tailMaxSeconds() * 1_000_000_000L) {
            Bench.sleep(100);
            pollers.forEach((system, p) -> {
                if (p.outstanding() == 0) {
                    doneAt.putIfAbsent(system, System.nanoTime());
                }
            });
        }
        for (Map.Entry<String, DestinationPoller> e : pollers.entrySet()) {
            DestinationPoller p = e.getValue();
            Long done = doneAt.get(e.getKey());
            double seconds = done != null ? p.initialLatency().max() / 1000.0
                    : Bench.seconds(System.nanoTime() - initialStart);
            initialSync.put(e.getKey(), new double[] {seconds, done == null ? 1 : 0});
            p.endInitialSync();
            if (done == null) {
                // what is still not shown counts as the initial sync's, not as a steady-state commit
                p.groups().forEach(TrackedGroup::forgetOutstanding);
            }
        }
        out.phases.put("initial_sync_s", Bench.seconds(System.nanoTime() - initialStart));
        Bench.log("%s: initial sync (s, from the syncers being ready): %s", label, initialSync.entrySet()
                .stream().map(e -> e.getKey() + "=" + String.format(Locale.ROOT, "%.1f%s",
                        e.getValue()[0], e.getValue()[1] > 0 ? " (not finished)" : "")).toList());
        return initialSync;
    }

    /** 1. One commit per lagging group, L records behind the end of the (already filled) lagging topic. */
    private void commitLagging(Outcome out, Map<String, List<TrackedGroup>> groups, Committer committer, int nCaught,
                               int nLag) {
        long end = session.lagTopicEnd;
        out.lagTopicEnd = end;
        for (int j = 0; j < nLag; j++) {
            long[] offsets = new long[cfg.lagPartitions()];
            Random random = new Random(31L * j + 7);
            for (int p = 0; p < offsets.length; p++) {
                double exponent = Math.log10(cfg.lagMin())
                        + random.nextDouble() * (Math.log10(cfg.lagMax()) - Math.log10(cfg.lagMin()));
                offsets[p] = end - Math.round(Math.pow(10, exponent));
            }
            for (List<TrackedGroup> list : groups.values()) {
                committer.commit(list.get(nCaught + j), offsets, true);
            }
        }
        committer.drain();
        failOn(committer, "committing the lagging groups");
    }

    /**
     * 2. The window: production on the caught-up topic, caught-up groups commit at its end offsets.
     *
     * @return when the window started ({@link System#nanoTime()})
     */
    private long window(Outcome out, Map<String, List<TrackedGroup>> groups, Map<String, DestinationPoller> pollers,
                        Committer committer, String lat, int nCaught) throws Exception {
        long tWindow = System.nanoTime();
        long commits = 0;
        try (NumberedProducer producer = new NumberedProducer(session.sourceConfig(), lat, cfg.partitions(),
                FIRST_RECORDS)) {
            producer.startContinuous(cfg.produceRate());
            Bench.sleep(2_000); // some records first, so commits have offsets to move
            Bench.log("%s: window of %d s, %d group commits/s per syncer, %d records/s on %s", label,
                    cfg.windowSeconds(), cfg.commitRate(), cfg.produceRate(), lat);
            long start = System.nanoTime();
            long windowNanos = cfg.windowSeconds() * 1_000_000_000L;
            int index = 0;
            long lastLog = start;
            while (nCaught > 0 && System.nanoTime() - start < windowNanos) {
                long due = start + commits * 1_000_000_000L / cfg.commitRate();
                long wait = (due - System.nanoTime()) / 1_000_000L;
                Bench.sleep(wait);
                long[] ends = producer.ackedEnds();
                for (List<TrackedGroup> list : groups.values()) {
                    committer.commit(list.get(index), ends, true);
                }
                index = (index + 1) % nCaught;
                commits++;
                if (System.nanoTime() - lastLog > 15_000_000_000L) {
                    logProgress(pollers, "window");
                    lastLog = System.nanoTime();
                }
            }
            committer.drain();
            producer.stop();
        }
        failOn(committer, "committing in the window");
        out.windowCommits = commits;
        out.commitCallMillis = committer.callMillis();
        Bench.log("%s: window done: %,d group commits per syncer (%.0f/s), commit calls took p50 %.0f ms, "
                + "p99 %.0f ms", label, commits,
                commits / Bench.seconds(System.nanoTime() - tWindow - 2_000_000_000L),
                committer.callMillis().quantile(0.5), committer.callMillis().quantile(0.99));
        out.phases.put("window_s", Bench.seconds(System.nanoTime() - tWindow));
        return tWindow;
    }

    /** 3. The tail: waits until every commit is visible (or gives up and counts it as unresolved). */
    private void tail(Outcome out, Map<String, DestinationPoller> pollers, long tWindow, long workStart)
            throws Exception {
        long tTail = System.nanoTime();
        long lastLog = tTail;
        while (pollers.values().stream().anyMatch(p -> p.outstanding() > 0)
                && System.nanoTime() - tTail < cfg.tailMaxSeconds() * 1_000_000_000L) {
            Bench.sleep(250);
            if (System.nanoTime() - lastLog > 15_000_000_000L) {
                logProgress(pollers, "tail");
                lastLog = System.nanoTime();
            }
        }
        out.phases.put("tail_s", Bench.seconds(System.nanoTime() - tTail));
        for (Map.Entry<String, DestinationPoller> e : pollers.entrySet()) {
            Path sysDir = dir.resolve(e.getKey());
            Files.createDirectories(sysDir);
            e.getValue().writeSteadyTrace(sysDir.resolve("steady-latency.tsv"), tWindow);
        }
        long workEnd = System.nanoTime();
        out.measuredSeconds = Bench.seconds(workEnd - workStart);
        out.loadEnd = ProcStats.loadAverage1m();
        Bench.log("%s: tail done in %.1f s", label, Bench.seconds(workEnd - tTail));
    }

    /** 4. What one syncer cost over the measured part, and how its initial sync went ({@code initial} or null). */
    private SystemOutcome cost(Syncer s, Baseline baseline, double[] initial, double measuredSeconds) {
        SystemOutcome so = new SystemOutcome();
        so.system = s.system();
        ProcStats.Sample a = baseline.cpu().get(s.system());
        ProcStats.Sample b = ProcStats.sample(s.pid());
        so.alive = s.isAlive();
        if (b.cpuSeconds() >= 0) { // a process that is gone has no /proc entry left to read
            so.cpuSeconds = b.cpuSeconds() - a.cpuSeconds();
            so.cpuSecondsTotal = b.cpuSeconds();
            so.peakRssMb = b.peakRssMb();
        }
        if (initial != null) {
            so.initialSyncSeconds = initial[0];
            so.initialSyncCensored = initial[1] > 0;
        }
        double requests = s.destinationAdminRequests();
        so.destinationRequestsPerSec = (requests - baseline.requests().get(s.system())) / measuredSeconds;
        if (s instanceof SextantChild sextant) {
            so.countedRequestsPerSec = (sextant.countedAdminRequests() - baseline.counted().get(s.system()))
                    / measuredSeconds;
            so.heap = sextant.heap();
            so.outOfMemory = sextant.outOfMemory();
            double[] proofs = sextant.intervalProofs();
            double[] start = baseline.proofs().get(s.system());
            so.verificationReadsPerSec = (proofs[0] - start[0]) / measuredSeconds;
            so.intervalsProven = proofs[1] - start[1];
            so.verificationCpuSeconds = proofs[2] - start[2];
            if (!so.alive) {
                Bench.log("%s: Sextant (pid %d) was no longer running at the end%s; see %s", label, s.pid(),
                        so.outOfMemory ? ", out of memory" : "", s.logFile());
            }
        }
        return so;
    }

    /**
     * Polls every group until the destination offsets stop moving for {@link #SETTLE_QUIET_MS} (at most
     * {@link #SETTLE_MAX_MS}): a syncer may write a position bounded first and closer once the syncs and records
     * allow (Sextant's interpolation, proven a moment after the sync that closes the interval). Not part of the
     * measured span. Returns the seconds until the last change.
     */
    private static double settle(DestinationPoller poller) throws Exception {
        long start = System.nanoTime();
        long lastChange = start;
        String before = null;
        while (System.nanoTime() - lastChange < SETTLE_QUIET_MS * 1_000_000L
                && System.nanoTime() - start < SETTLE_MAX_MS * 1_000_000L) {
            poller.pollAll();
            String now = poller.destinationSnapshot();
            if (!now.equals(before)) {
                before = now;
                lastChange = System.nanoTime();
            }
            Bench.sleep(500);
        }
        return Bench.seconds(lastChange - start);
    }

    private static final long SETTLE_QUIET_MS = 3_000;
    private static final long SETTLE_MAX_MS = 30_000;

    private void finalState(SystemOutcome so, DestinationPoller poller, String lat, String lag, long lagEnd) {
        Map<Integer, Long> latEnds = session.clusters.endOffsets(session.clusters.source(), lat);
        for (TrackedGroup g : poller.groups()) {
            long[] committed = g.lastCommitted();
            long[] src = g.sourceOffsets();
            long[] dest = g.destinationOffsets();
            for (int p = 0; p < g.partitions; p++) {
                if (committed == null || src[p] != committed[p] || dest[p] < 0) {
                    so.stale++;
                    continue;
                }
                long replay = src[p] - dest[p];
                long best = session.syncs.bestTranslation(g.sourceTopic, p, src[p]);
                long ideal = best < 0 ? -1 : src[p] - best;
                long sourceEnd = g.lagging ? lagEnd : latEnds.getOrDefault(p, 0L);
                so.minReplay = Math.min(so.minReplay, replay);
                if (ideal >= 0) {
                    so.aboveBestMax = Math.max(so.aboveBestMax, replay - ideal);
                }
                so.replayPoints.add(new long[] {sourceEnd - src[p], replay, ideal, g.lagging ? 1 : 0});
                laterSync(so, g, p, src[p], replay);
                if (g.lagging) {
                    so.laggingReplayMax = Math.max(so.laggingReplayMax, replay);
                    so.laggingIdealMax = Math.max(so.laggingIdealMax, ideal);
                } else {
                    so.caughtUpReplayMax = Math.max(so.caughtUpReplayMax, replay);
                    so.caughtUpIdealMax = Math.max(so.caughtUpIdealMax, ideal);
                }
            }
        }
    }

    /** Counts a partition's replay where MirrorMaker 2 has synced a record above its commit. */
    private void laterSync(SystemOutcome so, TrackedGroup g, int p, long committed, long replay) {
        if (!session.syncs.hasSyncAbove(g.sourceTopic, p, committed)) {
            return;
        }
        so.laterSyncPartitions++;
        so.laterSyncExact += replay == 0 ? 1 : 0;
        if (g.lagging) {
            so.laggingLaterSyncMax = Math.max(so.laggingLaterSyncMax, replay);
        } else {
            so.caughtUpLaterSyncMax = Math.max(so.caughtUpLaterSyncMax, replay);
        }
    }

    private void logProgress(Map<String, DestinationPoller> pollers, String phase) {
        StringBuilder line = new StringBuilder();
        for (Map.Entry<String, DestinationPoller> e : pollers.entrySet()) {
            DestinationPoller p = e.getValue();
            line.append(String.format("  %s: %d visible (p50 %.0f ms), %d pending", e.getKey(),
                    p.caughtUpLatency().size() + p.laggingLatency().size(), p.caughtUpLatency().quantile(0.5),
                    p.outstanding()));
            if (p.lastError() != null) {
                line.append(" [poll error: ").append(p.lastError()).append(']');
            }
        }
        Bench.log("%s %s:%s", label, phase, line);
    }

    private static void failOn(Committer committer, String what) {
        if (committer.failed() > 0) {
            throw new IllegalStateException(committer.failed() + " commits failed while " + what,
                    committer.firstFailure());
        }
    }

    /**
     * MirrorMaker copied the fresh topic 1:1: the same end offsets on both sides, and the mirror's last record of
     * each partition is the source record with that number (its value is its source offset).
     */
    private void checkMirror(Outcome out, String topic, int partitions) {
        Map<Integer, Long> source = session.clusters.endOffsets(session.clusters.source(), topic);
        Map<Integer, Long> mirrored;
        try {
            session.clusters.awaitMirrored(topic, source, Duration.ofSeconds(60));
            mirrored = source;
        } catch (IllegalStateException e) {
            out.checks.put(topic, "NOT 1:1: " + e.getMessage());
            return;
        }
        Map<String, Object> props = new HashMap<>(session.clusters.destination().clientProperties());
        boolean ok = true;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            for (int p = 0; p < partitions; p++) {
                long last = mirrored.get(p) - 1;
                if (last < 0) {
                    continue;
                }
                TopicPartition tp = new TopicPartition("source." + topic, p);
                consumer.assign(List.of(tp));
                consumer.seek(tp, last);
                ConsumerRecord<byte[], byte[]> record = null;
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (record == null && System.nanoTime() < deadline) {
                    for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                        record = r;
                        break;
                    }
                }
                ok &= record != null && record.offset() == last
                        && Long.parseLong(new String(record.value(), StandardCharsets.UTF_8)) == last;
            }
        }
        out.checks.put(topic, ok ? "1:1 (end offsets " + source + ")" : "NOT 1:1: last record differs");
    }

    private void closeAll(Map<String, Syncer> syncers, Outcome out) {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, syncers.size()));
        for (Syncer s : syncers.values()) {
            pool.submit(() -> {
                try {
                    Path copy = dir.resolve(s.system() + ".log");
                    if (s instanceof Mm2CheckpointProcess) { // its directory is deleted when it stops
                        Files.copy(s.logFile(), copy, StandardCopyOption.REPLACE_EXISTING);
                    }
                } catch (IOException | RuntimeException e) {
                    // the log is for humans; the numbers do not depend on it
                }
                s.close();
            });
        }
        pool.shutdown();
        try {
            pool.awaitTermination(90, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
