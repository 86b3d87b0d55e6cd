package dev.sextant.history;

import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.MirrorRewind;
import dev.sextant.translate.OffsetSyncPoint;
import org.apache.kafka.common.Uuid;

/**
 * Where the offset-sync intake's decisions go ({@link OffsetSyncIntake}): Sextant's history topic (syncs, tombstones,
 * reset, rewind and incarnation markers) and the dead-letter topic. The Kafka Streams shell forwards each to its sink.
 */
public interface HistorySink {

    /** A sync to keep: upstream offset to downstream offset of a source partition. */
    void sync(OffsetSyncPoint sync, long timestamp);

    /** A tombstone for a sync kept before. */
    void forget(String topic, int partition, long upstreamOffset, long timestamp);

    /** A reset marker: the partition's history is forgotten as a whole. */
    void reset(String topic, int partition, long timestamp);

    /**
     * Where the partition's mirror went back (after the tombstones of the syncs the rewind contradicts): the sync
     * engines plan again what they translated at or past it, and do not keep what the destination holds there.
     */
    void rewound(String topic, int partition, MirrorRewind rewind, long timestamp);

    /** The source topic's id the history now describes. */
    void incarnation(String topic, Uuid id, long timestamp);

    /** The destination id of the source topic's mirror that the history now describes. */
    void mirrorIncarnation(String topic, Uuid id, long timestamp);

    /** The destination cluster Sextant writes to: pinned. */
    void destinationCluster(String clusterId, long timestamp);

    void deadLetter(DeadLetterRecord record, long timestamp);

    /**
     * The last sync a starting instance waits for was read: its groups wait for the committed offsets to pass
     * it, so the processor should commit now rather than at the next commit interval.
     */
    void commitSoon();
}
