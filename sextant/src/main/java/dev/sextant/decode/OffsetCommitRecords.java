package dev.sextant.decode;

import dev.sextant.decode.ConsumerOffsetsRecord.OffsetCommit;
import dev.sextant.decode.ConsumerOffsetsRecord.OffsetDeleted;
import dev.sextant.decode.CoordinatorBytes.KnownType;
import java.nio.ByteBuffer;
import org.apache.kafka.coordinator.group.generated.LegacyOffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.LegacyOffsetCommitValue;
import org.apache.kafka.coordinator.group.generated.OffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.OffsetCommitValue;

/**
 * The offset commits of {@code __consumer_offsets}, key types 0 (LegacyOffsetCommit) and 1 (OffsetCommit): an
 * {@link OffsetCommit}, or an {@link OffsetDeleted} for a tombstone. Called by {@link ConsumerOffsetsDecoder}, which
 * routes each type here and turns runtime exceptions into {@link UndecodableRecordException}.
 */
final class OffsetCommitRecords {

    private OffsetCommitRecords() {
    }

    /** Type 0: the same key layout as type 1; the value has no leader epoch. */
    static ConsumerOffsetsRecord legacy(KnownType type, ByteBuffer keyBuf, byte[] value)
            throws UndecodableRecordException {
        LegacyOffsetCommitKey k = CoordinatorBytes.readKey(keyBuf, LegacyOffsetCommitKey::new, type);
        if (value == null) {
            return new OffsetDeleted(k.group(), k.topic(), k.partition());
        }
        LegacyOffsetCommitValue v = CoordinatorBytes.readValue(value, LegacyOffsetCommitValue::new, type, k.group());
        return new OffsetCommit(k.group(), k.topic(), k.partition(), v.offset(), -1, v.metadata(),
                v.commitTimestamp());
    }

    /** Type 1. */
    static ConsumerOffsetsRecord current(KnownType type, ByteBuffer keyBuf, byte[] value)
            throws UndecodableRecordException {
        OffsetCommitKey k = CoordinatorBytes.readKey(keyBuf, OffsetCommitKey::new, type);
        if (value == null) {
            return new OffsetDeleted(k.group(), k.topic(), k.partition());
        }
        // v0-v2 have no leader epoch; the generated reader then leaves its default, -1.
        OffsetCommitValue v = CoordinatorBytes.readValue(value, OffsetCommitValue::new, type, k.group());
        return new OffsetCommit(k.group(), k.topic(), k.partition(), v.offset(), v.leaderEpoch(), v.metadata(),
                v.commitTimestamp());
    }
}
