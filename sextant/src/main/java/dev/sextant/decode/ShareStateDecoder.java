package dev.sextant.decode;

import dev.sextant.decode.CoordinatorBytes.KnownType;
import dev.sextant.decode.ShareStateRecord.ShareSnapshot;
import dev.sextant.decode.ShareStateRecord.ShareStateDeleted;
import dev.sextant.decode.ShareStateRecord.ShareUpdate;
import dev.sextant.domain.StateBatch;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.coordinator.share.generated.CoordinatorRecordType;
import org.apache.kafka.coordinator.share.generated.ShareSnapshotKey;
import org.apache.kafka.coordinator.share.generated.ShareSnapshotValue;
import org.apache.kafka.coordinator.share.generated.ShareUpdateKey;
import org.apache.kafka.coordinator.share.generated.ShareUpdateValue;

/**
 * Decodes {@code __share_group_state} records with Kafka's generated classes: key type 0 {@code ShareSnapshot},
 * 1 {@code ShareUpdate}; value version 0 (flexible). Layout: docs/kafka-internals.md, "__share_group_state records".
 *
 * <p>Contract: {@link #decode} returns a non-null {@link ShareStateRecord} or throws
 * {@link UndecodableRecordException}; nothing else escapes. Stateless and thread-safe.
 */
public final class ShareStateDecoder {

    private static final String TOPIC = "__share_group_state";

    private static final KnownType SNAPSHOT = known(CoordinatorRecordType.SHARE_SNAPSHOT);
    private static final KnownType UPDATE = known(CoordinatorRecordType.SHARE_UPDATE);

    private ShareStateDecoder() {
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
    public static ShareStateRecord decode(byte[] key, byte[] value) throws UndecodableRecordException {
        ByteBuffer keyBuf = CoordinatorBytes.keyBuffer(key, TOPIC);
        short id = keyBuf.getShort(0);
        try {
            if (id == SNAPSHOT.id()) {
                return snapshot(keyBuf, value);
            }
            if (id == UPDATE.id()) {
                return update(keyBuf, value);
            }
        } catch (RuntimeException e) {
            // Safety net for the model's own checks (e.g. a negative partition from corrupt bytes).
            throw UndecodableRecordException.malformed(null, "invalid " + TOPIC + " record of type " + id + ": " + e,
                    e);
        }
        throw UndecodableRecordException.unknownType(TOPIC, id);
    }

    private static ShareStateRecord snapshot(ByteBuffer keyBuf, byte[] value) throws UndecodableRecordException {
        ShareSnapshotKey k = CoordinatorBytes.readKey(keyBuf, ShareSnapshotKey::new, SNAPSHOT);
        if (value == null) {
            return new ShareStateDeleted(k.groupId(), k.topicId(), k.partition());
        }
        ShareSnapshotValue v = CoordinatorBytes.readValue(value, ShareSnapshotValue::new, SNAPSHOT, k.groupId());
        List<StateBatch> batches = new ArrayList<>(v.stateBatches().size());
        for (ShareSnapshotValue.StateBatch b : v.stateBatches()) {
            batches.add(new StateBatch(b.firstOffset(), b.lastOffset(), b.deliveryState(), b.deliveryCount()));
        }
        return new ShareSnapshot(k.groupId(), k.topicId(), k.partition(), v.snapshotEpoch(), v.stateEpoch(),
                v.leaderEpoch(), v.startOffset(), batches);
    }

    private static ShareStateRecord update(ByteBuffer keyBuf, byte[] value) throws UndecodableRecordException {
        ShareUpdateKey k = CoordinatorBytes.readKey(keyBuf, ShareUpdateKey::new, UPDATE);
        if (value == null) {
            return new ShareStateDeleted(k.groupId(), k.topicId(), k.partition());
        }
        ShareUpdateValue v = CoordinatorBytes.readValue(value, ShareUpdateValue::new, UPDATE, k.groupId());
        List<StateBatch> batches = new ArrayList<>(v.stateBatches().size());
        for (ShareUpdateValue.StateBatch b : v.stateBatches()) {
            batches.add(new StateBatch(b.firstOffset(), b.lastOffset(), b.deliveryState(), b.deliveryCount()));
        }
        return new ShareUpdate(k.groupId(), k.topicId(), k.partition(), v.snapshotEpoch(), v.leaderEpoch(),
                v.startOffset(), batches);
    }

    private static KnownType known(CoordinatorRecordType t) {
        return new KnownType(t.id(), t.name(), t.lowestSupportedVersion(), t.highestSupportedVersion());
    }
}
