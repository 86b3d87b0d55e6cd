package dev.sextant.state;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.InternalProcessorContext;
import org.apache.kafka.streams.processor.internals.ProcessorRecordContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.internals.WrappedStateStore;

/**
 * A key-value store that keeps writes in a hash map until Kafka Streams commits, then writes each key once to the
 * store below it (RocksDB and its changelog).
 *
 * <pre>
 *   put/delete ──▶ pending (last write per key) ──commit──▶ metered ▶ changelogging ▶ RocksDB
 *   get/range  ──▶ pending, else the store below
 * </pre>
 *
 * <p>This is what Streams' record cache does, without its costs for a store written far more often than read
 * through it: the cache is a sorted map with an LRU list, and with more keys than its byte budget it evicts, so a
 * write became a sorted-map insert plus a RocksDB write and a changelog record anyway. Here a write is a hash-map
 * put, and a key written many times between two commits (a position committed, planned and settled) costs one
 * RocksDB write and one changelog record.
 *
 * <p>Invariants:
 * <ul>
 *   <li>Streams flushes stores' caches before it flushes its producer and commits the input offsets
 *       ({@code flushCache}, called on this, the outermost store); every pending write is below by then, so a
 *       committed input offset never covers a write that only lived here. After a crash, what was pending is
 *       rebuilt by reprocessing from the committed offsets, as with the record cache.</li>
 *   <li>Only the stream thread that owns the task writes. Other threads (interactive queries) read: a key is
 *       written below before it leaves the pending map, so a reader sees either the pending value or the one below,
 *       never an older one.</li>
 *   <li>Range reads (range, all, prefix scans) see pending writes too, merged over the store below; that costs a
 *       pass over the pending map, which holds at most the keys written since the last commit.</li>
 * </ul>
 */
public final class WriteBehindKeyValueStore extends WrappedStateStore<KeyValueStore<Bytes, byte[]>, Bytes, byte[]>
        implements KeyValueStore<Bytes, byte[]> {

    /** Marks a pending delete (compared by identity: no stored value is this array). */
    private static final byte[] DELETED = new byte[0];

    private final Map<Bytes, byte[]> pending = new ConcurrentHashMap<>();
    private StateStoreContext context;

    public WriteBehindKeyValueStore(KeyValueStore<Bytes, byte[]> inner) {
        super(inner);
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        this.context = context;
        super.init(context, root);
    }

    @Override
    public void put(Bytes key, byte[] value) {
        pending.put(key, value == null ? DELETED : value);
    }

    @Override
    public byte[] putIfAbsent(Bytes key, byte[] value) {
        byte[] existing = get(key);
        if (existing == null) {
            put(key, value);
        }
        return existing;
    }

    @Override
    public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        for (KeyValue<Bytes, byte[]> entry : entries) {
            put(entry.key, entry.value);
        }
    }

    @Override
    public byte[] delete(Bytes key) {
        byte[] old = get(key);
        pending.put(key, DELETED);
        return old;
    }

    @Override
    public byte[] get(Bytes key) {
        byte[] value = pending.get(key);
        if (value == DELETED) {
            return null;
        }
        return value != null ? value : wrapped().get(key);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        return merged(wrapped().range(from, to), inRange(from, to), false);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
        return merged(wrapped().reverseRange(from, to), inRange(from, to), true);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return merged(wrapped().all(), k -> true, false);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseAll() {
        return merged(wrapped().reverseAll(), k -> true, true);
    }

    @Override
    public <S extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, S prefixKeySerializer) {
        byte[] head = prefixKeySerializer.serialize(null, prefix);
        return merged(wrapped().prefixScan(prefix, prefixKeySerializer),
                k -> k.get().length >= head.length && Arrays.equals(k.get(), 0, head.length, head, 0, head.length),
                false);
    }

    @Override
    public long approximateNumEntries() {
        return wrapped().approximateNumEntries(); // pending keys are mostly rewrites of stored ones
    }

    /** Before Streams flushes its producer and commits: every pending write goes below. */
    @Override
    public void flushCache() {
        drain();
        super.flushCache();
    }

    @Override
    public void flush() {
        drain();
        wrapped().flush();
    }

    @Override
    public void commit(Map<TopicPartition, Long> changelogOffsets) {
        drain();
        super.commit(changelogOffsets);
    }

    /** Streams clears caches when it recycles a task's stores; it has committed the task before. */
    @Override
    public void clearCache() {
        pending.clear();
        super.clearCache();
    }

    @Override
    public void close() {
        pending.clear(); // a clean close commits first; after a dirty one, reprocessing rebuilds these
        super.close();
    }

    /** Keys written since the last commit and not yet below. */
    int pendingWrites() {
        return pending.size();
    }

    private void drain() {
        if (pending.isEmpty()) {
            return;
        }
        // The changelog write takes its timestamp and headers from the record being processed. A commit runs
        // between records, with the last one's context still set; should there be none, give it the time now.
        InternalProcessorContext<?, ?> internal = context instanceof InternalProcessorContext<?, ?> c ? c : null;
        ProcessorRecordContext before = internal == null ? null : internal.recordContext();
        if (internal != null && before == null) {
            internal.setRecordContext(new ProcessorRecordContext(System.currentTimeMillis(), -1, -1, null,
                    new RecordHeaders()));
        }
        try {
            // one batch: RocksDB writes it in one call (a null value deletes), and the changelog gets a record per key
            List<KeyValue<Bytes, byte[]>> batch = new ArrayList<>(pending.size());
            pending.forEach((key, value) -> batch.add(KeyValue.pair(key, value == DELETED ? null : value)));
            wrapped().putAll(batch);
            for (KeyValue<Bytes, byte[]> written : batch) {
                // below first, then out of here: readers never see an older value; only this thread writes, so
                // what is pending is exactly what was just written
                pending.remove(written.key);
            }
        } finally {
            if (internal != null && before == null) {
                internal.setRecordContext(null);
            }
        }
    }

    private static Predicate<Bytes> inRange(Bytes from, Bytes to) {
        return k -> (from == null || k.compareTo(from) >= 0) && (to == null || k.compareTo(to) <= 0);
    }

    private KeyValueIterator<Bytes, byte[]> merged(KeyValueIterator<Bytes, byte[]> below, Predicate<Bytes> inRange,
                                                   boolean reverse) {
        if (pending.isEmpty()) {
            return below;
        }
        NavigableMap<Bytes, byte[]> view = new TreeMap<>(reverse ? Comparator.<Bytes>reverseOrder()
                : Comparator.<Bytes>naturalOrder());
        try (below) {
            while (below.hasNext()) {
                KeyValue<Bytes, byte[]> kv = below.next();
                view.put(kv.key, kv.value);
            }
        }
        pending.forEach((key, value) -> {
            if (inRange.test(key)) {
                if (value == DELETED) {
                    view.remove(key);
                } else {
                    view.put(key, value);
                }
            }
        });
        return new MapIterator(view.entrySet().iterator());
    }

    /** An iterator over a materialised, merged range. */
    private static final class MapIterator implements KeyValueIterator<Bytes, byte[]> {
        private final Iterator<Map.Entry<Bytes, byte[]>> entries;
        private Map.Entry<Bytes, byte[]> next;

        MapIterator(Iterator<Map.Entry<Bytes, byte[]>> entries) {
            this.entries = entries;
            this.next = entries.hasNext() ? entries.next() : null;
        }

        @Override
        public boolean hasNext() {
            return next != null;
        }

        @Override
        public KeyValue<Bytes, byte[]> next() {
            if (next == null) {
                throw new NoSuchElementException();
            }
            KeyValue<Bytes, byte[]> kv = KeyValue.pair(next.getKey(), next.getValue());
            next = entries.hasNext() ? entries.next() : null;
            return kv;
        }

        @Override
        public Bytes peekNextKey() {
            if (next == null) {
                throw new NoSuchElementException();
            }
            return next.getKey();
        }

        @Override
        public void close() {
        }
    }
}
