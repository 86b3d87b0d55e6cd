package dev.sextant.state;

import dev.sextant.decode.UndecodableRecordException;
import java.nio.ByteBuffer;
import org.apache.kafka.common.Uuid;

/**
 * The effective start offset of one share partition, on its way from the task that replays
 * {@code __share_group_state} to the task that owns the group (record key: the group id). An offset of -1 means the
 * share state was deleted.
 *
 * <pre>  [16 bytes topic id][int32 partition][int64 offset][int64 state write time]</pre>
 */
public record SharePosition(Uuid topicId, int partition, long offset, long timestamp) {

    public byte[] toBytes() {
        return ByteBuffer.allocate(SIZE).putLong(topicId.getMostSignificantBits())
                .putLong(topicId.getLeastSignificantBits()).putInt(partition).putLong(offset).putLong(timestamp)
                .array();
    }

    private static final int SIZE = 16 + 4 + 8 + 8;

    /** Anyone who may write the topic can put anything there: a record of the wrong size is refused, not guessed at. */
    public static SharePosition fromBytes(String group, byte[] raw) throws UndecodableRecordException {
        if (group == null || raw == null || raw.length != SIZE) {
            throw UndecodableRecordException.malformed(group, "share position " + (group == null ? "without a key"
                    : raw == null ? "without a value" : "of " + raw.length + " bytes, not " + SIZE), null);
        }
        ByteBuffer buf = ByteBuffer.wrap(raw);
        SharePosition position = new SharePosition(new Uuid(buf.getLong(), buf.getLong()), buf.getInt(), buf.getLong(),
                buf.getLong());
        if (position.partition() < 0 || position.offset() < -1) {
            throw UndecodableRecordException.malformed(group, "share position with partition " + position.partition()
                    + " and offset " + position.offset(), null);
        }
        return position;
    }
}
