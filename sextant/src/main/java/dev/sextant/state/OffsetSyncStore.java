package dev.sextant.state;

import java.util.Optional;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The full offset-sync history, one entry per sync MirrorMaker 2 emitted, in a RocksDB store keyed by
 * {@link OffsetSyncKeys}. MirrorMaker 2 itself keeps only 64 syncs per partition; keeping all of them is what lets
 * a consumer lagging by a million records translate as precisely as one at the head.
 *
 * <p>Readers (every task that translates) see it through {@link #reader}; the single writer is the global-store
 * updater, through {@link #writer}.
 */
public final class OffsetSyncStore {

    private final ReadOnlyKeyValueStore<Bytes, byte[]> store;
    private final KeyValueStore<Bytes, byte[]> writable;

    private OffsetSyncStore(ReadOnlyKeyValueStore<Bytes, byte[]> store, KeyValueStore<Bytes, byte[]> writable) {
        this.store = store;
        this.writable = writable;
    }

    public static OffsetSyncStore reader(ReadOnlyKeyValueStore<Bytes, byte[]> store) {
        return new OffsetSyncStore(store, null);
    }

    public static OffsetSyncStore writer(KeyValueStore<Bytes, byte[]> store) {
        return new OffsetSyncStore(store, store);
    }

    /** The newest sync of the partition whose upstream offset is at or below {@code upstreamOffset}. */
    public Optional<OffsetSyncPoint> latestAtOrBelow(String topic, int partition, long upstreamOffset) {
        if (upstreamOffset < 0) {
            return Optional.empty();
        }
        return first(store.reverseRange(OffsetSyncKeys.key(topic, partition, 0),
                OffsetSyncKeys.key(topic, partition, upstreamOffset)));
    }

    /** The sync with the highest upstream offset of the partition. */
    public Optional<OffsetSyncPoint> newest(String topic, int partition) {
        return latestAtOrBelow(topic, partition, Long.MAX_VALUE);
    }

    /** The sync with the lowest upstream offset of the partition. */
    public Optional<OffsetSyncPoint> oldest(String topic, int partition) {
        return first(store.range(OffsetSyncKeys.key(topic, partition, 0),
                OffsetSyncKeys.key(topic, partition, Long.MAX_VALUE)));
    }

    /** Every source partition that has history. */
    public java.util.Set<org.apache.kafka.common.TopicPartition> partitions() {
        java.util.Set<org.apache.kafka.common.TopicPartition> out = new java.util.LinkedHashSet<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            while (it.hasNext()) {
                OffsetSyncPoint p = OffsetSyncKeys.decode(it.next().key, null);
                out.add(new org.apache.kafka.common.TopicPartition(p.topic(), p.partition()));
            }
        }
        return out;
    }

    /** Hands the newest sync of every partition that has history to {@code action} (one scan of the store). */
    public void forEachNewest(java.util.function.Consumer<OffsetSyncPoint> action) {
        OffsetSyncPoint last = null;
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                OffsetSyncPoint p = OffsetSyncKeys.decode(kv.key, kv.value);
                if (last != null && (!last.topic().equals(p.topic()) || last.partition() != p.partition())) {
                    action.accept(last);
                }
                last = p;
            }
        }
        if (last != null) {
            action.accept(last);
        }
    }

    /**
     * The syncs of a partition that nothing at or above {@code floor} needs: every sync below the newest one at or
     * below the floor (that one still translates the floor itself).
     */
    public java.util.List<OffsetSyncPoint> prunable(String topic, int partition, long floor) {
        Optional<OffsetSyncPoint> keep = latestAtOrBelow(topic, partition, floor);
        if (keep.isEmpty() || keep.get().upstreamOffset() == 0) {
            return java.util.List.of();
        }
        java.util.List<OffsetSyncPoint> out = new java.util.ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.range(OffsetSyncKeys.key(topic, partition, 0),
                OffsetSyncKeys.key(topic, partition, keep.get().upstreamOffset() - 1))) {
            it.forEachRemaining(kv -> out.add(OffsetSyncKeys.decode(kv.key, kv.value)));
        }
        return out;
    }

    public long approximateSize() {
        return store.approximateNumEntries();
    }

    public void put(OffsetSyncPoint sync) {
        writable().put(OffsetSyncKeys.key(sync.topic(), sync.partition(), sync.upstreamOffset()),
                OffsetSyncKeys.value(sync.downstreamOffset()));
    }

    public void delete(String topic, int partition, long upstreamOffset) {
        writable().delete(OffsetSyncKeys.key(topic, partition, upstreamOffset));
    }

    /** Forgets every sync of the partition whose upstream offset is below {@code upstreamOffset}. */
    public int deleteBelow(String topic, int partition, long upstreamOffset) {
        if (upstreamOffset <= 0) {
            return 0;
        }
        return deleteRange(OffsetSyncKeys.key(topic, partition, 0), OffsetSyncKeys.key(topic, partition, upstreamOffset - 1));
    }

    /** Forgets the whole history of the partition (its upstream offsets went backwards: a new log). */
    public int deletePartition(String topic, int partition) {
        return deleteRange(OffsetSyncKeys.key(topic, partition, 0), OffsetSyncKeys.key(topic, partition, Long.MAX_VALUE));
    }

    private int deleteRange(Bytes from, Bytes to) {
        KeyValueStore<Bytes, byte[]> target = writable();
        java.util.List<Bytes> doomed = new java.util.ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = target.range(from, to)) {
            it.forEachRemaining(kv -> doomed.add(kv.key));
        }
        doomed.forEach(target::delete);
        return doomed.size();
    }

    private KeyValueStore<Bytes, byte[]> writable() {
        if (writable == null) {
            throw new IllegalStateException("read-only view of the offset-sync history");
        }
        return writable;
    }

    private static Optional<OffsetSyncPoint> first(KeyValueIterator<Bytes, byte[]> it) {
        try (it) {
            if (!it.hasNext()) {
                return Optional.empty();
            }
            KeyValue<Bytes, byte[]> kv = it.next();
            return Optional.of(OffsetSyncKeys.decode(kv.key, kv.value));
        }
    }
}
