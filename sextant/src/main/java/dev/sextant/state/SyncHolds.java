package dev.sextant.state;

import java.nio.ByteBuffer;
import java.util.function.BiConsumer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The offset syncs held until the log ends show whether they describe the two logs, in a changelogged store next to
 * the history writer, keyed by arrival sequence (8 bytes, big-endian), so that a crash or a rebalance loses none.
 * The value is the holder's own encoding.
 */
public final class SyncHolds {

    public static final String NAME = "offset-sync-holds";

    private final KeyValueStore<Bytes, byte[]> store;

    private SyncHolds(KeyValueStore<Bytes, byte[]> store) {
        this.store = store;
    }

    public static SyncHolds of(KeyValueStore<Bytes, byte[]> store) {
        return new SyncHolds(store);
    }

    public void put(long seq, byte[] value) {
        store.put(key(seq), value);
    }

    public void delete(long seq) {
        store.delete(key(seq));
    }

    /** Every held sync, in arrival order. */
    public void forEach(BiConsumer<Long, byte[]> action) {
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                action.accept(ByteBuffer.wrap(kv.key.get()).getLong(), kv.value);
            }
        }
    }

    private static Bytes key(long seq) {
        return Bytes.wrap(ByteBuffer.allocate(Long.BYTES).putLong(seq).array());
    }
}
