package dev.sextant.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The syncers of a scale instance of the sync scenario, each in its own JVM: started at once and awaited until ready
 * (one that is not is stopped and recorded as failed), and stopped at the end with MirrorMaker's logs kept.
 */
final class SyncerProcesses {

    private final Session session;
    private final BenchSettings cfg;
    private final int n;
    private final Path dir;
    private final List<String> systems;
    private final String label;

    /**
     * @param dir     the scale instance's work directory: a directory per system, and the logs of stopped syncers
     * @param systems the syncers to start, all at once
     * @param label   how the log names the scale instance
     */
    SyncerProcesses(Session session, int groups, Path dir, List<String> systems, String label) {
        this.session = session;
        this.cfg = session.settings;
        this.n = groups;
        this.dir = dir;
        this.systems = systems;
        this.label = label;
    }

    /**
     * How long a syncer may take to start and get ready (Sextant RUNNING, MirrorMaker's checkpoint task running and
     * through the offset syncs): two minutes, and longer the more groups (each system lists every group at start).
     */
    Duration startTimeout() {
        return Duration.ofSeconds(120 + n / 1_000);
    }

    /**
     * Starts the syncers, at once, and waits until each is ready. One that fails to start or is not ready in time
     * is stopped and recorded as failed in {@code out}; the others are returned.
     */
    Map<String, Syncer> start(SyncScenario.Outcome out, String lat, String lag) {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        Map<String, CompletableFuture<Syncer>> futures = new LinkedHashMap<>();
        String topics = lat + "|" + lag;
        Duration timeout = startTimeout();
        for (String system : systems) {
            Path sysDir = dir.resolve(system);
            String prefix = SyncScenario.prefix(system, n);
            futures.put(system, CompletableFuture.supplyAsync(() -> switch (system) {
                case BenchSettings.SEXTANT, BenchSettings.SEXTANT_INTERPOLATION_OFF, BenchSettings.SEXTANT_ADMIN_POLL
                        -> startSextant(system, sysDir);
                case BenchSettings.MM2_FAST -> Mm2CheckpointProcess.start(system, prefix, 1, topics,
                        session.sourceBootstrap(), session.destinationBootstrap(), sysDir, cfg.childJvmOptions(),
                        timeout);
                default -> Mm2CheckpointProcess.start(system, prefix, 60, topics,
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
    private void failedToStart(SyncScenario.Outcome out, String system, Syncer syncer, Throwable e) {
        SyncScenario.SystemOutcome so = out.systems.computeIfAbsent(system, SyncScenario.SystemOutcome::new);
        so.fail(SyncScenario.BY_SYSTEM, FailureText.describe(e), Double.NaN);
        Path failure = dir.resolve(system).resolve("startup-failure.txt");
        FailureText.write(failure, so.failed, e);
        so.logFile = failure;
        if (syncer != null) {
            so.alive = syncer.isAlive();
            if (syncer instanceof SextantChild sextant) {
                so.heap = sextant.heap();
                so.outOfMemory = sextant.outOfMemory();
                so.logFile = sextant.logFile();
            }
            closeAll(Map.of(system, syncer));
            if (syncer instanceof Mm2CheckpointProcess) {
                so.logFile = dir.resolve(system + ".log");
            }
        } else {
            so.alive = false;
        }
        Bench.log("%s: %s failed to start: %s (see %s)", label, system, so.failed, so.logFile);
    }

    /**
     * A Sextant of its own application id and groups; {@code sextant-interpolation-off} with MM2's rule only,
     * {@code sextant-admin-poll} polling committed offsets through the Admin API.
     */
    private Syncer startSextant(String system, Path sysDir) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("source.bootstrap.servers", session.sourceBootstrap());
        config.put("destination.bootstrap.servers", session.destinationBootstrap());
        config.put("application.id", "sextant-bench-" + n
                + (system.equals(BenchSettings.SEXTANT) ? "" : "-" + SyncScenario.code(system)));
        config.put("state.dir", sysDir.resolve("state").toAbsolutePath().toString());
        config.put("groups.include", Pattern.quote(SyncScenario.prefix(system, n)) + ".*");
        config.put("query.listen", "127.0.0.1:0");
        config.put("streams.num.stream.threads", Integer.toString(cfg.sextantThreads()));
        config.putAll(cfg.sextantConfig());
        if (system.equals(BenchSettings.SEXTANT_INTERPOLATION_OFF)) {
            config.put("translation.interpolation", "off");
        }
        if (system.equals(BenchSettings.SEXTANT_ADMIN_POLL)) {
            config.put("source.offsets.read", "admin");
        }
        List<String> jvm = new ArrayList<>(cfg.sextantJvmOptions(n));
        if (cfg.jfr()) {
            jvm.add("-XX:StartFlightRecording=filename=" + sysDir.toAbsolutePath().resolve("sextant.jfr")
                    + ",settings=profile,dumponexit=true");
        }
        return SextantChild.start(system, SyncScenario.prefix(system, n), config, sysDir, jvm);
    }

    /** Stops {@code syncers}, at once, keeping each MirrorMaker's log and output in the work directory. */
    void closeAll(Map<String, Syncer> syncers) {
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
}
