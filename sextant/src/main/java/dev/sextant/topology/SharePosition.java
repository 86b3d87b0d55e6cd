package dev.sextant.topology;

import java.nio.ByteBuffer;
import org.apache.kafka.common.Uuid;

/**
 * The effective start offset of one share partition, on its way from the task that replays
 * {@code __share_group_state} to the task that owns the group (record key: the group id). An offset of -1 means the
 * share state was deleted.
 *
 * <pre>  [16 bytes topic id][int32 partition][int64 offset][int64 state write time]</pre>
 */
record SharePosition(Uuid topicId, int partition, long offset, long timestamp) {

    byte[] toBytes() {
        return ByteBuffer.allocate(16 + 4 + 8 + 8).putLong(topicId.getMostSignificantBits())
                .putLong(topicId.getLeastSignificantBits()).putInt(partition).putLong(offset).putLong(timestamp)
                .array();
    }

    static SharePosition fromBytes(byte[] raw) {
        ByteBuffer buf = ByteBuffer.wrap(raw);
        return new SharePosition(new Uuid(buf.getLong(), buf.getLong()), buf.getInt(), buf.getLong(), buf.getLong());
    }
}
