package dev.sextant.testing;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.GroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.GroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.OffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.OffsetCommitValue;
import org.apache.kafka.coordinator.group.generated.ShareGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.ShareGroupStatePartitionMetadataKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupStatePartitionMetadataValue;
import org.apache.kafka.coordinator.group.generated.StreamsGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupMetadataValue;
import org.apache.kafka.coordinator.share.generated.ShareSnapshotKey;
import org.apache.kafka.coordinator.share.generated.ShareSnapshotValue;
import org.apache.kafka.coordinator.share.generated.ShareUpdateKey;
import org.apache.kafka.coordinator.share.generated.ShareUpdateValue;
import org.apache.kafka.streams.KeyValue;

/** Records as the brokers write them to their internal topics, built with Kafka's own writers. */
public final class CoordinatorRecords {

    private CoordinatorRecords() {
    }

    public static KeyValue<byte[], byte[]> offsetCommit(String group, String topic, int partition, long offset,
                                                        long commitTimestamp) {
        return offsetCommit(group, topic, partition, offset, commitTimestamp, "");
    }

    /** A commit with {@code metadata} (a Sextant's mark, when a Sextant wrote it). */
    public static KeyValue<byte[], byte[]> offsetCommit(String group, String topic, int partition, long offset,
                                                        long commitTimestamp, String metadata) {
        byte[] key = MessageUtil.toCoordinatorTypePrefixedBytes(
                new OffsetCommitKey().setGroup(group).setTopic(topic).setPartition(partition));
        byte[] value = MessageUtil.toVersionPrefixedBytes((short) 4, new OffsetCommitValue()
                .setOffset(offset).setLeaderEpoch(0).setMetadata(metadata).setCommitTimestamp(commitTimestamp));
        return KeyValue.pair(key, value);
    }

    public static KeyValue<byte[], byte[]> offsetDeleted(String group, String topic, int partition) {
        return KeyValue.pair(MessageUtil.toCoordinatorTypePrefixedBytes(
                new OffsetCommitKey().setGroup(group).setTopic(topic).setPartition(partition)), null);
    }

    public static KeyValue<byte[], byte[]> classicGroup(String group, String protocolType) {
        byte[] key = MessageUtil.toCoordinatorTypePrefixedBytes(new GroupMetadataKey().setGroup(group));
        byte[] value = MessageUtil.toVersionPrefixedBytes((short) 3, new GroupMetadataValue()
                .setProtocolType(protocolType).setGeneration(1).setProtocol("range").setLeader("m")
                .setCurrentStateTimestamp(0));
        return KeyValue.pair(key, value);
    }

    /**
     * The classic group's metadata record deleted (a group deletion, or an online migration to the consumer
     * protocol).
     */
    public static KeyValue<byte[], byte[]> classicGroupTombstone(String group) {
        return KeyValue.pair(MessageUtil.toCoordinatorTypePrefixedBytes(new GroupMetadataKey().setGroup(group)), null);
    }

    /** A KIP-848 consumer group's metadata record (key type 3). */
    public static KeyValue<byte[], byte[]> consumerGroup(String group) {
        byte[] key = MessageUtil.toCoordinatorTypePrefixedBytes(
                new ConsumerGroupMetadataKey().setGroupId(group));
        byte[] value = MessageUtil.toVersionPrefixedBytes((short) 0,
                new ConsumerGroupMetadataValue().setEpoch(1));
        return KeyValue.pair(key, value);
    }

    /** The consumer group's metadata record deleted (a deletion, or an online migration back to classic). */
    public static KeyValue<byte[], byte[]> consumerGroupTombstone(String group) {
        return KeyValue.pair(MessageUtil.toCoordinatorTypePrefixedBytes(
                new ConsumerGroupMetadataKey().setGroupId(group)), null);
    }

    /** A Kafka Streams group's metadata record (KIP-1071, key type 17). */
    public static KeyValue<byte[], byte[]> streamsGroup(String group) {
        byte[] key = MessageUtil.toCoordinatorTypePrefixedBytes(new StreamsGroupMetadataKey().setGroupId(group));
        byte[] value = MessageUtil.toVersionPrefixedBytes((short) 0,
                new StreamsGroupMetadataValue().setEpoch(1).setMetadataHash(3));
        return KeyValue.pair(key, value);
    }

    public static KeyValue<byte[], byte[]> shareGroup(String group) {
        byte[] key = MessageUtil.toCoordinatorTypePrefixedBytes(new ShareGroupMetadataKey().setGroupId(group));
        byte[] value = MessageUtil.toVersionPrefixedBytes((short) 0, new ShareGroupMetadataValue().setEpoch(1));
        return KeyValue.pair(key, value);
    }

    /** One state batch: {first, last, deliveryState} (0 available, 2 acknowledged, 4 archived). */
    public record Batch(long first, long last, int state) {
    }

    public static KeyValue<byte[], byte[]> shareSnapshot(String group, Uuid topicId, int partition, long startOffset,
                                                         Batch... batches) {
        byte[] key = MessageUtil.toCoordinatorTypePrefixedBytes(new ShareSnapshotKey().setGroupId(group)
                .setTopicId(topicId).setPartition(partition));
        byte[] value = MessageUtil.toVersionPrefixedBytes((short) 0, new ShareSnapshotValue().setSnapshotEpoch(0)
                .setStateEpoch(1).setLeaderEpoch(0).setStartOffset(startOffset).setStateBatches(
                        Arrays.stream(batches).map(b -> new ShareSnapshotValue.StateBatch()
                                .setFirstOffset(b.first()).setLastOffset(b.last()).setDeliveryState((byte) b.state())
                                .setDeliveryCount((short) 1)).toList()));
        return KeyValue.pair(key, value);
    }

    public static KeyValue<byte[], byte[]> shareUpdate(String group, Uuid topicId, int partition, long startOffset,
                                                       Batch... batches) {
        byte[] key = MessageUtil.toCoordinatorTypePrefixedBytes(new ShareUpdateKey().setGroupId(group)
                .setTopicId(topicId).setPartition(partition));
        byte[] value = MessageUtil.toVersionPrefixedBytes((short) 0, new ShareUpdateValue().setSnapshotEpoch(0)
                .setLeaderEpoch(0).setStartOffset(startOffset).setStateBatches(
                        Arrays.stream(batches).map(b -> new ShareUpdateValue.StateBatch()
                                .setFirstOffset(b.first()).setLastOffset(b.last()).setDeliveryState((byte) b.state())
                                .setDeliveryCount((short) 1)).toList()));
        return KeyValue.pair(key, value);
    }

    public static KeyValue<byte[], byte[]> shareStateDeleted(String group, Uuid topicId, int partition) {
        return KeyValue.pair(MessageUtil.toCoordinatorTypePrefixedBytes(new ShareSnapshotKey().setGroupId(group)
                .setTopicId(topicId).setPartition(partition)), null);
    }

    /** The share group's ShareGroupStatePartitionMetadata record: which topics (id and name) it initialized. */
    public static KeyValue<byte[], byte[]> shareGroupTopics(String group, Uuid topicId, String topic, int partitions) {
        byte[] key = MessageUtil.toCoordinatorTypePrefixedBytes(new ShareGroupStatePartitionMetadataKey()
                .setGroupId(group));
        List<Integer> parts = IntStream.range(0, partitions).boxed().toList();
        byte[] value = MessageUtil.toVersionPrefixedBytes((short) 0, new ShareGroupStatePartitionMetadataValue()
                .setInitializedTopics(List.of(new ShareGroupStatePartitionMetadataValue.TopicPartitionsInfo()
                        .setTopicId(topicId).setTopicName(topic).setPartitions(parts))));
        return KeyValue.pair(key, value);
    }

    /** A MirrorMaker 2 offset sync: key = topic (int16 length + UTF-8), partition; value = upstream, downstream. */
    public static KeyValue<byte[], byte[]> offsetSync(String topic, int partition, long upstream, long downstream) {
        byte[] name = topic.getBytes(StandardCharsets.UTF_8);
        byte[] key = ByteBuffer.allocate(2 + name.length + 4).putShort((short) name.length).put(name)
                .putInt(partition).array();
        byte[] value = ByteBuffer.allocate(16).putLong(upstream).putLong(downstream).array();
        return KeyValue.pair(key, value);
    }
}
