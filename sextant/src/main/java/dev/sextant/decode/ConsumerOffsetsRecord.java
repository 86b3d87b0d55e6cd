package dev.sextant.decode;

import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.Uuid;

/**
 * What one {@code __consumer_offsets} record means to Sextant. Produced by {@link ConsumerOffsetsDecoder}.
 *
 * <p>Invariants shared by every variant: all references are non-null; {@link #group()} is the group id from the
 * record key, possibly {@code ""} (old clients could commit under the empty group id).
 */
public sealed interface ConsumerOffsetsRecord {

    /** The group id from the record key. */
    String group();

    /**
     * A committed offset: key type 1 {@code OffsetCommit} (value v0–v4) or legacy key type 0.
     * The record does not say which kind of group committed it; correlate with {@link GroupTypeSeen} by group id
     * (classic, consumer, streams and "simple" groups all commit this way; share groups never do).
     *
     * @param partition       ≥ 0
     * @param leaderEpoch     leader epoch of the last consumed record, or -1 when unknown (value v0–v2, legacy)
     * @param metadata        the client's commit metadata, {@code ""} when none
     * @param commitTimestamp broker time of the commit, ms since epoch
     */
    record OffsetCommit(String group, String topic, int partition, long offset, int leaderEpoch, String metadata,
                        long commitTimestamp) implements ConsumerOffsetsRecord {
        public OffsetCommit {
            Objects.requireNonNull(group, "group");
            Objects.requireNonNull(topic, "topic");
            Objects.requireNonNull(metadata, "metadata");
            requirePartition(partition);
        }
    }

    /**
     * An offset tombstone (key type 0 or 1, null value): offset delete, expiry, topic deletion or group deletion.
     *
     * @param partition ≥ 0
     */
    record OffsetDeleted(String group, String topic, int partition) implements ConsumerOffsetsRecord {
        public OffsetDeleted {
            Objects.requireNonNull(group, "group");
            Objects.requireNonNull(topic, "topic");
            requirePartition(partition);
        }
    }

    /**
     * A group-defining metadata record (not a tombstone) revealing the group's kind: key type 2
     * {@code GroupMetadata} (CLASSIC), 3 {@code ConsumerGroupMetadata} (CONSUMER), 11 {@code ShareGroupMetadata}
     * (SHARE) or 17 {@code StreamsGroupMetadata} (STREAMS).
     *
     * @param protocolType for CLASSIC the value's protocol type as written by the client ({@code "consumer"},
     *                     {@code "connect"}, {@code ""} for a simple group, …); for the other kinds the fixed
     *                     protocol type the broker reports in ListGroups: {@code "consumer"}, {@code "share"},
     *                     {@code "streams"}
     */
    record GroupTypeSeen(String group, GroupType type, String protocolType) implements ConsumerOffsetsRecord {
        public GroupTypeSeen {
            Objects.requireNonNull(group, "group");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(protocolType, "protocolType");
        }
    }

    /** A tombstone of one of the four group-defining types (2, 3, 11, 17): the group of that kind is gone. */
    record GroupDeleted(String group, GroupType type) implements ConsumerOffsetsRecord {
        public GroupDeleted {
            Objects.requireNonNull(group, "group");
            Objects.requireNonNull(type, "type");
        }
    }

    /**
     * The complete topic id → name map of a share group's state, from key type 15
     * {@code ShareGroupStatePartitionMetadata}: initializing and initialized topics; topics being deleted are left
     * out. The record is per group and compacted, so each one <em>replaces</em> the previous map for the group.
     * A type-15 tombstone (written when the share group is deleted) decodes to an empty map.
     *
     * @param topicNamesById unmodifiable
     */
    record ShareGroupTopics(String group, Map<Uuid, String> topicNamesById) implements ConsumerOffsetsRecord {
        public ShareGroupTopics {
            Objects.requireNonNull(group, "group");
            topicNamesById = Map.copyOf(topicNamesById);
        }
    }

    /**
     * Any other known group-internal record (types 4–8, 10, 12–14, 16, 19–23), value or tombstone: members,
     * assignments, subscriptions, topologies. Sextant needs only that the group id exists with this kind; the value
     * is not decoded beyond its version prefix.
     */
    record GroupMemberRecord(String group, GroupType type) implements ConsumerOffsetsRecord {
        public GroupMemberRecord {
            Objects.requireNonNull(group, "group");
            Objects.requireNonNull(type, "type");
        }
    }

    private static void requirePartition(int partition) {
        if (partition < 0) {
            throw new IllegalArgumentException("partition must be >= 0, was " + partition);
        }
    }
}
