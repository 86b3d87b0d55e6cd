package dev.sextant.decode;

import dev.sextant.decode.CoordinatorBytes.KnownType;
import java.nio.ByteBuffer;
import org.apache.kafka.coordinator.group.generated.CoordinatorRecordType;

/**
 * Decodes {@code __consumer_offsets} records (Kafka 4.4 layout: docs/kafka-internals.md, "__consumer_offsets
 * records") with Kafka's generated classes.
 *
 * <p>Contract: {@link #decode} returns a non-null {@link ConsumerOffsetsRecord} or throws
 * {@link UndecodableRecordException}; nothing else escapes. Key type ids 9 and 18 (unused in 4.4; 9 was a 4.0 share
 * record) and any id the jars do not define are {@code UNKNOWN_TYPE}; a value version outside what the jars read for
 * that type is {@code UNKNOWN_VERSION}, checked for every type, including those whose value is not decoded.
 * Stateless and thread-safe; no reflection per record (generated constructors are passed as method references).
 *
 * <p>This class finds the key type and routes the record by it: offset commits to {@link OffsetCommitRecords}, the
 * records about a whole group to {@link GroupMetadataRecords}, member and assignment records to
 * {@link GroupMemberRecords}.
 */
public final class ConsumerOffsetsDecoder {

    private static final String TOPIC = "__consumer_offsets";

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

    /** The routing table: docs/kafka-internals.md, "__consumer_offsets records". */
    private static ConsumerOffsetsRecord decodeKnown(KnownType type, ByteBuffer keyBuf, byte[] value)
            throws UndecodableRecordException {
        return switch (type.id()) {
            case 0 -> OffsetCommitRecords.legacy(type, keyBuf, value);
            case 1 -> OffsetCommitRecords.current(type, keyBuf, value);
            case 2 -> GroupMetadataRecords.classic(type, keyBuf, value);
            case 3 -> GroupMetadataRecords.consumer(type, keyBuf, value);
            case 11 -> GroupMetadataRecords.share(type, keyBuf, value);
            case 17 -> GroupMetadataRecords.streams(type, keyBuf, value);
            case 15 -> GroupMetadataRecords.shareGroupTopics(type, keyBuf, value);
            case 4, 5, 6, 7, 8, 16, 10, 12, 13, 14, 19, 20, 21, 22, 23 ->
                    GroupMemberRecords.decode(type, keyBuf, value);
            // A type a newer kafka-group-coordinator jar defines but this code does not handle yet.
            default -> throw UndecodableRecordException.unknownType(TOPIC, type.id());
        };
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
