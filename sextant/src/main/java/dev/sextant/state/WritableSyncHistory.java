package dev.sextant.state;

import dev.sextant.domain.MirrorRewind;
import dev.sextant.translate.OffsetSyncPoint;
import dev.sextant.translate.SyncHistory;
import org.apache.kafka.common.Uuid;

/**
 * A copy of the offset-sync history that the records of Sextant's history topic are replayed into
 * ({@link HistoryRecords#replay}): the global store on every instance, or an in-memory copy for the failover command.
 */
public interface WritableSyncHistory extends SyncHistory {

    void put(OffsetSyncPoint sync);

    void delete(String topic, int partition, long upstreamOffset);

    /** Forgets the whole history of the partition (a new source log: see {@link HistoryRecords}). */
    void deletePartition(String topic, int partition);

    /**
     * The source topic id the topic's history belongs to from now on (null: not known). By default not kept (a copy
     * that only translates does not need it).
     */
    default void incarnation(String topic, Uuid topicId) {
    }

    /**
     * The destination id of the topic's mirror that the history's downstream offsets are of (null: not known). By
     * default not kept.
     */
    default void mirrorIncarnation(String topic, Uuid topicId) {
    }

    /**
     * Where the partition's mirror last went back (null: forgotten), read after the tombstones of the syncs it
     * contradicts. By default not kept.
     */
    default void rewound(String topic, int partition, MirrorRewind rewind) {
    }

    /** The destination cluster id Sextant writes to from now on (null: not pinned). By default not kept. */
    default void destinationCluster(String clusterId) {
    }
}
