package dev.sextant.decode;

import dev.sextant.decode.ConsumerOffsetsRecord.GroupDeleted;
import dev.sextant.decode.ConsumerOffsetsRecord.GroupMemberRecord;
import dev.sextant.decode.ConsumerOffsetsRecord.GroupTypeSeen;
import dev.sextant.decode.ConsumerOffsetsRecord.OffsetCommit;
import dev.sextant.decode.ConsumerOffsetsRecord.OffsetDeleted;
import dev.sextant.decode.ConsumerOffsetsRecord.ShareGroupTopics;
import dev.sextant.decode.CoordinatorBytes.KnownType;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupCurrentMemberAssignmentKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMemberMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupPartitionMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupRegularExpressionKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMemberKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMetadataKey;
import org.apache.kafka.coordinator.group.generated.CoordinatorRecordType;
import org.apache.kafka.coordinator.group.generated.GroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.GroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.LegacyOffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.LegacyOffsetCommitValue;
import org.apache.kafka.coordinator.group.generated.OffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.OffsetCommitValue;
import org.apache.kafka.coordinator.group.generated.ShareGroupCurrentMemberAssignmentKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupMemberMetadataKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.ShareGroupStatePartitionMetadataKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupStatePartitionMetadataValue;
import org.apache.kafka.coordinator.group.generated.ShareGroupTargetAssignmentMemberKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupTargetAssignmentMetadataKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupCurrentMemberAssignmentKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupMemberMetadataKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.StreamsGroupTargetAssignmentMemberKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupTargetAssignmentMetadataKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupTopologyKey;

/**
 * Decodes {@code __consumer_offsets} records (Kafka 4.4 layout: docs/kafka-internals.md, "__consumer_offsets
 * records") with Kafka's generated classes.
 *
 * <p>Contract: {@link #decode} returns a non-null {@link ConsumerOffsetsRecord} or throws
 * {@link UndecodableRecordException}; nothing else escapes. Key type ids 9 and 18 (unused in 4.4; 9 was a 4.0 share
 * record) and any id the jars do not define are {@code UNKNOWN_TYPE}; a value version outside what the jars read for
 * that type is {@code UNKNOWN_VERSION}, checked for every type, including those whose value is not decoded.
 * Stateless and thread-safe; no reflection per record (generated constructors are passed as method references).
 */
public final class ConsumerOffsetsDecoder {

    private static final String TOPIC = "__consumer_offsets";

    /** Protocol types the broker reports in ListGroups for the KIP-848 / KIP-932 / KIP-1071 group kinds. */
    private static final String CONSUMER_PROTOCOL = "consumer";
    private static final String SHARE_PROTOCOL = "share";
    private static final String STREAMS_PROTOCOL = "streams";

    /** Indexed by key type id; null where the jars define no type. Built once from Kafka's own enum. */
    private static final KnownType[] TYPES = knownTypes();

    private ConsumerOffsetsDecoder() {
    }

    /**
     * Decodes one record.
     *
     * @param key   the record key; never legitimately null
     * @param value the record value, or null for a tombstone
     * @return what the record means; never null
     * @throws UndecodableRecordException if the record cannot be decoded (see
     *                                     {@link UndecodableRecordException.Problem})
     */
    public static ConsumerOffsetsRecord decode(byte[] key, byte[] value) throws UndecodableRecordException {
        ByteBuffer keyBuf = CoordinatorBytes.keyBuffer(key, TOPIC);
        short id = keyBuf.getShort(0);
        KnownType type = id >= 0 && id < TYPES.length ? TYPES[id] : null;
        if (type == null) {
            throw UndecodableRecordException.unknownType(TOPIC, id);
        }
        try {
            return decodeKnown(type, keyBuf, value);
        } catch (RuntimeException e) {
            // Safety net for the model's own checks (e.g. a negative partition from corrupt bytes): the contract
            // is that nothing but UndecodableRecordException escapes.
            throw UndecodableRecordException.malformed(null, "invalid " + type.name() + " record: " + e, e);
        }
    }

    private static ConsumerOffsetsRecord decodeKnown(KnownType type, ByteBuffer keyBuf, byte[] value)
            throws UndecodableRecordException {
        switch (type.id()) {
            case 0: { // LegacyOffsetCommit: same key layout as type 1, value has no leader epoch
                LegacyOffsetCommitKey k = CoordinatorBytes.readKey(keyBuf, LegacyOffsetCommitKey::new, type);
                if (value == null) {
                    return new OffsetDeleted(k.group(), k.topic(), k.partition());
                }
                LegacyOffsetCommitValue v = CoordinatorBytes.readValue(value, LegacyOffsetCommitValue::new, type,
                        k.group());
                return new OffsetCommit(k.group(), k.topic(), k.partition(), v.offset(), -1, v.metadata(),
                        v.commitTimestamp());
            }
            case 1: { // OffsetCommit
                OffsetCommitKey k = CoordinatorBytes.readKey(keyBuf, OffsetCommitKey::new, type);
                if (value == null) {
                    return new OffsetDeleted(k.group(), k.topic(), k.partition());
                }
                // v0-v2 have no leader epoch; the generated reader then leaves its default, -1.
                OffsetCommitValue v = CoordinatorBytes.readValue(value, OffsetCommitValue::new, type, k.group());
                return new OffsetCommit(k.group(), k.topic(), k.partition(), v.offset(), v.leaderEpoch(),
                        v.metadata(), v.commitTimestamp());
            }
            case 2: { // GroupMetadata (classic)
                String group = CoordinatorBytes.readKey(keyBuf, GroupMetadataKey::new, type).group();
                if (value == null) {
                    return new GroupDeleted(group, GroupType.CLASSIC);
                }
                GroupMetadataValue v = CoordinatorBytes.readValue(value, GroupMetadataValue::new, type, group);
                return new GroupTypeSeen(group, GroupType.CLASSIC, v.protocolType());
            }
            case 3: { // ConsumerGroupMetadata; the value is read only to validate it
                String group = CoordinatorBytes.readKey(keyBuf, ConsumerGroupMetadataKey::new, type).groupId();
                if (value == null) {
                    return new GroupDeleted(group, GroupType.CONSUMER);
                }
                CoordinatorBytes.readValue(value, ConsumerGroupMetadataValue::new, type, group);
                return new GroupTypeSeen(group, GroupType.CONSUMER, CONSUMER_PROTOCOL);
            }
            case 11: { // ShareGroupMetadata
                String group = CoordinatorBytes.readKey(keyBuf, ShareGroupMetadataKey::new, type).groupId();
                if (value == null) {
                    return new GroupDeleted(group, GroupType.SHARE);
                }
                CoordinatorBytes.readValue(value, ShareGroupMetadataValue::new, type, group);
                return new GroupTypeSeen(group, GroupType.SHARE, SHARE_PROTOCOL);
            }
            case 17: { // StreamsGroupMetadata
                String group = CoordinatorBytes.readKey(keyBuf, StreamsGroupMetadataKey::new, type).groupId();
                if (value == null) {
                    return new GroupDeleted(group, GroupType.STREAMS);
                }
                CoordinatorBytes.readValue(value, StreamsGroupMetadataValue::new, type, group);
                return new GroupTypeSeen(group, GroupType.STREAMS, STREAMS_PROTOCOL);
            }
            case 15: { // ShareGroupStatePartitionMetadata
                String group = CoordinatorBytes.readKey(keyBuf, ShareGroupStatePartitionMetadataKey::new, type)
                        .groupId();
                if (value == null) {
                    return new ShareGroupTopics(group, Map.of());
                }
                return new ShareGroupTopics(group, topicNames(
                        CoordinatorBytes.readValue(value, ShareGroupStatePartitionMetadataValue::new, type, group)));
            }
            default:
                return memberRecord(type, keyBuf, value);
        }
    }

    /** Types 4–8, 10, 12–14, 16, 19–23: only the group id and kind are kept; the value's version is checked. */
    private static ConsumerOffsetsRecord memberRecord(KnownType type, ByteBuffer keyBuf, byte[] value)
            throws UndecodableRecordException {
        GroupMemberRecord record = switch (type.id()) {
            case 4, 5, 6, 7, 8, 16 -> consumer(consumerGroupId(type, keyBuf));
            case 10, 12, 13, 14 -> share(shareGroupId(type, keyBuf));
            case 19, 20, 21, 22, 23 -> streams(streamsGroupId(type, keyBuf));
            // A type a newer kafka-group-coordinator jar defines but this code does not handle yet.
            default -> throw UndecodableRecordException.unknownType(TOPIC, type.id());
        };
        if (value != null) {
            CoordinatorBytes.valueBuffer(value, type, record.group());
        }
        return record;
    }

    /** The group id in the key of a consumer group's member or assignment record (types 4–8, 16). */
    private static String consumerGroupId(KnownType type, ByteBuffer keyBuf) throws UndecodableRecordException {
        return switch (type.id()) {
            case 4 -> CoordinatorBytes.readKey(keyBuf, ConsumerGroupPartitionMetadataKey::new, type).groupId();
            case 5 -> CoordinatorBytes.readKey(keyBuf, ConsumerGroupMemberMetadataKey::new, type).groupId();
            case 6 -> CoordinatorBytes.readKey(keyBuf, ConsumerGroupTargetAssignmentMetadataKey::new, type)
                    .groupId();
            case 7 -> CoordinatorBytes.readKey(keyBuf, ConsumerGroupTargetAssignmentMemberKey::new, type).groupId();
            case 8 -> CoordinatorBytes.readKey(keyBuf, ConsumerGroupCurrentMemberAssignmentKey::new, type).groupId();
            case 16 -> CoordinatorBytes.readKey(keyBuf, ConsumerGroupRegularExpressionKey::new, type).groupId();
            default -> throw UndecodableRecordException.unknownType(TOPIC, type.id());
        };
    }

    /** The group id in the key of a share group's member or assignment record (types 10, 12–14). */
    private static String shareGroupId(KnownType type, ByteBuffer keyBuf) throws UndecodableRecordException {
        return switch (type.id()) {
            case 10 -> CoordinatorBytes.readKey(keyBuf, ShareGroupMemberMetadataKey::new, type).groupId();
            case 12 -> CoordinatorBytes.readKey(keyBuf, ShareGroupTargetAssignmentMetadataKey::new, type).groupId();
            case 13 -> CoordinatorBytes.readKey(keyBuf, ShareGroupTargetAssignmentMemberKey::new, type).groupId();
            case 14 -> CoordinatorBytes.readKey(keyBuf, ShareGroupCurrentMemberAssignmentKey::new, type).groupId();
            default -> throw UndecodableRecordException.unknownType(TOPIC, type.id());
        };
    }

    /** The group id in the key of a streams group's member, assignment or topology record (types 19–23). */
    private static String streamsGroupId(KnownType type, ByteBuffer keyBuf) throws UndecodableRecordException {
        return switch (type.id()) {
            case 19 -> CoordinatorBytes.readKey(keyBuf, StreamsGroupMemberMetadataKey::new, type).groupId();
            case 20 -> CoordinatorBytes.readKey(keyBuf, StreamsGroupTargetAssignmentMetadataKey::new, type)
                    .groupId();
            case 21 -> CoordinatorBytes.readKey(keyBuf, StreamsGroupTargetAssignmentMemberKey::new, type).groupId();
            case 22 -> CoordinatorBytes.readKey(keyBuf, StreamsGroupCurrentMemberAssignmentKey::new, type)
                    .groupId();
            case 23 -> CoordinatorBytes.readKey(keyBuf, StreamsGroupTopologyKey::new, type).groupId();
            default -> throw UndecodableRecordException.unknownType(TOPIC, type.id());
        };
    }

    private static GroupMemberRecord consumer(String group) {
        return new GroupMemberRecord(group, GroupType.CONSUMER);
    }

    private static GroupMemberRecord share(String group) {
        return new GroupMemberRecord(group, GroupType.SHARE);
    }

    private static GroupMemberRecord streams(String group) {
        return new GroupMemberRecord(group, GroupType.STREAMS);
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

    private static KnownType[] knownTypes() {
        CoordinatorRecordType[] all = CoordinatorRecordType.values();
        int maxId = 0;
        for (CoordinatorRecordType t : all) {
            maxId = Math.max(maxId, t.id());
        }
        KnownType[] table = new KnownType[maxId + 1];
        for (CoordinatorRecordType t : all) {
            table[t.id()] = new KnownType(t.id(), t.name(), t.lowestSupportedVersion(), t.highestSupportedVersion());
        }
        return table;
    }
}
