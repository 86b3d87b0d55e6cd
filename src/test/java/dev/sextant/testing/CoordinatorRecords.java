package dev.sextant.testing;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.coordinator.group.generated.GroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.GroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.OffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.OffsetCommitValue;
import org.apache.kafka.coordinator.group.generated.ShareGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupMetadataValue;
import org.apache.kafka.streams.KeyValue;

/** Records as the brokers write them to their internal topics, built with Kafka's own writers. */
public final class CoordinatorRecords {

    private CoordinatorRecords() {
    }

    public static KeyValue<byte[], byte[]> offsetCommit(String group, String topic, int partition, long offset,
                                                        long commitTimestamp) {
        byte[] key = MessageUtil.toCoordinatorTypePrefixedBytes(
                new OffsetCommitKey().setGroup(group).setTopic(topic).setPartition(partition));
        byte[] value = MessageUtil.toVersionPrefixedBytes((short) 4, new OffsetCommitValue()
                .setOffset(offset).setLeaderEpoch(0).setMetadata("").setCommitTimestamp(commitTimestamp));
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

    public static KeyValue<byte[], byte[]> shareGroup(String group) {
        byte[] key = MessageUtil.toCoordinatorTypePrefixedBytes(new ShareGroupMetadataKey().setGroupId(group));
        byte[] value = MessageUtil.toVersionPrefixedBytes((short) 0, new ShareGroupMetadataValue().setEpoch(1));
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
