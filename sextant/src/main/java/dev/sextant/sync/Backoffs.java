package dev.sextant.sync;

import java.util.concurrent.ThreadLocalRandom;

/**
 * How long a group or a partition that could not be written is left alone before it is planned again. One place for
 * the pauses, so the planner (what stands in the way before a write) and the settler (what the destination answered)
 * agree on them.
 *
 * <p>Four kinds of wait: a <em>backoff</em> holds a whole group (a guard refused it, the destination showed foreign
 * offsets, a write failed); a <em>park</em> holds one partition waiting on something outside Sextant (a mirror topic,
 * an offset sync); a <em>retry delay</em> grows with consecutive failed writes and is jittered; and while a task
 * reads a backlog of commits, a group is planned at most once per {@link #BACKLOG_GROUP_INTERVAL_MS}.
 */
public final class Backoffs {

    /**
     * While the task reads a backlog of commits, a group is planned at most this often: its write then carries the
     * newest of the commits read meanwhile instead of one write per commit, and the stream thread spends its time
     * reading. A backlog that never ends still writes every group this often.
     */
    public static final long BACKLOG_GROUP_INTERVAL_MS = 5_000;
    /** Pause after a guard refused a group (type conflict, members on the destination). */
    static final long GUARD_MS = 1_000;
    /** Pause after the destination showed offsets Sextant did not write. */
    static final long DIVERGED_MS = 10_000;
    /** Pause after a write failed for a transient reason, and the shortest park of a waiting partition. */
    static final long RETRY_MS = 1_000;
    /** The longest pause between retries of a failing group's write. */
    static final long MAX_RETRY_MS = 30_000;
    /** The longest park of a partition whose offset lies below its oldest offset sync. */
    static final long MAX_PARK_MS = 30_000;
    /** Doublings of {@link #RETRY_MS} at most: 2^10 s is past {@link #MAX_RETRY_MS} already; the shift stays small. */
    private static final int MAX_DOUBLINGS = 10;

    private Backoffs() {
    }

    /**
     * The pause after {@code failures} consecutive failed writes: {@link #RETRY_MS} after the first, doubling up to
     * {@link #MAX_RETRY_MS}, each drawn from its upper half so that the groups of a long outage do not all come
     * back in the same flush.
     */
    static long retryDelay(int failures) {
        long delay = Math.min(MAX_RETRY_MS, RETRY_MS << Math.min(failures - 1, MAX_DOUBLINGS));
        return delay / 2 + ThreadLocalRandom.current().nextLong(delay / 2 + 1);
    }

    /**
     * How long a partition below its oldest sync is parked after waiting {@code waitedMs}: {@link #RETRY_MS} at
     * first, then half the time it has waited, at most {@link #MAX_PARK_MS}; never past {@code untilReportedMs}, the
     * moment its wait becomes a dead-letter reason, so that is reported on time.
     */
    static long parkBelowOldestSync(long waitedMs, long untilReportedMs) {
        long delay = Math.max(RETRY_MS, Math.min(MAX_PARK_MS, waitedMs / 2));
        return untilReportedMs > 0 ? Math.max(1, Math.min(delay, untilReportedMs)) : delay;
    }
}
