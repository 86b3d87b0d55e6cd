package dev.sextant.decode;

import java.nio.ByteBuffer;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Readable;

/**
 * The framing shared by {@code __consumer_offsets} and {@code __share_group_state} (Kafka's
 * {@code CoordinatorRecordSerde}, which is not on Sextant's classpath): key = int16 type id + key fields at
 * version 0; value = int16 version + value fields at that version, or null for a tombstone.
 *
 * <p>Everything here either returns or throws {@link UndecodableRecordException}; runtime exceptions from Kafka's
 * generated readers (buffer underflow, negative lengths, "non-nullable field ... serialized as null") are turned
 * into {@link UndecodableRecordException.Problem#MALFORMED}.
 */
final class CoordinatorBytes {

    /** A generated message's reading constructor, e.g. {@code OffsetCommitKey::new}. No reflection per record. */
    @FunctionalInterface
    interface Reader<T> {
        T read(Readable readable, short version);
    }

    /** The readable value versions of one key type, taken from Kafka's generated {@code CoordinatorRecordType}. */
    record KnownType(short id, String name, short lowestValueVersion, short highestValueVersion) {
    }

    private CoordinatorBytes() {
    }

    /**
     * Wraps the key and consumes its type id.
     *
     * @return a buffer positioned after the type id; read the id back with {@code getShort(0)}
     */
    static ByteBuffer keyBuffer(byte[] key, String topic) throws UndecodableRecordException {
        if (key == null || key.length < Short.BYTES) {
            throw UndecodableRecordException.malformed(null, topic + " key is "
                    + (key == null ? "null" : key.length + " byte(s)") + ", shorter than its 2-byte type id", null);
        }
        ByteBuffer buf = ByteBuffer.wrap(key);
        buf.getShort();
        return buf;
    }

    /**
     * Reads the key fields after the type id. Trailing bytes are rejected: keys have no versions, so extra bytes
     * mean the layout is not the one these classes describe, and compaction identity would be wrong.
     */
    static <T> T readKey(ByteBuffer keyAfterType, Reader<T> reader, KnownType type)
            throws UndecodableRecordException {
        T key;
        try {
            key = reader.read(new ByteBufferAccessor(keyAfterType), (short) 0);
        } catch (RuntimeException e) {
            throw UndecodableRecordException.malformed(null, "cannot read " + type.name() + " key: " + e, e);
        }
        requireFullyRead(keyAfterType, null, type.name() + " key");
        return key;
    }

    /**
     * Checks the value's version prefix against the versions Kafka's jars can read.
     *
     * @param value a non-null value
     * @return a buffer positioned after the version prefix; read the version back with {@code getShort(0)}
     */
    static ByteBuffer valueBuffer(byte[] value, KnownType type, String group) throws UndecodableRecordException {
        if (value.length < Short.BYTES) {
            throw UndecodableRecordException.malformed(group, type.name() + " value is " + value.length
                    + " byte(s), shorter than its 2-byte version", null);
        }
        ByteBuffer buf = ByteBuffer.wrap(value);
        short version = buf.getShort();
        if (version < type.lowestValueVersion() || version > type.highestValueVersion()) {
            throw UndecodableRecordException.unknownVersion(group, type.name(), version, type.lowestValueVersion(),
                    type.highestValueVersion());
        }
        return buf;
    }

    /**
     * Reads a whole non-null value: version check, fields, and no trailing bytes (every byte of a value is
     * accounted for by its version, including tagged fields, so leftovers mean corruption).
     */
    static <T> T readValue(byte[] value, Reader<T> reader, KnownType type, String group)
            throws UndecodableRecordException {
        ByteBuffer buf = valueBuffer(value, type, group);
        short version = buf.getShort(0);
        T message;
        try {
            message = reader.read(new ByteBufferAccessor(buf), version);
        } catch (RuntimeException e) {
            throw UndecodableRecordException.malformed(group,
                    "cannot read " + type.name() + " value v" + version + ": " + e, e);
        }
        requireFullyRead(buf, group, type.name() + " value v" + version);
        return message;
    }

    private static void requireFullyRead(ByteBuffer buf, String group, String what)
            throws UndecodableRecordException {
        if (buf.hasRemaining()) {
            throw UndecodableRecordException.malformed(group,
                    what + " has " + buf.remaining() + " trailing byte(s)", null);
        }
    }
}
