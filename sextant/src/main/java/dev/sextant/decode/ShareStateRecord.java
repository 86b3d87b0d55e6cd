package dev.sextant.decode;

import dev.sextant.domain.StateBatch;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.common.Uuid;

/**
 * What one {@code __share_group_state} record means: the persisted state of one share partition, identified by
 * (group, topic id, partition). Produced by {@link ShareStateDecoder}.
 *
 * <p>Replay per key (the share coordinator's rule): a {@link ShareSnapshot} replaces the whole state; a
 * {@link ShareUpdate} merges into it; {@link ShareStateDeleted} removes it. All records of one key land on the same
 * state partition, in order.
 *
 * <p>Invariants shared by every variant: all references non-null, {@code partition() >= 0}, lists unmodifiable.
 * The topic id is the <em>source</em> cluster's; map it to a name (e.g. with
 * {@link ConsumerOffsetsRecord.ShareGroupTopics}) before touching another cluster.
 */
public sealed interface ShareStateRecord {

    String group();

    Uuid topicId();

    int partition();

    /**
     * A full snapshot ({@code ShareSnapshot}, key type 0) of the share partition's state.
     *
     * @param startOffset  the share-partition start offset (SPSO); may lag acknowledged batches that start at it
     * @param stateEpoch   bumped on re-initialisation (e.g. alterShareGroupOffsets); not a stable identifier
     * @param stateBatches the in-flight batches at and above {@code startOffset}
     */
    record ShareSnapshot(String group, Uuid topicId, int partition, int snapshotEpoch, int stateEpoch,
                         int leaderEpoch, long startOffset, List<StateBatch> stateBatches)
            implements ShareStateRecord {
        public ShareSnapshot {
            requireKey(group, topicId, partition);
            stateBatches = List.copyOf(stateBatches);
        }
    }

    /**
     * A delta ({@code ShareUpdate}, key type 1) to merge into the latest snapshot.
     *
     * @param startOffset  the new SPSO, or {@link #START_OFFSET_UNCHANGED}
     * @param stateBatches only the batches that changed
     */
    record ShareUpdate(String group, Uuid topicId, int partition, int snapshotEpoch, int leaderEpoch,
                       long startOffset, List<StateBatch> stateBatches) implements ShareStateRecord {

        /** {@link #startOffset()} value meaning the update does not move the SPSO. */
        public static final long START_OFFSET_UNCHANGED = -1L;

        public ShareUpdate {
            requireKey(group, topicId, partition);
            stateBatches = List.copyOf(stateBatches);
        }
    }

    /**
     * A tombstone of a snapshot or update key: the share partition's state was deleted (share group or offsets
     * deleted, or topic deleted).
     */
    record ShareStateDeleted(String group, Uuid topicId, int partition) implements ShareStateRecord {
        public ShareStateDeleted {
            requireKey(group, topicId, partition);
        }
    }

    private static void requireKey(String group, Uuid topicId, int partition) {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(topicId, "topicId");
        if (partition < 0) {
            throw new IllegalArgumentException("partition must be >= 0, was " + partition);
        }
    }
}
