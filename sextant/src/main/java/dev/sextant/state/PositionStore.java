package dev.sextant.state;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The queryable per-group position store: one {@link PartitionPosition} per (group, source topic, partition), in a
 * changelogged RocksDB store owned by the task that reads the group's commits. Interactive queries read it through
 * {@link #readOnly}.
 */
public final class PositionStore {

    public static final String NAME = "group-positions";

    private final ReadOnlyKeyValueStore<Bytes, byte[]> store;
    private final KeyValueStore<Bytes, byte[]> writable;

    private PositionStore(ReadOnlyKeyValueStore<Bytes, byte[]> store, KeyValueStore<Bytes, byte[]> writable) {
        this.store = store;
        this.writable = writable;
    }

    public static PositionStore of(KeyValueStore<Bytes, byte[]> store) {
        return new PositionStore(store, store);
    }

    public static PositionStore readOnly(ReadOnlyKeyValueStore<Bytes, byte[]> store) {
        return new PositionStore(store, null);
    }

    public PartitionPosition get(PositionKey key) {
        byte[] raw = store.get(key.toBytes());
        return raw == null ? null : PartitionPosition.fromBytes(raw);
    }

    public void put(PositionKey key, PartitionPosition position) {
        writable.put(key.toBytes(), position.toBytes());
    }

    public void delete(PositionKey key) {
        writable.delete(key.toBytes());
    }

    /** Every partition of the group, in key order. */
    public List<Map.Entry<PositionKey, PartitionPosition>> group(String group) {
        List<Map.Entry<PositionKey, PartitionPosition>> out = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.prefixScan(PositionKey.groupPrefix(group),
                Serdes.Bytes().serializer())) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                PositionKey key = PositionKey.fromBytes(kv.key);
                // the prefix is length-framed, so a longer group name never matches, but be strict anyway
                if (key.group().equals(group)) {
                    out.add(Map.entry(key, PartitionPosition.fromBytes(kv.value)));
                }
            }
        }
        return out;
    }

    public void forEach(BiConsumer<PositionKey, PartitionPosition> action) {
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                action.accept(PositionKey.fromBytes(kv.key), PartitionPosition.fromBytes(kv.value));
            }
        }
    }

    public void deleteGroup(String group) {
        group(group).forEach(e -> delete(e.getKey()));
    }
}
