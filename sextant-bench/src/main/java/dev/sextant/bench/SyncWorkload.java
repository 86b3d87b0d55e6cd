package dev.sextant.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * The measured part of a scale instance of the sync scenario, from the syncers being ready to the end of the tail:
 * the initial sync, the lagging groups' commits, the window, the tail; then what each syncer cost and how it left
 * the destination.
 */
final class SyncWorkload {

    private final Session session;
    private final BenchSettings cfg;
    /** Partitions of the caught-up topic. */
    private final int partitions;
    private final Path dir;
    private final String label;

    /**
     * @param dir   the scale instance's work directory: each system's steady-state latency trace goes there
     * @param label how the log names the scale instance
     */
    SyncWorkload(Session session, int partitions, Path dir, String label) {
        this.session = session;
        this.cfg = session.settings;
        this.partitions = partitions;
        this.dir = dir;
        this.label = label;
    }

    /**
     * Runs the workload on {@code groups} (by system, caught-up groups first) for the syncers, all ready, and records
     * what was measured in {@code out}.
     */
    void run(SyncScenario.Outcome out, Map<String, List<TrackedGroup>> groups, Map<String, Syncer> syncers,
             Committer committer, String lat, String lag, int nCaught, int nLag) throws Exception {
        CostBaseline baseline = CostBaseline.take(session, syncers);
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
        SyncerWatch watch = new SyncerWatch(syncers, pollers, workStart, label);
        try {
            Map<String, double[]> initialSync = initialSync(out, groups, pollers, watch);
            long tWindow = System.nanoTime();
            out.burstStartMs = System.currentTimeMillis();
            if (watch.anyLive()) {
                commitLagging(out, groups, committer, nCaught, nLag, watch);
                tWindow = window(out, groups, pollers, committer, lat, nCaught, watch);
            }
            tail(out, pollers, watch, tWindow, workStart);
            out.endMs = System.currentTimeMillis();

            // 4. cost and final state
            baseline.others().forEach((name, pid) -> out.otherCpu.put(name,
                    ProcStats.sample(pid).cpuSeconds() - baseline.othersCpu().get(name).cpuSeconds()));
            for (Syncer s : syncers.values()) {
                SyncScenario.SystemOutcome so = baseline.cost(s, initialSync.get(s.system()), out.measuredSeconds,
                        watch, label);
                if (s instanceof SextantChild sextant) {
                    // the window's commits by wall clock, to be read against Sextant's timeline
                    List<long[]> made = pollers.get(s.system()).steadySamples().stream()
                            .map(x -> new long[] {out.windowStartMs + (x[0] - out.windowStartNanos) / 1_000_000,
                                    x[1] / 1_000_000})
                            .toList();
                    so.replans = sextant.replanDrain(out.burstStartMs, out.endMs, made);
                    so.window = sextant.windowLoad(out.windowStartMs, out.windowEndMs);
                }
                out.systems.put(s.system(), so);
            }
            if (cfg.idleCommits() && watch.anyLive()) {
                idleCommits(out, groups, syncers, committer, nCaught, watch);
            }
            FinalState finalState = new FinalState(session, dir, label);
            for (Map.Entry<String, DestinationPoller> e : pollers.entrySet()) {
                finalState.finish(out.systems.get(e.getKey()), e.getValue(), watch, lat, lag, out.lagTopicEnd);
            }
        } finally {
            pollers.values().forEach(DestinationPoller::close);
            pollers.values().forEach(DestinationPoller::closeAdmin);
        }
    }

    /**
     * 0. The initial sync: every group exists on the source (offset 0 on each partition, committed before the
     * syncers started); timed from the syncers being ready until each system shows all of them. The window then
     * measures steady state: groups that already exist on the destination.
     *
     * @return by system: {seconds, 1 when it did not finish in time else 0}
     */
    private Map<String, double[]> initialSync(SyncScenario.Outcome out, Map<String, List<TrackedGroup>> groups,
                                              Map<String, DestinationPoller> pollers, SyncerWatch watch) {
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
    private void commitLagging(SyncScenario.Outcome out, Map<String, List<TrackedGroup>> groups, Committer committer,
                               int nCaught, int nLag, SyncerWatch watch) {
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
        committer.throwIfAnyFailed("committing the lagging groups");
    }

    /**
     * 2. The window: production on the caught-up topic, caught-up groups commit at its end offsets.
     *
     * @return when the window started ({@link System#nanoTime()})
     */
    private long window(SyncScenario.Outcome out, Map<String, List<TrackedGroup>> groups,
                        Map<String, DestinationPoller> pollers, Committer committer, String lat, int nCaught,
                        SyncerWatch watch) throws Exception {
        long tWindow = System.nanoTime();
        out.windowStartMs = System.currentTimeMillis();
        out.windowStartNanos = tWindow;
        long commits = 0;
        try (NumberedProducer producer = new NumberedProducer(session.sourceConfig(), lat, partitions,
                ScaleSetUp.FIRST_RECORDS)) {
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
            out.windowEndMs = System.currentTimeMillis();
            committer.drain();
            producer.stop();
        }
        committer.throwIfAnyFailed("committing in the window");
        out.windowCommits = commits;
        out.commitCallMillis = committer.callMillis();
        Bench.log("%s: window done: %,d group commits per syncer (%.0f/s), commit calls took p50 %.0f ms, "
                + "p99 %.0f ms", label, commits,
                commits / Bench.seconds(System.nanoTime() - tWindow - 2_000_000_000L),
                committer.callMillis().quantile(0.5), committer.callMillis().quantile(0.99));
        out.phases.put("window_s", Bench.seconds(System.nanoTime() - tWindow));
        return tWindow;
    }

    /**
     * 5. Idle auto-commits (--idle-commits): every caught-up group commits its last offsets again, as an idle
     * consumer's auto-commit does every few seconds; counted: Sextant's destination writes from the first of them
     * until it has read them all and flushed a few times more. First, until Sextant wrote nothing for
     * {@link #QUIET_MS} (at most 60 s): the exact rewrites and refreshes that follow the window are not the
     * recommits'.
     */
    private void idleCommits(SyncScenario.Outcome out, Map<String, List<TrackedGroup>> groups,
                             Map<String, Syncer> syncers, Committer committer, int nCaught, SyncerWatch watch) {
        List<SextantChild> sextants = syncers.entrySet().stream().filter(e -> watch.live(e.getKey()))
                .map(Map.Entry::getValue).filter(SextantChild.class::isInstance).map(SextantChild.class::cast)
                .toList();
        boolean quiet = awaitQuiet(sextants);
        Map<String, double[]> before = new LinkedHashMap<>();
        syncers.forEach((system, s) -> {
            if (s instanceof SextantChild sextant && watch.live(system)) {
                before.put(system, new double[] {sextant.groupWrites(), sextant.commitsRead()});
            }
        });
        long recommits = 0;
        for (Map.Entry<String, List<TrackedGroup>> e : groups.entrySet()) {
            if (!before.containsKey(e.getKey())) {
                continue;
            }
            for (TrackedGroup g : e.getValue().subList(0, nCaught)) {
                long[] last = g.lastCommitted();
                if (last != null) {
                    committer.commit(g, last, false);
                    recommits++;
                }
            }
        }
        committer.drain();
        long perSystem = recommits / Math.max(1, before.size());
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline && before.entrySet().stream().anyMatch(e ->
                ((SextantChild) syncers.get(e.getKey())).commitsRead() - e.getValue()[1] < perSystem * partitions)) {
            Bench.sleep(200);
        }
        Bench.sleep(2_000); // the flushes after the last of them read: a write they caused would be sent by now
        before.forEach((system, was) -> {
            SyncScenario.SystemOutcome so = out.systems.get(system);
            so.idleRecommits = perSystem;
            so.idleWrites = ((SextantChild) syncers.get(system)).groupWrites() - was[0];
            so.idleAfterQuiet = quiet;
            Bench.log("%s: %,d idle recommits of the same offsets: %s wrote %.0f group(s) on the destination%s",
                    label, perSystem, system, so.idleWrites, quiet ? "" : " (it was still writing before them)");
        });
    }

    /** How long Sextant must write nothing before the idle recommits. */
    private static final long QUIET_MS = 3_000;

    /** Until none of {@code sextants} sent a group write for {@link #QUIET_MS}; false when 60 s pass first. */
    private static boolean awaitQuiet(List<SextantChild> sextants) {
        long deadline = System.nanoTime() + 60_000_000_000L;
        double last = Double.NaN;
        long since = System.nanoTime();
        while (System.nanoTime() < deadline) {
            double writes = sextants.stream().mapToDouble(SextantChild::groupWrites).sum();
            if (writes != last) {
                last = writes;
                since = System.nanoTime();
            } else if (System.nanoTime() - since >= QUIET_MS * 1_000_000L) {
                return true;
            }
            Bench.sleep(200);
        }
        return false;
    }

    /** 3. The tail: waits until every commit is visible (or gives up and counts it as unresolved). */
    private void tail(SyncScenario.Outcome out, Map<String, DestinationPoller> pollers, SyncerWatch watch,
                      long tWindow, long workStart) throws Exception {
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
}
