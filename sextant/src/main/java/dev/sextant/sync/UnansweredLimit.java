package dev.sextant.sync;

/**
 * How many groups an instance may have handed to the destination writers and not answered yet: about
 * {@link #QUEUED_MS} of writes at the rate the destination answered them lately, between {@link #MIN} and
 * {@link #MAX}.
 *
 * <p>Why a rate and not a fixed number: a write that waits longer than half a second reads its group again before it
 * is sent (two more requests), so what waits should wait as pending groups (where a newer commit joins the group's
 * one write) rather than in the writers' queue; but too few handed out leaves the destination idle between flushes.
 * A fixed number does one or the other, depending on how fast the destination answers: too low, writes answered
 * quickly wait for the next flush while the first tasks to flush take the room; too high, a slower destination
 * queues writes past the half second. Sized by the answer rate, what is handed out drains in under half a second
 * however fast the destination is.
 *
 * <p>Why sampled every {@value #SAMPLE_MS} ms, up at once and down by halves: the rate of a quiet spell says nothing
 * of the destination, so the limit starts low when a burst comes, and must grow fast; with every write answered before
 * the next flush it grows {@value #QUEUED_MS}/{@value #SAMPLE_MS}-fold per sample, so the sooner it samples, the sooner
 * it reaches the room the destination has, while the burst's new commits wait for it. Keeping a high limit
 * through the quiet spell instead is no better: a destination slower in the burst than before it (its machine busy
 * with the burst) would get more than it answers in half a second at once, and the writes that wait read their groups
 * again, which slows it more. Halving on a lower sample keeps one that caught no answer (answers land at flushes)
 * from emptying the limit.
 *
 * <p>Not thread-safe: one per task, on its stream thread; every task samples the same instance-wide count.
 */
public final class UnansweredLimit {

    /** The limit at the start, and at the least: a write cycle's worth at a slow destination. */
    public static final int MIN = 128;
    static final int MAX = 2_048;
    /** How long the writes handed out should take the destination, at the rate it answered them. */
    static final long QUEUED_MS = 400;
    static final long SAMPLE_MS = 250;
    /** Weight of a lower sample's rate in the smoothed one (a higher one is taken as it is). */
    private static final double DOWN_WEIGHT = 0.5;

    private long sampledAt = -1;
    private long answeredThen;
    /** Answers per ms, smoothed; the limit's own rate at the start. */
    private double perMs = (double) MIN / QUEUED_MS;
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
            double sample = (double) (answered - answeredThen) / (now - sampledAt);
            // up at once, down half way: a burst takes the room the destination answers in, while a sample that
            // caught no answer (they land at flushes) does not empty it
            perMs = sample >= perMs ? sample : DOWN_WEIGHT * sample + (1 - DOWN_WEIGHT) * perMs;
            limit = (int) Math.max(MIN, Math.min(MAX, Math.round(perMs * QUEUED_MS)));
            sampledAt = now;
            answeredThen = answered;
        }
        return limit;
    }
}
