package dev.sextant.translate;

import java.util.Optional;

/**
 * The offset syncs known for each source partition, as translation reads them. Implemented by the RocksDB-backed
 * store the topology keeps ({@code state.OffsetSyncStore}) and by an in-memory copy ({@code state.InMemorySyncHistory},
 * used by the failover command and by tests), so the translation rule runs the same everywhere.
 */
public interface SyncHistory {

    /**
     * The newest sync of the partition whose upstream offset is at or below {@code upstreamOffset}; empty when there
     * is none (no history, or every sync lies above it) or when {@code upstreamOffset} is negative.
     */
    Optional<OffsetSyncPoint> latestAtOrBelow(String topic, int partition, long upstreamOffset);

    /**
     * The oldest sync of the partition whose upstream offset lies strictly above {@code upstreamOffset}: the upper
     * end of the interval a commit falls in. Empty when there is none; a history that cannot tell answers empty,
     * and translation then keeps the bounded rule.
     */
    default Optional<OffsetSyncPoint> earliestAbove(String topic, int partition, long upstreamOffset) {
        return Optional.empty();
    }

    /** The partition's sync with the highest upstream offset; empty when it has none. */
    default Optional<OffsetSyncPoint> newest(String topic, int partition) {
        return latestAtOrBelow(topic, partition, Long.MAX_VALUE);
    }
}
