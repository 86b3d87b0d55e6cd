package dev.sextant.decode;

import dev.sextant.decode.ConsumerOffsetsRecord.GroupDeleted;
import dev.sextant.decode.ConsumerOffsetsRecord.GroupTypeSeen;
import dev.sextant.decode.ConsumerOffsetsRecord.ShareGroupTopics;
import dev.sextant.decode.CoordinatorBytes.KnownType;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.GroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.GroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.ShareGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.ShareGroupStatePartitionMetadataKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupStatePartitionMetadataValue;
import org.apache.kafka.coordinator.group.generated.StreamsGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupMetadataValue;

/**
 * The records of {@code __consumer_offsets} about a whole group: the ones that define its kind (key types 2 classic,
 * 3 consumer, 11 share, 17 streams), a {@link GroupTypeSeen} or, for a tombstone, a {@link GroupDeleted}; and a
 * share group's topics (type 15), a {@link ShareGroupTopics}. Called by {@link ConsumerOffsetsDecoder}, which routes
 * each type here and turns runtime exceptions into {@link UndecodableRecordException}.
 */
final class GroupMetadataRecords {

    /** Protocol types the broker reports in ListGroups for the KIP-848 / KIP-932 / KIP-1071 group kinds. */
    private static final String CONSUMER_PROTOCOL = "consumer";
    private static final String SHARE_PROTOCOL = "share";
    private static final String STREAMS_PROTOCOL = "streams";

    private GroupMetadataRecords() {
    }

    /** Type 2, a classic group: its protocol type is kept ({@code consumer}, {@code ""} for a simple group, ...). */
    static ConsumerOffsetsRecord classic(KnownType type, ByteBuffer keyBuf, byte[] value)
            throws UndecodableRecordException {
        String group = CoordinatorBytes.readKey(keyBuf, GroupMetadataKey::new, type).group();
        if (value == null) {
            return new GroupDeleted(group, GroupType.CLASSIC);
        }
        GroupMetadataValue v = CoordinatorBytes.readValue(value, GroupMetadataValue::new, type, group);
        return new GroupTypeSeen(group, GroupType.CLASSIC, v.protocolType());
    }

    /** Type 3; the value is read only to validate it, as for the share and streams kinds. */
    static ConsumerOffsetsRecord consumer(KnownType type, ByteBuffer keyBuf, byte[] value)
            throws UndecodableRecordException {
        String group = CoordinatorBytes.readKey(keyBuf, ConsumerGroupMetadataKey::new, type).groupId();
        if (value == null) {
            return new GroupDeleted(group, GroupType.CONSUMER);
        }
        CoordinatorBytes.readValue(value, ConsumerGroupMetadataValue::new, type, group);
        return new GroupTypeSeen(group, GroupType.CONSUMER, CONSUMER_PROTOCOL);
    }

    /** Type 11. */
    static ConsumerOffsetsRecord share(KnownType type, ByteBuffer keyBuf, byte[] value)
            throws UndecodableRecordException {
        String group = CoordinatorBytes.readKey(keyBuf, ShareGroupMetadataKey::new, type).groupId();
        if (value == null) {
            return new GroupDeleted(group, GroupType.SHARE);
        }
        CoordinatorBytes.readValue(value, ShareGroupMetadataValue::new, type, group);
        return new GroupTypeSeen(group, GroupType.SHARE, SHARE_PROTOCOL);
    }

    /** Type 17. */
    static ConsumerOffsetsRecord streams(KnownType type, ByteBuffer keyBuf, byte[] value)
            throws UndecodableRecordException {
        String group = CoordinatorBytes.readKey(keyBuf, StreamsGroupMetadataKey::new, type).groupId();
        if (value == null) {
            return new GroupDeleted(group, GroupType.STREAMS);
        }
        CoordinatorBytes.readValue(value, StreamsGroupMetadataValue::new, type, group);
        return new GroupTypeSeen(group, GroupType.STREAMS, STREAMS_PROTOCOL);
    }

    /** Type 15, ShareGroupStatePartitionMetadata: a tombstone is an empty map. */
    static ConsumerOffsetsRecord shareGroupTopics(KnownType type, ByteBuffer keyBuf, byte[] value)
            throws UndecodableRecordException {
        String group = CoordinatorBytes.readKey(keyBuf, ShareGroupStatePartitionMetadataKey::new, type).groupId();
        if (value == null) {
            return new ShareGroupTopics(group, Map.of());
        }
        return new ShareGroupTopics(group, topicNames(
                CoordinatorBytes.readValue(value, ShareGroupStatePartitionMetadataValue::new, type, group)));
    }

    /** Initializing and initialized topics; deleting topics are left out (their state is on its way out). */
    private static Map<Uuid, String> topicNames(ShareGroupStatePartitionMetadataValue v) {
        Map<Uuid, String> names = new HashMap<>();
        for (ShareGroupStatePartitionMetadataValue.TopicPartitionsInfo t : v.initializingTopics()) {
            names.put(t.topicId(), t.topicName());
        }
        for (ShareGroupStatePartitionMetadataValue.TopicPartitionsInfo t : v.initializedTopics()) {
            names.put(t.topicId(), t.topicName());
        }
        return names;
    }
}
