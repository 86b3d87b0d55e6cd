package dev.sextant.state;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Bytes;

/**
 * The store where the share-state replay keeps every share partition's state ({@code SharePartitionState}), and its
 * key layout: one entry per (group, topic id, partition), as {@code __share_group_state} keys them.
 *
 * <pre>  [int16 group length][group, UTF-8][16 bytes topic id][int32 partition]</pre>
 */
public final class ShareStateKeys {

    public static final String STORE = "share-state";

    private ShareStateKeys() {
    }

    public static Bytes key(String group, Uuid topicId, int partition) {
        byte[] name = group.getBytes(StandardCharsets.UTF_8);
        return Bytes.wrap(ByteBuffer.allocate(Short.BYTES + name.length + 16 + Integer.BYTES)
                .putShort((short) name.length).put(name)
                .putLong(topicId.getMostSignificantBits()).putLong(topicId.getLeastSignificantBits())
                .putInt(partition).array());
    }
}
