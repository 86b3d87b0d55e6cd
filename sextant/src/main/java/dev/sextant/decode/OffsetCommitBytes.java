package dev.sextant.decode;

import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.coordinator.group.generated.OffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.OffsetCommitValue;

/**
 * An offset commit, or its deletion, written as the group coordinator writes it to {@code __consumer_offsets}: key
 * type 1 {@code OffsetCommit}, value version 3 (with the leader epoch), a null value for a tombstone. With
 * {@code source.offsets.read=admin} Sextant writes the commits the Admin API answered this way, so the sync reads them
 * with {@link ConsumerOffsetsDecoder} as it reads the log, and nothing downstream tells them apart.
 *
 * <p>Invariant: {@code ConsumerOffsetsDecoder.decode(key(g, t, p), value(o, e, m, ts))} is
 * {@code OffsetCommit(g, t, p, o, e, m, ts)}, and with a null value {@code OffsetDeleted(g, t, p)}.
 */
public final class OffsetCommitBytes {

    /** The value version Kafka's coordinator writes for a commit with a leader epoch (since Kafka 2.1). */
    static final short VALUE_VERSION = 3;

    private OffsetCommitBytes() {
    }

    /** The record key of a group's commit on one partition. */
    public static byte[] key(String group, String topic, int partition) {
        return MessageUtil.toCoordinatorTypePrefixedBytes(
                new OffsetCommitKey().setGroup(group).setTopic(topic).setPartition(partition));
    }

    /**
     * The record value of a commit.
     *
     * @param leaderEpoch     the leader epoch the client committed with, -1 when unknown
     * @param metadata        the client's commit metadata; null is written as {@code ""}
     * @param commitTimestamp when the commit was made (with the Admin API: when it was first seen), ms since epoch
     */
    public static byte[] value(long offset, int leaderEpoch, String metadata, long commitTimestamp) {
        return MessageUtil.toVersionPrefixedBytes(VALUE_VERSION, new OffsetCommitValue().setOffset(offset)
                .setLeaderEpoch(leaderEpoch).setMetadata(metadata == null ? "" : metadata)
                .setCommitTimestamp(commitTimestamp));
    }
}
