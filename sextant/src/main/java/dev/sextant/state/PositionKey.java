package dev.sextant.state;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Bytes;

/**
 * Key of the per-group position store: one entry per (group, source topic, partition). The group comes first, length
 * prefixed, so all partitions of a group are one contiguous prefix:
 *
 * <pre>
 *   [int16 group length][group UTF-8][int16 topic length][topic UTF-8][int32 partition]
 * </pre>
 */
public record PositionKey(String group, String topic, int partition) {

    // Written out: a record's generated equals and hashCode go through an invokedynamic bootstrap that showed as a
    // tenth of the stream thread's samples (every commit and every flushed position does several lookups by key).
    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof PositionKey k && partition == k.partition && group.equals(k.group)
                && topic.equals(k.topic);
    }

    @Override
    public int hashCode() {
        return (group.hashCode() * 31 + topic.hashCode()) * 31 + partition;
    }

    public Bytes toBytes() {
        byte[] g = group.getBytes(StandardCharsets.UTF_8);
        byte[] t = topic.getBytes(StandardCharsets.UTF_8);
        return Bytes.wrap(ByteBuffer.allocate(2 + g.length + 2 + t.length + 4)
                .putShort((short) g.length).put(g).putShort((short) t.length).put(t).putInt(partition).array());
    }

    public static PositionKey fromBytes(Bytes bytes) {
        ByteBuffer buf = ByteBuffer.wrap(bytes.get());
        String group = readString(buf);
        String topic = readString(buf);
        return new PositionKey(group, topic, buf.getInt());
    }

    /** The prefix shared by every key of {@code group}. */
    public static Bytes groupPrefix(String group) {
        byte[] g = group.getBytes(StandardCharsets.UTF_8);
        return Bytes.wrap(ByteBuffer.allocate(2 + g.length).putShort((short) g.length).put(g).array());
    }

    private static String readString(ByteBuffer buf) {
        byte[] raw = new byte[buf.getShort()];
        buf.get(raw);
        return new String(raw, StandardCharsets.UTF_8);
    }
}
