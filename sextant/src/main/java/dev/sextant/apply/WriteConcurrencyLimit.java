package dev.sextant.apply;

import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * How many offset writes may be in flight to the destination at once, adapted to what the destination absorbs
 * (TCP Vegas: grow while few writes queue, shrink when many do).
 *
 * <p>Each answered write is a latency sample. The smallest latency of the last {@value #BASELINE_WINDOW_SECONDS}
 * to {@value #BASELINE_WINDOW_SECONDS}&times;2 seconds, plus a few milliseconds of slack, stands for the destination
 * without a queue; a smoothed recent latency for what writes cost now. From the two, the writes queued at the
 * destination are estimated as {@code limit × (1 − baseline / recent)}:
 * <pre>
 *   queued &lt; alpha (3, or 3·log10(limit))   and every slot in use  →  limit + 1 per limit's worth of answers
 *   queued &gt; beta  (6, or 6·log10(limit))                         →  limit × {@value #DECREASE}
 *   a write timed out or was disconnected                          →  limit × {@value #DECREASE}
 * </pre>
 * The estimate and the slack are what make it hold up on a busy machine: latency that grows while few writes are in
 * flight (CPU contention, a slow network) is not a queue Sextant can shorten, and with a small limit the estimate stays
 * small however slow the answers; tens of milliseconds more than the baseline are within the slack at any limit. A
 * rule on latency alone (lower the limit whenever the recent latency passes a multiple of the baseline) reads such
 * slowness as load: it keeps the limit near 1, and the writes queue here instead.
 *
 * <p>Invariants: {@code 1 <= limit() <= max()}; {@link #tryAcquire()} gives a permit only while fewer than
 * {@code limit()} are held, so at most {@code limit()} writes are in flight, except right after a decrease, when the
 * ones already sent finish; a decrease happens at most once per round of writes: answers to writes sent before the
 * last decrease do not lower the limit again. Writes refused for a reason about the group, or not sent at all, leave
 * the limit and the latencies as they are. Thread-safe: writes complete on Admin client threads.
 */
final class WriteConcurrencyLimit {

    /** How an acquired write ended, as far as the destination's load goes. */
    enum Outcome {
        /** The destination answered the write (per-partition errors included): its latency is a sample. */
        ANSWERED,
        /** Timed out, disconnected or another transient failure: the destination may be overloaded. */
        CONGESTED,
        /**
         * Says nothing about the load: refused for a reason about the group (active, another type, not authorized),
         * failed for a reason unrelated to load, or not sent at all.
         */
        NEUTRAL
    }

    /** A slot for one write, given back once with {@link #release}. */
    static final class Permit {
        private final long acquiredAt;
        private final long decreasesBefore;
        private boolean released;

        private Permit(long acquiredAt, long decreasesBefore) {
            this.acquiredAt = acquiredAt;
            this.decreasesBefore = decreasesBefore;
        }
    }

    static final int INITIAL = 4;
    /** Below this many estimated queued writes (or 3·log10(limit)) the limit may rise. */
    static final double ALPHA = 3;
    /** Above this many (or 6·log10(limit)) it falls. */
    static final double BETA = 6;
    static final double DECREASE = 0.75;
    /**
     * Added to the baseline: answers slower than the baseline by less than this are not a queue at the destination
     * worth shortening. A local broker answers in a millisecond or two; on a busy machine (cores shared with the
     * brokers and the source's load) the same answers take tens of milliseconds of scheduling delay at any limit, and
     * reading that as a queue held the limit low while a backlog grew behind it (bench/README.md, issue 49's lab
     * notes). Writes that wait longer than this at the destination still lower the limit.
     */
    static final long SLACK_NANOS = 50_000_000L;
    static final long BASELINE_WINDOW_SECONDS = 10;
    private static final long BASELINE_WINDOW_NANOS = BASELINE_WINDOW_SECONDS * 1_000_000_000L;
    /** Weight of a new sample in the recent latency: a handful of writes, so one slow answer does not decide. */
    private static final double SMOOTHING = 0.2;

    private final int max;
    private final LongSupplier nanoTime;

    private int limit;
    // answered writes since the limit last changed, while saturated: a limit's worth of them is a round
    private int answeredInRound;
    private int inFlight;
    private long decreases;
    private double recentNanos = -1;
    // windowed minimum in two halves: the current window's and the previous one's, so the baseline follows a
    // destination whose no-queue latency changes (moved, failed over) within two windows
    private long windowStart;
    private long windowMinNanos = Long.MAX_VALUE;
    private long previousWindowMinNanos = Long.MAX_VALUE;

    /**
     * @param max      the most writes in flight ({@code sync.write.parallelism})
     * @param nanoTime a monotonic clock in nanoseconds ({@code System::nanoTime})
     */
    WriteConcurrencyLimit(int max, LongSupplier nanoTime) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be at least 1: " + max);
        }
        this.max = max;
        this.nanoTime = nanoTime;
        this.limit = Math.min(INITIAL, max);
        this.windowStart = nanoTime.getAsLong();
    }

    /** A permit if fewer than {@link #limit()} writes are in flight, else empty (the write waits). */
    synchronized Optional<Permit> tryAcquire() {
        if (inFlight >= limit) {
            return Optional.empty();
        }
        inFlight++;
        return Optional.of(new Permit(nanoTime.getAsLong(), decreases));
    }

    /** Gives the permit back with how its write ended; the limit adapts to it. */
    synchronized void release(Permit permit, Outcome outcome) {
        if (permit.released) {
            throw new IllegalStateException("permit released twice");
        }
        permit.released = true;
        // every slot was in use up to this answer: only then does a fast answer show the destination absorbs more
        boolean saturated = inFlight >= limit;
        inFlight--;
        long now = nanoTime.getAsLong();
        switch (outcome) {
            case ANSWERED -> answered(permit, now - permit.acquiredAt, now, saturated);
            case CONGESTED -> decrease(permit);
            case NEUTRAL -> {
                // a group refusal is answered without writing the log: its latency would drag the baseline down
            }
        }
    }

    private void answered(Permit permit, long latencyNanos, long now, boolean saturated) {
        long baseline = baseline(Math.max(0, latencyNanos), now);
        recentNanos = recentNanos < 0 ? latencyNanos : recentNanos + SMOOTHING * (latencyNanos - recentNanos);
        double queued = limit * Math.max(0, 1 - (baseline + SLACK_NANOS) / Math.max(1, recentNanos));
        double scale = Math.log10(limit);
        if (queued > Math.max(BETA, BETA * scale)) {
            decrease(permit); // writes queue at the destination: fewer in flight, before it times out
        } else if (queued < Math.max(ALPHA, ALPHA * scale) && saturated && ++answeredInRound >= limit) {
            limit = Math.min(max, limit + 1);
            answeredInRound = 0;
        }
    }

    private long baseline(long latencyNanos, long now) {
        if (now - windowStart >= BASELINE_WINDOW_NANOS) {
            // after a quiet spell longer than both windows, neither says anything about the destination now
            previousWindowMinNanos = now - windowStart >= 2 * BASELINE_WINDOW_NANOS ? Long.MAX_VALUE : windowMinNanos;
            windowMinNanos = Long.MAX_VALUE;
            windowStart = now;
        }
        windowMinNanos = Math.min(windowMinNanos, latencyNanos);
        return Math.min(windowMinNanos, previousWindowMinNanos);
    }

    private void decrease(Permit permit) {
        if (permit.decreasesBefore != decreases) {
            return; // sent under the limit before the last decrease, which already answered the load it met
        }
        limit = Math.max(1, (int) (limit * DECREASE));
        answeredInRound = 0;
        decreases++;
    }

    /** How many writes may be in flight now, 1 to {@link #max()}. */
    synchronized int limit() {
        return limit;
    }

    synchronized int inFlight() {
        return inFlight;
    }

    int max() {
        return max;
    }
}
