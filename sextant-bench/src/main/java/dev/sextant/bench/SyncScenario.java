package dev.sextant.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
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
            groups = setUp(out, committer, lat, nCaught, nLag);
        } catch (Exception e) {
            failAll(out, systems, "setting up the scale failed: " + describe(e), e);
            return out;
        }
        out.phases.put("create_groups_s", Bench.seconds(System.nanoTime() - t0));
        Bench.log("%s: %d groups per syncer (%d caught up on %s x%d, %d lagging on %s x%d) created in %.1f s",
                label, n, nCaught, lat, partitions, nLag, lag, cfg.lagPartitions(),
                Bench.seconds(System.nanoTime() - t0));

        long t1 = System.nanoTime();
        Map<String, Syncer> syncers = startSyncers(out, lat, lag);
        out.phases.put("start_syncers_s", Bench.seconds(System.nanoTime() - t1));
        groups.keySet().retainAll(syncers.keySet()); // a syncer that did not start gets no workload
        try {
            if (!syncers.isEmpty()) {
                Bench.log("%s: syncers ready in %.1f s: %s", label, Bench.seconds(System.nanoTime() - t1),
                        syncers.values());
                runWorkload(out, groups, syncers, committer, lat, lag, nCaught, nLag);
            }
        } catch (Exception e) {
            failAll(out, syncers.keySet(), "the harness failed during the run: " + describe(e), e);
        } finally {
            closeAll(syncers, out);
        }
        try {
            checkMirror(out, lat, partitions);
            out.syncSpacing.put(lat, session.syncSpacing(lat, partitions));
            Path jfr = dir.resolve(BenchSettings.SEXTANT).resolve("sextant.jfr");
            if (Files.exists(jfr)) {
                JfrSummary.write(jfr, session.workDir.resolve("sync-" + n + "-profile.txt"));
            }
        } catch (Exception e) {
            out.checks.putIfAbsent(lat, "not checked: " + describe(e));
        }
        out.phases.put("total_s", Bench.seconds(System.nanoTime() - t0));
        Bench.log("%s done in %.0f s; mirror %s%s", label, Bench.seconds(System.nanoTime() - t0), out.checks,
                out.systems.values().stream().filter(so -> so.failed != null)
                        .map(so -> "; " + so.system + " failed: " + so.failed).reduce("", String::concat));
        return out;
    }

    /**
     * The caught-up topic with its first records and offset syncs, and every group's first commit (offset 0), before
     * any syncer starts: MirrorMaker's checkpoint connector finds the groups at start.
     */
    private Map<String, List<TrackedGroup>> setUp(Outcome out, Committer committer, String lat, int nCaught,
                                                  int nLag) {
        String lag = Session.LAG_TOPIC;
        session.clusters.createTopic(session.clusters.source(), lat, partitions);
        // the groups' first commit (offset 0) must be translatable for the initial sync to finish: a few records,
        // and MirrorMaker's first offset sync of each partition (upstream 0), before any group commits
        try (NumberedProducer producer = new NumberedProducer(session.sourceConfig(), lat, partitions)) {
            producer.produce(FIRST_RECORDS, 1_000);
        }
        long syncDeadline = System.nanoTime() + 120_000_000_000L;
        for (String topic : List.of(lat, lag)) {
            int parts = topic.equals(lat) ? partitions : cfg.lagPartitions();
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
        Map<String, List<TrackedGroup>> groups = new LinkedHashMap<>();
        for (String system : systems) {
            String prefix = prefix(system);
            List<TrackedGroup> list = new ArrayList<>(nCaught + nLag);
            for (int i = 0; i < nCaught; i++) {
                list.add(new TrackedGroup(String.format("%sc-%05d", prefix, i), lat, "source." + lat,
                        partitions, false));
            }
            for (int j = 0; j < nLag; j++) {
                list.add(new TrackedGroup(String.format("%sl-%05d", prefix, j), lag, "source." + lag,
                        cfg.lagPartitions(), true));
            }
            groups.put(system, list);
        }
        // every group exists (with an offset on a mirrored topic) before MirrorMaker's checkpoint connector starts
        for (List<TrackedGroup> list : groups.values()) {
            for (TrackedGroup g : list) {
                committer.commit(g, new long[g.partitions], false);
            }
        }
        committer.drain();
        failOn(committer, "creating the groups");
        return groups;
    }

    /** Records a harness failure for each of {@code which} that has no failure of its own yet; logs it once. */
    private void failAll(Outcome out, Collection<String> which, String reason, Exception e) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        Bench.log("%s: %s (%s)", label, reason, String.join(", ", which));
        writeFailure(dir.resolve("failure.txt"), reason, e);
        for (String system : which) {
            SystemOutcome so = out.systems.computeIfAbsent(system, SystemOutcome::new);
            so.fail(BY_HARNESS, reason, Double.NaN);
        }
    }

    /** A failure's whole story (stack trace, the logs' last lines it quotes) for whoever reads the work directory. */
    private static void writeFailure(Path file, String reason, Throwable e) {
        StringWriter text = new StringWriter();
        text.append(reason).append(System.lineSeparator());
        if (e != null) {
            e.printStackTrace(new PrintWriter(text));
        }
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, text.toString());
        } catch (IOException ignored) {
            // for humans only
        }
    }

    /** A failure in one line: the innermost useful message's first line, at most 300 characters. */
    static String describe(Throwable e) {
        Throwable t = e;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        String message = t.getMessage() == null || t.getMessage().isBlank() ? t.getClass().getSimpleName()
                : t.getMessage().strip().lines().findFirst().orElse("");
        int see = message.indexOf("; see "); // where the log is: recorded apart
        message = see > 0 ? message.substring(0, see) : message;
        return message.length() <= 300 ? message : message.substring(0, 297) + "...";
    }

    private String prefix(String system) {
        return "bench-" + code(system) + "-" + n + "-";
    }

    /**
     * How long a syncer may take to start and get ready (Sextant RUNNING, MirrorMaker's checkpoint task running and
     * through the offset syncs): 120 s, plus a second per 1,000 groups (each system lists every group at start).
     */
    Duration startTimeout() {
        return Duration.ofSeconds(120 + n / 1_000);
    }

    /**
     * Starts the syncers, at once, and waits until each is ready. One that fails to start or is not ready in time
     * is stopped and recorded as failed in {@code out}; the others are returned.
     */
    private Map<String, Syncer> startSyncers(Outcome out, String lat, String lag) {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        Map<String, CompletableFuture<Syncer>> futures = new LinkedHashMap<>();
        String topics = lat + "|" + lag;
        Duration timeout = startTimeout();
        for (String system : systems) {
            Path sysDir = dir.resolve(system);
            futures.put(system, CompletableFuture.supplyAsync(() -> switch (system) {
                case BenchSettings.SEXTANT -> startSextant(sysDir);
                case BenchSettings.MM2_FAST -> Mm2CheckpointProcess.start(system, prefix(system), 1, topics,
                        session.sourceBootstrap(), session.destinationBootstrap(), sysDir, cfg.childJvmOptions(),
                        timeout);
                default -> Mm2CheckpointProcess.start(system, prefix(system), 60, topics,
                        session.sourceBootstrap(), session.destinationBootstrap(), sysDir, cfg.childJvmOptions(),
                        timeout);
            }, pool));
        }
        Map<String, Syncer> started = new LinkedHashMap<>();
        try {
            for (Map.Entry<String, CompletableFuture<Syncer>> e : futures.entrySet()) {
                try {
                    started.put(e.getKey(), e.getValue().join());
                } catch (CompletionException | CancellationException ex) {
                    failedToStart(out, e.getKey(), null, ex);
                }
            }
        } finally {
            pool.shutdown();
        }
        for (Iterator<Syncer> it = started.values().iterator(); it.hasNext(); ) {
            Syncer s = it.next();
            try {
                if (s instanceof SextantChild sextant) {
                    sextant.awaitRunning(timeout);
                } else if (s instanceof Mm2CheckpointProcess mm2) {
                    mm2.awaitCheckpointTask(timeout);
                }
            } catch (RuntimeException ex) {
                failedToStart(out, s.system(), s, ex);
                it.remove();
            }
        }
        return started;
    }

    /** A syncer that did not start or get ready: recorded as failed, stopped (its log kept), the reason logged. */
    private void failedToStart(Outcome out, String system, Syncer syncer, Throwable e) {
        SystemOutcome so = out.systems.computeIfAbsent(system, SystemOutcome::new);
        so.fail(BY_SYSTEM, describe(e), Double.NaN);
        Path failure = dir.resolve(system).resolve("startup-failure.txt");
        writeFailure(failure, so.failed, e);
        so.logFile = failure;
        if (syncer != null) {
            so.alive = syncer.isAlive();
            if (syncer instanceof SextantChild sextant) {
                so.heap = sextant.heap();
                so.outOfMemory = sextant.outOfMemory();
                so.logFile = sextant.logFile();
            }
            closeAll(Map.of(system, syncer), out);
            if (syncer instanceof Mm2CheckpointProcess) {
                so.logFile = dir.resolve(system + ".log");
            }
        } else {
            so.alive = false;
        }
        Bench.log("%s: %s failed to start: %s (see %s)", label, system, so.failed, so.logFile);
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
        List<String> jvm = new ArrayList<>(cfg.sextantJvmOptions(n));
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
        Watch watch = new Watch(syncers, pollers, workStart);
        try {
            Map<String, double[]> initialSync = initialSync(out, groups, pollers, watch);
            long tWindow = System.nanoTime();
            if (watch.anyLive()) {
                commitLagging(out, groups, committer, nCaught, nLag, watch);
                tWindow = window(out, groups, pollers, committer, lat, nCaught, watch);
            }
            tail(out, pollers, watch, tWindow, workStart);

            // 4. cost and final state
            baseline.others().forEach((name, pid) -> out.otherCpu.put(name,
                    ProcStats.sample(pid).cpuSeconds() - baseline.othersCpu().get(name).cpuSeconds()));
            for (Syncer s : syncers.values()) {
                out.systems.put(s.system(), cost(s, baseline, initialSync.get(s.system()), out.measuredSeconds,
                        watch));
            }
            for (Map.Entry<String, DestinationPoller> e : pollers.entrySet()) {
                finish(out.systems.get(e.getKey()), e.getValue(), watch, lat, lag, out.lagTopicEnd);
            }
        } finally {
            pollers.values().forEach(DestinationPoller::close);
            pollers.values().forEach(DestinationPoller::closeAdmin);
        }
    }

    /**
     * One system's end of the run: its last polls and final state (replay), or, when it stopped during the run,
     * its outstanding commits counted with their age when it stopped.
     */
    private void finish(SystemOutcome so, DestinationPoller poller, Watch watch, String lat, String lag,
                        long lagEnd) {
        so.poller = poller;
        try {
            poller.close();
            if (watch.live(so.system)) {
                so.settleSeconds = settle(poller);
                poller.pollAll();
                poller.censor(System.nanoTime());
                so.unresolved = poller.outstanding();
                finalState(so, poller, lat, lag, lagEnd);
                so.finalStateRead = true;
            } else {
                poller.censor(watch.failedNanos(so.system));
                so.unresolved = poller.outstanding();
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            so.fail(BY_HARNESS, "reading the final state failed: " + describe(e), Double.NaN);
            writeFailure(dir.resolve(so.system).resolve("failure.txt"), so.failed, e);
            Bench.log("%s: %s: %s", label, so.system, so.failed);
        }
    }

    /**
     * Notices a syncer whose process exited during the measured run (e.g. out of memory): from then on its poller
     * stops, no more commits go to its groups, no wait waits for it, and its outstanding commits count with their
     * age at that moment (lower bounds). Keeps each live syncer's latest CPU and RSS reading, all that is left of a
     * process once it is gone.
     */
    private final class Watch {
        private final Map<String, Syncer> syncers;
        private final Map<String, DestinationPoller> pollers;
        private final long start;
        private final Map<String, String> failures = new LinkedHashMap<>();
        private final Map<String, Long> failedNanos = new HashMap<>();
        private final Map<String, ProcStats.Sample> last = new HashMap<>();
        private long lastCheck;

        Watch(Map<String, Syncer> syncers, Map<String, DestinationPoller> pollers, long start) {
            this.syncers = syncers;
            this.pollers = pollers;
            this.start = start;
        }

        /** Looks at every live syncer, at most once a second. */
        void check() {
            long now = System.nanoTime();
            if (now - lastCheck < 1_000_000_000L) {
                return;
            }
            lastCheck = now;
            for (Syncer s : syncers.values()) {
                if (!live(s.system())) {
                    continue;
                }
                if (s.isAlive()) {
                    ProcStats.Sample sample = ProcStats.sample(s.pid());
                    if (sample.cpuSeconds() >= 0) {
                        last.put(s.system(), sample);
                    }
                    continue;
                }
                String reason = exitReason(s, Bench.seconds(now - start));
                failures.put(s.system(), reason);
                failedNanos.put(s.system(), now);
                DestinationPoller poller = pollers.get(s.system());
                if (poller != null) {
                    poller.close();
                }
                Bench.log("%s: %s (see %s)", label, reason, s.logFile());
            }
        }

        boolean live(String system) {
            return !failures.containsKey(system);
        }

        boolean anyLive() {
            check();
            return failures.size() < syncers.size();
        }

        String failure(String system) {
            return failures.get(system);
        }

        long failedNanos(String system) {
            return failedNanos.getOrDefault(system, System.nanoTime());
        }

        double failedAtSeconds(String system) {
            Long at = failedNanos.get(system);
            return at == null ? Double.NaN : Bench.seconds(at - start);
        }

        /** The latest reading of a syncer while it ran, or null. */
        ProcStats.Sample last(String system) {
            return last.get(system);
        }
    }

    /** Why a syncer's process is gone, in one line. */
    private static String exitReason(Syncer s, double atSeconds) {
        String when = String.format(Locale.ROOT, "%.0f s after the syncers were ready", atSeconds);
        if (s instanceof SextantChild sextant) {
            return sextant.outOfMemory() ? "Sextant ran out of memory and exited " + when : "Sextant exited " + when;
        }
        if (s instanceof Mm2CheckpointProcess mm2) {
            return "MirrorMaker 2 " + (mm2.outOfMemory() ? "ran out of memory and exited " : "exited ") + when;
        }
        return s.system() + " exited " + when;
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
                                              Map<String, DestinationPoller> pollers, Watch watch) {
        Map<String, double[]> initialSync = new LinkedHashMap<>();
        long initialStart = System.nanoTime();
        for (Map.Entry<String, List<TrackedGroup>> e : groups.entrySet()) {
            pollers.get(e.getKey()).startInitialSync();
            e.getValue().forEach(g -> g.trackInitial(initialStart));
        }
        Map<String, Long> doneAt = new HashMap<>();
        while (pollers.keySet().stream().anyMatch(system -> watch.live(system) && !doneAt.containsKey(system))
                && System.nanoTime() - initialStart < cfg.tailMaxSeconds() * 1_000_000_000L) {
            Bench.sleep(100);
            watch.check();
            pollers.forEach((system, p) -> {
                if (watch.live(system) && p.outstanding() == 0) {
                    doneAt.putIfAbsent(system, System.nanoTime());
                }
            });
        }
        for (Map.Entry<String, DestinationPoller> e : pollers.entrySet()) {
            DestinationPoller p = e.getValue();
            Long done = doneAt.get(e.getKey());
            // not finished: how long it was waited for (until the wait ended, or until the system stopped)
            long end = watch.live(e.getKey()) ? System.nanoTime() : watch.failedNanos(e.getKey());
            double seconds = done != null ? p.initialLatency().max() / 1000.0
                    : Bench.seconds(Math.min(System.nanoTime(), end) - initialStart);
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
                               int nLag, Watch watch) {
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
            for (Map.Entry<String, List<TrackedGroup>> e : groups.entrySet()) {
                if (watch.live(e.getKey())) {
                    committer.commit(e.getValue().get(nCaught + j), offsets, true);
                }
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
                        Committer committer, String lat, int nCaught, Watch watch) throws Exception {
        long tWindow = System.nanoTime();
        long commits = 0;
        try (NumberedProducer producer = new NumberedProducer(session.sourceConfig(), lat, partitions,
                FIRST_RECORDS)) {
            producer.startContinuous(cfg.produceRate());
            Bench.sleep(2_000); // some records first, so commits have offsets to move
            Bench.log("%s: window of %d s, %d group commits/s per syncer, %d records/s on %s", label,
                    cfg.windowSeconds(), cfg.commitRate(), cfg.produceRate(), lat);
            long start = System.nanoTime();
            long windowNanos = cfg.windowSeconds() * 1_000_000_000L;
            int index = 0;
            long lastLog = start;
            while (nCaught > 0 && System.nanoTime() - start < windowNanos && watch.anyLive()) {
                long due = start + commits * 1_000_000_000L / cfg.commitRate();
                long wait = (due - System.nanoTime()) / 1_000_000L;
                Bench.sleep(wait);
                long[] ends = producer.ackedEnds();
                for (Map.Entry<String, List<TrackedGroup>> e : groups.entrySet()) {
                    if (watch.live(e.getKey())) { // a system that stopped gets no more commits
                        committer.commit(e.getValue().get(index), ends, true);
                    }
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
    private void tail(Outcome out, Map<String, DestinationPoller> pollers, Watch watch, long tWindow,
                      long workStart) throws Exception {
        long tTail = System.nanoTime();
        long lastLog = tTail;
        while (pollers.entrySet().stream().anyMatch(e -> watch.live(e.getKey()) && e.getValue().outstanding() > 0)
                && System.nanoTime() - tTail < cfg.tailMaxSeconds() * 1_000_000_000L) {
            Bench.sleep(250);
            watch.check();
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
    private SystemOutcome cost(Syncer s, Baseline baseline, double[] initial, double measuredSeconds,
                               Watch watch) {
        SystemOutcome so = new SystemOutcome(s.system());
        so.logFile = s.logFile();
        ProcStats.Sample a = baseline.cpu().get(s.system());
        ProcStats.Sample b = ProcStats.sample(s.pid());
        so.alive = s.isAlive();
        if (b.cpuSeconds() < 0) { // a process that is gone has no /proc entry left: its last reading while it ran
            b = watch.last(s.system());
        }
        if (b != null && b.cpuSeconds() >= 0 && a.cpuSeconds() >= 0) {
            so.cpuSeconds = b.cpuSeconds() - a.cpuSeconds();
            so.cpuSecondsTotal = b.cpuSeconds();
            so.peakRssMb = b.peakRssMb();
        }
        if (!watch.live(s.system())) {
            so.fail(BY_SYSTEM, watch.failure(s.system()), watch.failedAtSeconds(s.system()));
        } else if (!so.alive) { // it stopped after the tail: its figures are whole, but it did not run to the end
            so.fail(BY_SYSTEM, exitReason(s, measuredSeconds) + " (after the tail)", Double.NaN);
        }
        if (initial != null) {
            so.initialSyncSeconds = initial[0];
            so.initialSyncCensored = initial[1] > 0;
        }
        // over a span it did not live through, a rate means nothing
        double span = watch.live(s.system()) ? measuredSeconds : Double.NaN;
        so.destinationRequestsPerSec = (s.destinationAdminRequests() - baseline.requests().get(s.system())) / span;
        if (s instanceof SextantChild sextant) {
            sextantCost(so, sextant, baseline, span);
        }
        return so;
    }

    /** Sextant's own figures: its request counter, heap, the cost of proving intervals. */
    private void sextantCost(SystemOutcome so, SextantChild sextant, Baseline baseline, double span) {
        so.countedRequestsPerSec = (sextant.countedAdminRequests() - baseline.counted().get(so.system)) / span;
        so.heap = sextant.heap();
        so.outOfMemory = sextant.outOfMemory();
        double[] proofs = sextant.intervalProofs();
        double[] start = baseline.proofs().get(so.system);
        so.verificationReadsPerSec = (proofs[0] - start[0]) / span;
        so.intervalsProven = proofs[1] - start[1];
        so.verificationCpuSeconds = proofs[2] - start[2];
        if (!so.alive) {
            Bench.log("%s: Sextant (pid %d) was no longer running at the end%s; see %s", label, sextant.pid(),
                    so.outOfMemory ? ", out of memory" : "", sextant.logFile());
        }
    }

    /**
     * Polls every group until the destination offsets stop moving for {@link #SETTLE_QUIET_MS} (at most
     * {@link #SETTLE_MAX_MS}, or four reads of every group when one takes longer than a quarter of that, as at
     * 100,000 groups): a syncer may write a position bounded first and closer once the syncs and records allow
     * (Sextant's interpolation, proven a moment after the sync that closes the interval). Not part of the measured
     * span. Returns the seconds until the last change.
     */
    private static double settle(DestinationPoller poller) throws Exception {
        long start = System.nanoTime();
        long lastChange = start;
        long maxNanos = SETTLE_MAX_MS * 1_000_000L;
        String before = null;
        while (System.nanoTime() - lastChange < SETTLE_QUIET_MS * 1_000_000L
                && System.nanoTime() - start < maxNanos) {
            long read = System.nanoTime();
            poller.pollAll();
            maxNanos = Math.max(maxNanos, 4 * (System.nanoTime() - read));
            String now = poller.destinationSnapshot();
            if (!now.equals(before)) {
                before = now;
                lastChange = System.nanoTime();
            }
            Bench.sleep(500);
        }
        return Bench.seconds(lastChange - start);
    }

    /** Longer than Sextant's retry of an interval proof whose read came back short (5 s) plus a flush. */
    private static final long SETTLE_QUIET_MS = 6_000;
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

    /** Copies a log, if there is one: logs are for humans, the numbers do not depend on them. */
    private static void copy(Path from, Path to) {
        try {
            if (Files.exists(from)) {
                Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException | RuntimeException e) {
            // see above
        }
    }

    private void closeAll(Map<String, Syncer> syncers, Outcome out) {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, syncers.size()));
        for (Syncer s : syncers.values()) {
            pool.submit(() -> {
                if (s instanceof Mm2CheckpointProcess mm2) { // its directory is deleted when it stops
                    copy(mm2.logFile(), dir.resolve(s.system() + ".log"));
                    copy(mm2.outputFile(), dir.resolve(s.system() + ".out"));
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
