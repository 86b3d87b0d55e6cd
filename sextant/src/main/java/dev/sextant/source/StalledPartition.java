package dev.sextant.source;

import java.util.Optional;

/**
 * Whether a partition of {@code __consumer_offsets} is held back by an open transaction, and which stretch of it to
 * read past that transaction. A transactional offset commit (Kafka Streams under exactly-once, any
 * consume-transform-produce application) is written inside the producer's transaction; until the transaction ends
 * the partition's last stable offset stays at its first record, and Sextant, which reads {@code read_committed} so
 * that an aborted commit is never synced, sees nothing after it, also not the commits of every other group on the
 * partition. A transaction left open by an application that died lasts up to its timeout (15 minutes at most).
 *
 * <p>Verdict: stalled when the last stable offset is below the high watermark and has not moved for
 * {@link #STALL_MS}; then the stretch from the last stable offset (or where the previous read ended) to the high
 * watermark is to be read. Busy transactional traffic moves the last stable offset all the time, so it is never
 * taken for a stall. Pure; one instance per partition, used by one thread.
 */
final class StalledPartition {

    /** How long the last stable offset must stand still below the high watermark to count as held back. */
    static final long STALL_MS = 1_000;

    /** A stretch {@code [from, to)} of the partition to read past the open transaction. */
    record Stretch(long from, long to) {
    }

    private long lastStable = -1;
    private long since;
    private long readTo = -1;

    /**
     * The partition's ends now; the stretch to read, if it is held back and something new lies past what was read.
     */
    Optional<Stretch> observe(long stable, long highWatermark, long now) {
        if (stable >= highWatermark) {
            lastStable = -1;
            readTo = -1;
            return Optional.empty();
        }
        if (stable != lastStable) {
            lastStable = stable;
            since = now;
            readTo = -1;
            return Optional.empty();
        }
        long from = Math.max(stable, readTo);
        if (now - since < STALL_MS || from >= highWatermark) {
            return Optional.empty();
        }
        return Optional.of(new Stretch(from, highWatermark));
    }

    /** The stretch was read up to {@code end} (exclusive): the next read starts there. */
    void readUpTo(long end) {
        readTo = Math.max(readTo, end);
    }

    /** True while the partition counts as held back. */
    boolean stalled(long now) {
        return lastStable >= 0 && now - since >= STALL_MS;
    }
}
