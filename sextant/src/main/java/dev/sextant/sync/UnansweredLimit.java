package dev.sextant.sync;

/**
 * How many groups an instance may have handed to the destination writers and not answered yet: about
 * {@link #QUEUED_MS} of writes at the rate the destination answered them over the last second, between
 * {@link #MIN} and {@link #MAX}.
 *
 * <p>Why a rate and not a fixed number: a write that waits longer than half a second reads its group again before it
 * is sent (two more requests), so what waits should wait as pending groups (where a newer commit joins the group's
 * one write) rather than in the writers' queue; but too few handed out leaves the destination idle between flushes.
 * A fixed number does one or the other, depending on how fast the destination answers: too low, writes answered
 * quickly wait for the next flush while the first tasks to flush take the room; too high, a slower destination
 * queues writes past the half second. Sized by the answer rate, what is handed out drains in under half a second
 * however fast the destination is; the limit grows by at most {@code 4 x QUEUED_MS / 1000} per second (at four
 * flushes a second) while the destination keeps up.
 *
 * <p>Not thread-safe: one per task, on its stream thread; every task samples the same instance-wide count.
 */
public final class UnansweredLimit {

    /** The limit at the start, and at the least: a write cycle's worth at a slow destination. */
    public static final int MIN = 128;
    static final int MAX = 2_048;
    /** How long the writes handed out should take the destination, at the rate it answered them. */
    static final long QUEUED_MS = 400;
    private static final long SAMPLE_MS = 1_000;

    private long sampledAt = -1;
    private long answeredThen;
    private int limit = MIN;

    /**
     * The limit now.
     *
     * @param answered groups answered so far on this instance (a count that only grows)
     */
    int limit(long now, long answered) {
        if (sampledAt < 0) {
            sampledAt = now;
            answeredThen = answered;
        } else if (now - sampledAt >= SAMPLE_MS) {
            double perMs = (double) (answered - answeredThen) / (now - sampledAt);
            limit = (int) Math.max(MIN, Math.min(MAX, Math.round(perMs * QUEUED_MS)));
            sampledAt = now;
            answeredThen = answered;
        }
        return limit;
    }
}
