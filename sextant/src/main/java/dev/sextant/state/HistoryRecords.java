package dev.sextant.state;

import dev.sextant.translate.OffsetSyncPoint;
import org.apache.kafka.common.utils.Bytes;

/**
 * The records of Sextant's offset-sync history topic ({@code <application.id>-offset-sync-history}, compacted, keyed
 * by {@link OffsetSyncKeys}) and what each does to a copy of the history:
 *
 * <pre>
 *   key (topic, partition, upstream), value downstream   a sync: stored
 *   key (topic, partition, upstream), no value           a tombstone (pruned): that sync is forgotten
 *   key (topic, partition, RESET)                        a reset marker: every sync of the partition is forgotten
 *   key (topic, partition, REWIND), value two offsets    where the partition's mirror last went back (MirrorRewind)
 *   key (topic, 0, INCARNATION), value topic id         the source topic id the topic's history belongs to
 *   key (topic, 0, MIRROR_INCARNATION), value topic id  the mirror topic's id on the destination it describes
 *   key (".", 0, DESTINATION_CLUSTER), value cluster id the destination cluster Sextant writes to (its pin)
 * </pre>
 *
 * Every instance replays the topic in order into its global store, and the failover command into memory, so all
 * copies agree.
 */
public final class HistoryRecords {

    private HistoryRecords() {
    }

    /**
     * Applies one record of the history topic.
     *
     * @throws IllegalArgumentException when the record is not one Sextant writes (no key, or bytes laid out otherwise:
     *     see {@link OffsetSyncKeys#decode}); nothing is changed then
     */
    public static void replay(Bytes key, byte[] value, WritableSyncHistory history) {
        if (key == null) {
            throw new IllegalArgumentException("offset-sync history record without a key");
        }
        OffsetSyncPoint point = OffsetSyncKeys.decode(key, value);
        if (point.upstreamOffset() == OffsetSyncKeys.INCARNATION) {
            history.incarnation(point.topic(), value == null ? null : OffsetSyncKeys.incarnationOf(value));
        } else if (point.upstreamOffset() == OffsetSyncKeys.DESTINATION_CLUSTER) {
            history.destinationCluster(value == null ? null : OffsetSyncKeys.clusterOf(value));
        } else if (point.upstreamOffset() == OffsetSyncKeys.MIRROR_INCARNATION) {
            history.mirrorIncarnation(point.topic(), value == null ? null : OffsetSyncKeys.incarnationOf(value));
        } else if (point.upstreamOffset() == OffsetSyncKeys.REWIND) {
            history.rewound(point.topic(), point.partition(), value == null ? null : OffsetSyncKeys.rewindOf(value));
        } else if (point.upstreamOffset() == OffsetSyncKeys.RESET) {
            history.deletePartition(point.topic(), point.partition());
        } else if (value == null) {
            history.delete(point.topic(), point.partition(), point.upstreamOffset());
        } else if (point.downstreamOffset() < 0) {
            throw new IllegalArgumentException("offset-sync history record for " + point.topic() + "-"
                    + point.partition() + "@" + point.upstreamOffset() + " with an empty value");
        } else {
            history.put(point);
        }
    }
}
