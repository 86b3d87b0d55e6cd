package dev.sextant.bench;

import java.nio.file.Path;
import java.util.Map;

/**
 * How each syncer left the destination at the end of a scale instance: its last polls, once its offsets stopped
 * moving, and the replay per partition a failover then would cost, against the best any offset sync allows.
 */
final class FinalState {

    /** Longer than Sextant's retry of an interval proof whose read came back short (5 s) plus a flush. */
    private static final long SETTLE_QUIET_MS = 6_000;
    private static final long SETTLE_MAX_MS = 30_000;

    private final Session session;
    private final Path dir;
    private final String label;

    /**
     * @param dir   the scale instance's work directory (a failure's story goes to its system's directory)
     * @param label how the log names the scale instance
     */
    FinalState(Session session, Path dir, String label) {
        this.session = session;
        this.dir = dir;
        this.label = label;
    }

    /**
     * One system's end of the run: its last polls and final state (replay), or, when it stopped during the run,
     * its outstanding commits counted with their age when it stopped.
     */
    void finish(SyncScenario.SystemOutcome so, DestinationPoller poller, SyncerWatch watch, String lat, String lag,
                long lagEnd) {
        so.poller = poller;
        try {
            poller.close();
            if (watch.live(so.system)) {
                so.settleSeconds = settle(poller);
                poller.pollAll();
                poller.censor(System.nanoTime());
                so.unresolved = poller.outstanding();
                readReplay(so, poller, lat, lag, lagEnd);
                so.finalStateRead = true;
            } else {
                poller.censor(watch.failedNanos(so.system));
                so.unresolved = poller.outstanding();
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            so.fail(SyncScenario.BY_HARNESS, "reading the final state failed: " + FailureText.describe(e),
                    Double.NaN);
            FailureText.write(dir.resolve(so.system).resolve("failure.txt"), so.failed, e);
            Bench.log("%s: %s: %s", label, so.system, so.failed);
        }
    }

    /**
     * Polls every group until the destination offsets stop moving for {@link #SETTLE_QUIET_MS} (at most
     * {@link #SETTLE_MAX_MS}, or four reads of every group when one read takes longer than a quarter of that, as
     * it does at the largest scales): a syncer may write a position bounded first and closer once the syncs and
     * records allow (Sextant's interpolation, proven a moment after the sync that closes the interval). Not part of
     * the measured span. Returns the seconds until the last change.
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

    /** Replay per partition of each group that shows its last commit; the others count as stale. */
    private void readReplay(SyncScenario.SystemOutcome so, DestinationPoller poller, String lat, String lag,
                            long lagEnd) {
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
    private void laterSync(SyncScenario.SystemOutcome so, TrackedGroup g, int p, long committed, long replay) {
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
}
