package dev.sextant.decode;

import dev.sextant.decode.ConsumerOffsetsRecord.GroupMemberRecord;
import dev.sextant.decode.CoordinatorBytes.KnownType;
import java.nio.ByteBuffer;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupCurrentMemberAssignmentKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMemberMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupPartitionMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupRegularExpressionKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMemberKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMetadataKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupCurrentMemberAssignmentKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupMemberMetadataKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupTargetAssignmentMemberKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupTargetAssignmentMetadataKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupCurrentMemberAssignmentKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupMemberMetadataKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupTargetAssignmentMemberKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupTargetAssignmentMetadataKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupTopologyKey;

/**
 * The member, assignment, regex and topology records of {@code __consumer_offsets} (key types 4–8 and 16 consumer,
 * 10 and 12–14 share, 19–23 streams): a {@link GroupMemberRecord} with only the group id and kind; the value's
 * version is checked, the value itself is not read. Called by {@link ConsumerOffsetsDecoder}, which routes these
 * types here and turns runtime exceptions into {@link UndecodableRecordException}.
 */
final class GroupMemberRecords {

    private GroupMemberRecords() {
    }

    static ConsumerOffsetsRecord decode(KnownType type, ByteBuffer keyBuf, byte[] value)
            throws UndecodableRecordException {
        GroupMemberRecord record = switch (type.id()) {
            case 4, 5, 6, 7, 8, 16 -> new GroupMemberRecord(consumerGroupId(type, keyBuf), GroupType.CONSUMER);
            case 10, 12, 13, 14 -> new GroupMemberRecord(shareGroupId(type, keyBuf), GroupType.SHARE);
            case 19, 20, 21, 22, 23 -> new GroupMemberRecord(streamsGroupId(type, keyBuf), GroupType.STREAMS);
            default -> throw notAMemberRecord(type);
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
            default -> throw notAMemberRecord(type);
        };
    }

    /** The group id in the key of a share group's member or assignment record (types 10, 12–14). */
    private static String shareGroupId(KnownType type, ByteBuffer keyBuf) throws UndecodableRecordException {
        return switch (type.id()) {
            case 10 -> CoordinatorBytes.readKey(keyBuf, ShareGroupMemberMetadataKey::new, type).groupId();
            case 12 -> CoordinatorBytes.readKey(keyBuf, ShareGroupTargetAssignmentMetadataKey::new, type).groupId();
            case 13 -> CoordinatorBytes.readKey(keyBuf, ShareGroupTargetAssignmentMemberKey::new, type).groupId();
            case 14 -> CoordinatorBytes.readKey(keyBuf, ShareGroupCurrentMemberAssignmentKey::new, type).groupId();
            default -> throw notAMemberRecord(type);
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
            default -> throw notAMemberRecord(type);
        };
    }

    /** The decoder routed a type here that is not one of these: a bug, not bad input. */
    private static IllegalArgumentException notAMemberRecord(KnownType type) {
        return new IllegalArgumentException(type.name() + " (key type " + type.id() + ") is not a member record");
    }
}
