package dev.sextant.sync;

import dev.sextant.metrics.GroupStateCounts;
import dev.sextant.metrics.OldestPending;
import dev.sextant.state.GroupStore;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;

/**
 * What one task adds to the instance's gauges: the time of its oldest source commit not written yet
 * ({@link OldestPending}) and its groups by state ({@link GroupStateCounts}). Both walk what the task holds, so each
 * is refreshed less often the more there is to walk: a gauge is read every few seconds, and a walk of every position
 * at every flush would cost the stream thread more than the flush itself in a large task.
 */
final class TaskGauges {

    /** The oldest unwritten commit is looked for every second, and once more per this many unsettled positions. */
    private static final long OLDEST_PENDING_CHECK_MS = 1_000;
    private static final int OLDEST_PENDING_WALK_STEP = 1_000;
    private static final long OLDEST_PENDING_CHECK_MAX_MS = 10_000;
    /**
     * Once the commit the last walk found oldest is written, the next walk comes after a quarter of the interval
     * instead of the whole: otherwise the gauge goes on counting a written commit's age for up to the interval, and
     * shows the interval rather than how late commits are written whenever they are written faster than that.
     */
    private static final long OLDEST_PENDING_EARLY_SHARE = 4;
    /** Groups are counted by state every 5 s, and 5 s more per this many groups. */
    private static final long STATE_COUNT_MS = 5_000;
    private static final int STATE_COUNT_STEP = 1_000;
    private static final long STATE_COUNT_MAX_MS = 30_000;

    private final Object task;
    private final IndexedPositions positions;
    private final GroupStore groups;
    private final PendingGroups pending;
    private final OldestPending oldestPending;
    private final GroupStateCounts stateCounts;
    private long nextOldestCheck;
    private long earliestOldestCheck;
    /** The partition whose commit the last walk found oldest, and that commit's time; null: none was pending. */
    private PositionKey oldestKey;
    private long oldestSince = -1;
    private long nextStateCount;

    /** @param task what the task's figures are kept under in the instance-wide gauges */
    TaskGauges(Object task, IndexedPositions positions, GroupStore groups, PendingGroups pending,
               SyncGauges instance) {
        this.task = task;
        this.positions = positions;
        this.groups = groups;
        this.pending = pending;
        this.oldestPending = instance.oldestPending();
        this.stateCounts = instance.stateCounts();
    }

    /** Refreshes what is due now. */
    void update(long now) {
        if (now >= nextOldestCheck || (now >= earliestOldestCheck && !oldestStillPending())) {
            long interval = Math.min(OLDEST_PENDING_CHECK_MAX_MS,
                    OLDEST_PENDING_CHECK_MS * (1 + pending.unsettledPositions() / OLDEST_PENDING_WALK_STEP));
            oldestPending.update(task, oldestPendingCommit());
            nextOldestCheck = now + interval;
            earliestOldestCheck = now + interval / OLDEST_PENDING_EARLY_SHARE;
        }
        if (now >= nextStateCount) {
            GroupStateCounts.Snapshot counts = countStates();
            stateCounts.update(task, counts);
            nextStateCount = now + Math.min(STATE_COUNT_MAX_MS,
                    STATE_COUNT_MS * (1 + counts.total() / STATE_COUNT_STEP));
        }
    }

    /** The task is closed: its figures leave the gauges. */
    void remove() {
        oldestPending.remove(task);
        stateCounts.remove(task);
    }

    /**
     * The time of the oldest source commit this task has still to write (the first commit since a partition was last
     * settled, for partitions still {@code PENDING}), or -1.
     */
    private long oldestPendingCommit() {
        long[] oldest = {Long.MAX_VALUE};
        PositionKey[] at = {null};
        pending.forEachPendingSince((key, since) -> {
            if (since < oldest[0]) {
                PartitionPosition pos = positions.get(key);
                if (pos != null && pos.status() == PositionStatus.PENDING) {
                    oldest[0] = since;
                    at[0] = key;
                }
            }
        });
        oldestKey = at[0];
        oldestSince = at[0] == null ? -1 : oldest[0];
        return oldestSince;
    }

    /**
     * True while what the last walk found still holds: the oldest commit it found is still unwritten, or it found
     * none and none came since. One lookup, no walk.
     */
    private boolean oldestStillPending() {
        if (oldestKey == null) {
            return pending.unsettledPositions() == 0;
        }
        PartitionPosition pos = positions.get(oldestKey);
        return pending.pendingSince(oldestKey) == oldestSince && pos != null
                && pos.status() == PositionStatus.PENDING;
    }

    private GroupStateCounts.Snapshot countStates() {
        GroupStateCounts.Snapshot counts = GroupStateCounts.Snapshot.empty();
        groups.forEach((group, record) -> {
            GroupStateCounts.State state = record.openReason() != null ? GroupStateCounts.State.REFUSED
                    : pending.isPending(group) ? GroupStateCounts.State.PENDING : GroupStateCounts.State.IN_SYNC;
            counts.groups()[record.type().ordinal()][state.ordinal()]++;
        });
        return new GroupStateCounts.Snapshot(counts.groups(), pending.unsettledPositions());
    }
}
