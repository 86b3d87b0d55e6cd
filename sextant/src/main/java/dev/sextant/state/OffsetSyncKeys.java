package dev.sextant.state;

import dev.sextant.translate.OffsetSyncPoint;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Bytes;

/**
 * Byte layout of the offset-sync history keys, chosen so RocksDB's byte order is the order of the history:
 *
 * <pre>
 *   [int16 topic length][topic UTF-8][int32 partition][int64 upstream offset]   (all big-endian)
 * </pre>
 *
 * Offsets are never negative, so for one source partition the keys sort by upstream offset and "the latest sync
 * at or below C" is the first entry of a reverse range scan ending at C. An upstream offset of {@link #RESET}
 * (all bits set) is never stored: on the history topic it marks "forget every sync of this partition".
 */
public final class OffsetSyncKeys {

    /** Upstream offset of a reset marker on the history topic. */
    public static final long RESET = -1L;

    private OffsetSyncKeys() {
    }

    public static Bytes key(String topic, int partition, long upstreamOffset) {
        byte[] name = topic.getBytes(StandardCharsets.UTF_8);
        return Bytes.wrap(ByteBuffer.allocate(2 + name.length + 4 + 8)
                .putShort((short) name.length).put(name).putInt(partition).putLong(upstreamOffset).array());
    }

    public static Bytes resetMarker(String topic, int partition) {
        return key(topic, partition, RESET);
    }

    public static OffsetSyncPoint decode(Bytes key, byte[] value) {
        ByteBuffer buf = ByteBuffer.wrap(key.get());
        byte[] name = new byte[buf.getShort()];
        buf.get(name);
        int partition = buf.getInt();
        long upstream = buf.getLong();
        return new OffsetSyncPoint(new String(name, StandardCharsets.UTF_8), partition, upstream,
                value == null || value.length < 8 ? -1 : ByteBuffer.wrap(value).getLong());
    }

    public static long upstreamOf(Bytes key) {
        byte[] raw = key.get();
        return ByteBuffer.wrap(raw, raw.length - 8, 8).getLong();
    }

    public static byte[] value(long downstreamOffset) {
        return ByteBuffer.allocate(8).putLong(downstreamOffset).array();
    }
}
