package dev.sextant.sync;

/**
 * Something other than a new source commit that makes a task's positions worth planning again: a closer offset sync
 * ({@link BoundedPositions}), a sync that covers an offset none did ({@link UncoveredPositions}), a mirror that caught
 * up past a position written at its end ({@link ClampedPositions}), a proof of an interval between syncs
 * ({@link ProvenIntervals}), a history forgotten as a whole ({@link HistoryResets}), the destination's offsets
 * retention ({@link OffsetRefresh}), a late write of a previous owner ({@link TakeoverAudit}).
 *
 * <p>The flush asks each trigger once per flush, after the destination's answers are settled and only once the
 * destination view and the offset-sync history are complete, and each marks what is due in the pending set. A
 * trigger costs what changed since it was last asked, never a walk of every position at every flush.
 */
interface ReplanTrigger {

    /** Marks the positions due now in {@code pending} (and, where the position itself must change, stores it). */
    void markDue(long now, PendingGroups pending);
}
