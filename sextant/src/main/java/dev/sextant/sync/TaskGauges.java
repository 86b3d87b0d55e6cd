package dev.sextant.sync;

import dev.sextant.metrics.GroupStateCounts;
import dev.sextant.metrics.OldestPending;
import dev.sextant.state.GroupStore;
import dev.sextant.state.PartitionPosition;
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
        if (now >= nextOldestCheck) {
            oldestPending.update(task, oldestPendingCommit());
            nextOldestCheck = now + Math.min(OLDEST_PENDING_CHECK_MAX_MS,
                    OLDEST_PENDING_CHECK_MS * (1 + pending.unsettledPositions() / OLDEST_PENDING_WALK_STEP));
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
        pending.forEachPendingSince((key, since) -> {
            if (since < oldest[0]) {
                PartitionPosition pos = positions.get(key);
                if (pos != null && pos.status() == PositionStatus.PENDING) {
                    oldest[0] = since;
                }
            }
        });
        return oldest[0] == Long.MAX_VALUE ? -1 : oldest[0];
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
