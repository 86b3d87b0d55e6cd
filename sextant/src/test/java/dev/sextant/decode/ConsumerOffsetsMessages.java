package dev.sextant.decode;

import static dev.sextant.decode.Bytes.key;
import static dev.sextant.decode.Bytes.value;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.GroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.GroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.LegacyOffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.LegacyOffsetCommitValue;
import org.apache.kafka.coordinator.group.generated.OffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.OffsetCommitValue;
import org.apache.kafka.coordinator.group.generated.ShareGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupStatePartitionMetadataKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupStatePartitionMetadataValue;
import org.apache.kafka.coordinator.group.generated.ShareGroupStatePartitionMetadataValue.TopicInfo;
import org.apache.kafka.coordinator.group.generated.ShareGroupStatePartitionMetadataValue.TopicPartitionsInfo;
import org.apache.kafka.coordinator.group.generated.StreamsGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupMetadataValue;

/**
 * {@code __consumer_offsets} records for {@link ConsumerOffsetsDecoderTest}, built with Kafka's generated classes:
 * the messages where a test changes a field or picks the version, key bytes and value bytes elsewhere.
 */
final class ConsumerOffsetsMessages {

    private static final Uuid TOPIC_ID = Uuid.fromString("AAAAAAAAAAAAAAAAAAAAAQ");

    private ConsumerOffsetsMessages() {
    }

    /** Type 1: group "g1", topic "t", partition 3. */
    static OffsetCommitKey commitKey() {
        return new OffsetCommitKey().setGroup("g1").setTopic("t").setPartition(3);
    }

    /** Every field set; writing at an older version drops the ignorable ones it does not have. */
    static OffsetCommitValue commitValue() {
        return new OffsetCommitValue().setOffset(42).setLeaderEpoch(7).setMetadata("m").setCommitTimestamp(1000)
                .setExpireTimestamp(5000).setTopicId(TOPIC_ID);
    }

    /** Type 0. */
    static byte[] legacyCommitKey(String group, String topic, int partition) {
        return key(new LegacyOffsetCommitKey().setGroup(group).setTopic(topic).setPartition(partition));
    }

    /** Type 0's value, version 0. */
    static byte[] legacyCommitValue(long offset, String metadata, long commitTimestamp) {
        return value(0, new LegacyOffsetCommitValue().setOffset(offset).setMetadata(metadata)
                .setCommitTimestamp(commitTimestamp));
    }

    /** Type 2, a classic group. */
    static byte[] classicKey(String group) {
        return key(new GroupMetadataKey().setGroup(group));
    }

    /** A classic group with one member. */
    static GroupMetadataValue classicValue(String protocolType) {
        return new GroupMetadataValue().setProtocolType(protocolType).setGeneration(3).setProtocol("range")
                .setLeader("m-1").setCurrentStateTimestamp(123)
                .setMembers(List.of(new GroupMetadataValue.MemberMetadata().setMemberId("m-1")
                        .setGroupInstanceId(null).setClientId("c").setClientHost("/127.0.0.1")
                        .setRebalanceTimeout(300000).setSessionTimeout(45000)
                        .setSubscription(new byte[] {1, 2}).setAssignment(new byte[] {3})));
    }

    /** A simple group: commits only, no protocol, no members. */
    static GroupMetadataValue simpleGroupValue() {
        return new GroupMetadataValue().setProtocolType("").setGeneration(0).setProtocol(null).setLeader(null)
                .setMembers(List.of());
    }

    /** Type 3, a KIP-848 consumer group. */
    static byte[] consumerGroupKey(String group) {
        return key(new ConsumerGroupMetadataKey().setGroupId(group));
    }

    /** Type 11. */
    static byte[] shareGroupKey(String group) {
        return key(new ShareGroupMetadataKey().setGroupId(group));
    }

    /** Type 17. */
    static byte[] streamsGroupKey(String group) {
        return key(new StreamsGroupMetadataKey().setGroupId(group));
    }

    /** Type 17's value, version 0. */
    static byte[] streamsGroupValue() {
        return value(0, new StreamsGroupMetadataValue().setEpoch(1).setMetadataHash(3));
    }

    /** Type 15, ShareGroupStatePartitionMetadata. */
    static byte[] shareGroupTopicsKey(String group) {
        return key(new ShareGroupStatePartitionMetadataKey().setGroupId(group));
    }

    /** Type 15's value, version 0: topics by id and name, each with partition 0. */
    static byte[] shareGroupTopicsValue(Map<Uuid, String> initializing, Map<Uuid, String> initialized,
                                        Map<Uuid, String> deleting) {
        return value(0, new ShareGroupStatePartitionMetadataValue()
                .setInitializingTopics(withPartitionZero(initializing))
                .setInitializedTopics(withPartitionZero(initialized))
                .setDeletingTopics(deleting.entrySet().stream()
                        .map(t -> new TopicInfo().setTopicId(t.getKey()).setTopicName(t.getValue())).toList()));
    }

    private static List<TopicPartitionsInfo> withPartitionZero(Map<Uuid, String> topics) {
        return topics.entrySet().stream().map(t -> new TopicPartitionsInfo().setTopicId(t.getKey())
                .setTopicName(t.getValue()).setPartitions(List.of(0))).toList();
    }
}
