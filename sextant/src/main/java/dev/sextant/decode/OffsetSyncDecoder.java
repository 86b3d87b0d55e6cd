package dev.sextant.decode;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Decodes records of MirrorMaker 2's {@code mm2-offset-syncs.<alias>.internal} topic (docs/kafka-internals.md,
 * "MirrorMaker 2 offset syncs"; layout of {@code OffsetSync.KEY_SCHEMA} / {@code VALUE_SCHEMA} in connect-mirror
 * 4.3.1, old-style {@code Schema}, no version header):
 * <pre>
 *   key   = topic STRING (int16 length ≥ 0, then UTF-8 bytes), partition INT32
 *   value = upstreamOffset INT64, offset INT64 (downstream)
 * </pre>
 * All big-endian. Hand-decoded because that class is in connect-mirror, whose dependency tree is huge.
 *
 * <p>Like MM2's own {@code OffsetSync.deserializeRecord}, trailing bytes after the fields are ignored, so a reader
 * here accepts exactly what MM2 accepts. Contract: returns non-null or throws {@link UndecodableRecordException};
 * nothing else escapes. Stateless and thread-safe.
 */
public final class OffsetSyncDecoder {

    private OffsetSyncDecoder() {
    }

    /**
     * Decodes one offset sync.
     *
     * @param key   non-null; MM2 never writes tombstones to this topic
     * @param value non-null
     * @throws UndecodableRecordException if either is null, too short, or has a negative string length or partition
     */
    public static OffsetSync decode(byte[] key, byte[] value) throws UndecodableRecordException {
        if (key == null || value == null) {
            throw UndecodableRecordException.malformed(null,
                    "offset sync " + (key == null ? "key" : "value") + " is null", null);
        }
        try {
            ByteBuffer k = ByteBuffer.wrap(key);
            short topicLength = k.getShort();
            if (topicLength < 0) {
                throw UndecodableRecordException.malformed(null,
                        "offset sync topic length is " + topicLength, null);
            }
            if (topicLength > k.remaining()) {
                throw new BufferUnderflowException();
            }
            String topic = new String(key, k.position(), topicLength, StandardCharsets.UTF_8);
            k.position(k.position() + topicLength);
            int partition = k.getInt();

            ByteBuffer v = ByteBuffer.wrap(value);
            long upstreamOffset = v.getLong();
            long downstreamOffset = v.getLong();
            return new OffsetSync(topic, partition, upstreamOffset, downstreamOffset);
        } catch (BufferUnderflowException e) {
            throw UndecodableRecordException.malformed(null, "offset sync truncated (key " + key.length
                    + " byte(s), value " + value.length + " byte(s))", e);
        } catch (RuntimeException e) {
            throw UndecodableRecordException.malformed(null, "invalid offset sync: " + e, e);
        }
    }
}
