package dev.sextant.failover;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A key-value store over a {@link TreeMap} in this JVM, ordered as RocksDB orders bytes, so Sextant's store wrappers
 * ({@link dev.sextant.state.OffsetSyncStore}) and the translator run unchanged outside Kafka Streams: the failover
 * command rebuilds the offset-sync history in one. Not thread-safe; never part of a topology.
 */
final class SortedKeyValueStore implements KeyValueStore<Bytes, byte[]> {

    private final String name;
    private final NavigableMap<Bytes, byte[]> map = new TreeMap<>();

    SortedKeyValueStore(String name) {
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        // nothing to restore: filled by its owner
    }

    @Override
    public void close() {
        map.clear();
    }

    @Override
    public boolean persistent() {
        return false;
    }

    @Override
    public boolean isOpen() {
        return true;
    }

    @Override
    public void put(Bytes key, byte[] value) {
        if (value == null) {
            map.remove(key);
        } else {
            map.put(key, value);
        }
    }

    @Override
    public byte[] putIfAbsent(Bytes key, byte[] value) {
        byte[] old = map.get(key);
        if (old == null) {
            put(key, value);
        }
        return old;
    }

    @Override
    public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        entries.forEach(kv -> put(kv.key, kv.value));
    }

    @Override
    public byte[] delete(Bytes key) {
        return map.remove(key);
    }

    @Override
    public byte[] get(Bytes key) {
        return map.get(key);
    }

    /** Inclusive at both ends, as Kafka Streams' stores. */
    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        return from.compareTo(to) > 0 ? iterator(Map.<Bytes, byte[]>of().entrySet().iterator())
                : iterator(map.subMap(from, true, to, true).entrySet().iterator());
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
        return from.compareTo(to) > 0 ? iterator(Map.<Bytes, byte[]>of().entrySet().iterator())
                : iterator(map.subMap(from, true, to, true).descendingMap().entrySet().iterator());
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return iterator(map.entrySet().iterator());
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseAll() {
        return iterator(map.descendingMap().entrySet().iterator());
    }

    @Override
    public long approximateNumEntries() {
        return map.size();
    }

    /** Iterates a snapshot, so the store can change while an iterator is open (deletes during a range scan). */
    private static KeyValueIterator<Bytes, byte[]> iterator(Iterator<Map.Entry<Bytes, byte[]>> source) {
        List<Map.Entry<Bytes, byte[]>> snapshot = new java.util.ArrayList<>();
        source.forEachRemaining(e -> snapshot.add(Map.entry(e.getKey(), e.getValue())));
        Iterator<Map.Entry<Bytes, byte[]>> it = snapshot.iterator();
        return new KeyValueIterator<>() {
            private Map.Entry<Bytes, byte[]> peeked;

            @Override
            public boolean hasNext() {
                return peeked != null || it.hasNext();
            }

            @Override
            public KeyValue<Bytes, byte[]> next() {
                Map.Entry<Bytes, byte[]> e = peeked != null ? peeked : it.next();
                peeked = null;
                return KeyValue.pair(e.getKey(), e.getValue());
            }

            @Override
            public Bytes peekNextKey() {
                if (peeked == null) {
                    if (!it.hasNext()) {
                        throw new NoSuchElementException();
                    }
                    peeked = it.next();
                }
                return peeked.getKey();
            }

            @Override
            public void close() {
            }
        };
    }
}
