package dev.sextant.state;

import dev.sextant.domain.GroupKind;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The group registry: one {@link GroupRecord} per source group, in a changelogged store beside the positions. The
 * owning task keeps a copy in memory, so the per-commit lookup of a group's type costs no RocksDB read.
 */
public final class GroupStore {

    public static final String NAME = "groups";

    private final ReadOnlyKeyValueStore<String, byte[]> store;
    private final KeyValueStore<String, byte[]> writable;
    private final Map<String, GroupRecord> cache;

    private GroupStore(ReadOnlyKeyValueStore<String, byte[]> store, KeyValueStore<String, byte[]> writable,
                       boolean cached) {
        this.store = store;
        this.writable = writable;
        this.cache = cached ? new HashMap<>() : null;
        if (cached) {
            forEach(cache::put);
        }
    }

    /** The owning task's view: writable, cached in memory. */
    public static GroupStore of(KeyValueStore<String, byte[]> store) {
        return new GroupStore(store, store, true);
    }

    /** An interactive-query view: read-only, uncached. */
    public static GroupStore readOnly(ReadOnlyKeyValueStore<String, byte[]> store) {
        return new GroupStore(store, null, false);
    }

    public GroupRecord get(String group) {
        if (cache != null) {
            return cache.get(group);
        }
        byte[] raw = store.get(group);
        return raw == null ? null : GroupRecord.fromBytes(raw);
    }

    /** The group's kind as recorded; a group seen only through its offset commits is a consumer group. */
    public GroupKind kindOf(String group) {
        GroupRecord record = get(group);
        return record == null ? GroupKind.CONSUMER : record.type();
    }

    public void put(String group, GroupRecord record) {
        writable.put(group, record.toBytes());
        cache.put(group, record);
    }

    public void delete(String group) {
        writable.delete(group);
        cache.remove(group);
    }

    public int size() {
        return cache != null ? cache.size() : (int) store.approximateNumEntries();
    }

    public void forEach(BiConsumer<String, GroupRecord> action) {
        if (cache != null && !cache.isEmpty()) {
            cache.forEach(action);
            return;
        }
        try (KeyValueIterator<String, byte[]> it = store.all()) {
            while (it.hasNext()) {
                KeyValue<String, byte[]> kv = it.next();
                action.accept(kv.key, GroupRecord.fromBytes(kv.value));
            }
        }
    }
}
