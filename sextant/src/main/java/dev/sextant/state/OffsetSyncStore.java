package dev.sextant.state;

import dev.sextant.domain.MirrorRewind;
import dev.sextant.translate.OffsetSyncPoint;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
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
 * updater, through {@link #writer}. When both are given the instance's {@link NewestSyncs}, the writer keeps those
 * heads exact (after each store write) and the reader answers a lookup at or above a partition's head from memory:
 * a consumer that keeps up commits there, so most translations open no RocksDB iterator. Below the head, such a
 * reader answers from the intervals it looked up before ({@link LookedUpIntervals}) while the history there stays
 * as it was.
 */
public final class OffsetSyncStore implements WritableSyncHistory {

    /** The global store's name (Kafka Streams), also used by interactive queries. */
    public static final String NAME = "offset-sync-history";

    private final ReadOnlyKeyValueStore<Bytes, byte[]> store;
    private final KeyValueStore<Bytes, byte[]> writable;
    private final NewestSyncs newest;
    /**
     * A reader with {@link NewestSyncs} remembers the intervals it looked up below the heads; null for the others.
     * Such a reader belongs to one task, so one thread.
     */
    private final LookedUpIntervals intervals;

    private OffsetSyncStore(ReadOnlyKeyValueStore<Bytes, byte[]> store, KeyValueStore<Bytes, byte[]> writable,
                            NewestSyncs newest) {
        this.store = store;
        this.writable = writable;
        this.newest = newest;
        this.intervals = newest != null && writable == null
                ? new LookedUpIntervals(newest, this::seekAtOrBelow, this::seekAbove) : null;
    }

    public static OffsetSyncStore reader(ReadOnlyKeyValueStore<Bytes, byte[]> store) {
        return new OffsetSyncStore(store, null, null);
    }

    /** A reader that answers from {@code newest} when the lookup is at or above the partition's head. */
    public static OffsetSyncStore reader(ReadOnlyKeyValueStore<Bytes, byte[]> store, NewestSyncs newest) {
        return new OffsetSyncStore(store, null, newest);
    }

    public static OffsetSyncStore writer(KeyValueStore<Bytes, byte[]> store) {
        return new OffsetSyncStore(store, store, null);
    }

    /** A writer that keeps {@code newest} exact; call {@link #seedNewest} once when the store opens. */
    public static OffsetSyncStore writer(KeyValueStore<Bytes, byte[]> store, NewestSyncs newest) {
        return new OffsetSyncStore(store, store, newest);
    }

    @Override
    public Optional<OffsetSyncPoint> latestAtOrBelow(String topic, int partition, long upstreamOffset) {
        if (upstreamOffset < 0) {
            return Optional.empty();
        }
        if (newest != null) {
            OffsetSyncPoint head = newest.get(topic, partition);
            if (head != null && head.upstreamOffset() <= upstreamOffset) {
                return Optional.of(head);
            }
        }
        return intervals == null ? seekAtOrBelow(topic, partition, upstreamOffset)
                : intervals.latestAtOrBelow(topic, partition, upstreamOffset);
    }

    @Override
    public Optional<OffsetSyncPoint> earliestAbove(String topic, int partition, long upstreamOffset) {
        if (upstreamOffset == Long.MAX_VALUE) {
            return Optional.empty();
        }
        if (newest != null) {
            OffsetSyncPoint head = newest.get(topic, partition);
            if (head != null && head.upstreamOffset() <= upstreamOffset) {
                return Optional.empty(); // a commit at or above the head: the common case, answered without a scan
            }
        }
        return intervals == null ? seekAbove(topic, partition, upstreamOffset)
                : intervals.earliestAbove(topic, partition, upstreamOffset);
    }

    private Optional<OffsetSyncPoint> seekAtOrBelow(String topic, int partition, long upstreamOffset) {
        return first(store.reverseRange(OffsetSyncKeys.key(topic, partition, 0),
                OffsetSyncKeys.key(topic, partition, upstreamOffset)));
    }

    private Optional<OffsetSyncPoint> seekAbove(String topic, int partition, long upstreamOffset) {
        return first(store.range(OffsetSyncKeys.key(topic, partition, Math.max(0, upstreamOffset + 1)),
                OffsetSyncKeys.key(topic, partition, Long.MAX_VALUE)));
    }

    /** The sync with the highest upstream offset of the partition. */
    @Override
    public Optional<OffsetSyncPoint> newest(String topic, int partition) {
        return latestAtOrBelow(topic, partition, Long.MAX_VALUE);
    }

    /** The sync with the lowest upstream offset of the partition. */
    public Optional<OffsetSyncPoint> oldest(String topic, int partition) {
        return first(store.range(OffsetSyncKeys.key(topic, partition, 0),
                OffsetSyncKeys.key(topic, partition, Long.MAX_VALUE)));
    }

    /** Entries in the history (reset markers excluded: none is stored). Reads the whole store: for tests and tools. */
    public long size() {
        long count = 0;
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            while (it.hasNext()) {
                if (OffsetSyncKeys.isSync(it.next().key)) {
                    count++;
                }
            }
        }
        return count;
    }

    /** Every source partition that has history. */
    public Set<TopicPartition> partitions() {
        Set<TopicPartition> out = new LinkedHashSet<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            while (it.hasNext()) {
                Bytes key = it.next().key;
                if (OffsetSyncKeys.isSync(key)) {
                    OffsetSyncPoint p = OffsetSyncKeys.decode(key, null);
                    out.add(new TopicPartition(p.topic(), p.partition()));
                }
            }
        }
        return out;
    }

    /** Hands the newest sync of every partition that has history to {@code action} (one scan of the store). */
    public void forEachNewest(Consumer<OffsetSyncPoint> action) {
        OffsetSyncPoint last = null;
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                if (!OffsetSyncKeys.isSync(kv.key)) {
                    continue;
                }
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

    /** What a restart kept on disk is not replayed through the updater: the heads start from the store. */
    public void seedNewest() {
        forEachNewest(newest::stored);
    }

    /**
     * The syncs of a partition that nothing at or above {@code floor} needs: every sync below the newest one at or
     * below the floor (that one still translates the floor itself).
     */
    public List<OffsetSyncPoint> prunable(String topic, int partition, long floor) {
        Optional<OffsetSyncPoint> keep = latestAtOrBelow(topic, partition, floor);
        if (keep.isEmpty() || keep.get().upstreamOffset() == 0) {
            return List.of();
        }
        List<OffsetSyncPoint> out = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.range(OffsetSyncKeys.key(topic, partition, 0),
                OffsetSyncKeys.key(topic, partition, keep.get().upstreamOffset() - 1))) {
            it.forEachRemaining(kv -> out.add(OffsetSyncKeys.decode(kv.key, kv.value)));
        }
        return out;
    }

    /**
     * The syncs of a partition below {@code upstreamOffset} whose downstream offsets are at or past
     * {@code downstreamOffset}: those a sync that moves the downstream back contradicts. The history is monotone in
     * both offsets until such a sync, so they are its newest entries; read from the newest down.
     */
    public List<OffsetSyncPoint> contradictedBy(String topic, int partition, long upstreamOffset,
                                                long downstreamOffset) {
        List<OffsetSyncPoint> out = new ArrayList<>();
        if (upstreamOffset == 0) {
            return out;
        }
        try (KeyValueIterator<Bytes, byte[]> it = store.reverseRange(OffsetSyncKeys.key(topic, partition, 0),
                OffsetSyncKeys.key(topic, partition, upstreamOffset - 1))) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                OffsetSyncPoint sync = OffsetSyncKeys.decode(kv.key, kv.value);
                if (sync.downstreamOffset() < downstreamOffset) {
                    break;
                }
                out.add(sync);
            }
        }
        return out;
    }

    @Override
    public void put(OffsetSyncPoint sync) {
        writable().put(OffsetSyncKeys.key(sync.topic(), sync.partition(), sync.upstreamOffset()),
                OffsetSyncKeys.value(sync.downstreamOffset()));
        if (newest != null) {
            newest.stored(sync);
        }
    }

    @Override
    public void delete(String topic, int partition, long upstreamOffset) {
        writable().delete(OffsetSyncKeys.key(topic, partition, upstreamOffset));
        if (newest != null && newest.isNewest(topic, partition, upstreamOffset)) {
            newest.replace(topic, partition, first(store.reverseRange(OffsetSyncKeys.key(topic, partition, 0),
                    OffsetSyncKeys.key(topic, partition, Long.MAX_VALUE))).orElse(null));
        }
        if (newest != null) {
            newest.deleted(topic, partition);
        }
    }

    @Override
    public void deletePartition(String topic, int partition) {
        deleteRange(OffsetSyncKeys.key(topic, partition, 0), OffsetSyncKeys.key(topic, partition, Long.MAX_VALUE));
        writable().delete(OffsetSyncKeys.rewindKey(topic, partition)); // a rewind of the log forgotten with it
        if (newest != null) {
            newest.reset(topic, partition);
        }
    }

    /** Where the partition's mirror last went back, as recorded; {@link MirrorRewind#NONE} when it never did. */
    public MirrorRewind rewind(String topic, int partition) {
        byte[] value = store.get(OffsetSyncKeys.rewindKey(topic, partition));
        return value == null ? MirrorRewind.NONE : OffsetSyncKeys.rewindOf(value);
    }

    @Override
    public void rewound(String topic, int partition, MirrorRewind rewind) {
        if (rewind == null) {
            writable().delete(OffsetSyncKeys.rewindKey(topic, partition));
            return;
        }
        writable().put(OffsetSyncKeys.rewindKey(topic, partition), OffsetSyncKeys.rewindValue(rewind));
        if (newest != null) {
            newest.rewound(topic, partition, rewind.downstreamOffset());
        }
    }

    /** The destination cluster id Sextant writes to, when pinned. */
    public Optional<String> destinationCluster() {
        byte[] value = store.get(OffsetSyncKeys.destinationClusterKey());
        return value == null ? Optional.empty() : Optional.of(OffsetSyncKeys.clusterOf(value));
    }

    @Override
    public void destinationCluster(String clusterId) {
        if (clusterId == null) {
            writable().delete(OffsetSyncKeys.destinationClusterKey());
        } else {
            writable().put(OffsetSyncKeys.destinationClusterKey(), OffsetSyncKeys.clusterValue(clusterId));
        }
    }

    /** The destination id of the topic's mirror that its history describes, when known. */
    public Optional<Uuid> mirrorIncarnation(String topic) {
        byte[] value = store.get(OffsetSyncKeys.mirrorIncarnationKey(topic));
        return value == null ? Optional.empty() : Optional.of(OffsetSyncKeys.incarnationOf(value));
    }

    @Override
    public void mirrorIncarnation(String topic, Uuid topicId) {
        if (topicId == null) {
            writable().delete(OffsetSyncKeys.mirrorIncarnationKey(topic));
        } else {
            writable().put(OffsetSyncKeys.mirrorIncarnationKey(topic), OffsetSyncKeys.incarnationValue(topicId));
        }
    }

    /**
     * The mirror id the topic's history describes, as the sync's writes are checked against it: the recorded one; for
     * a topic with syncs but no id recorded (an earlier release wrote its history), {@link MirrorMatch#NOT_RECORDED},
     * which no mirror has, so nothing is written through those syncs until the history intake checked them against
     * the mirror and recorded an id; empty for a topic without history (nothing translates through it).
     */
    public Optional<Uuid> describedMirror(String topic) {
        Optional<Uuid> recorded = mirrorIncarnation(topic);
        return recorded.isPresent() || !hasSyncs(topic) ? recorded : Optional.of(MirrorMatch.NOT_RECORDED);
    }

    private boolean hasSyncs(String topic) {
        try (KeyValueIterator<Bytes, byte[]> it = store.range(OffsetSyncKeys.key(topic, 0, 0),
                OffsetSyncKeys.key(topic, Integer.MAX_VALUE, Long.MAX_VALUE))) {
            while (it.hasNext()) {
                if (OffsetSyncKeys.isSync(it.next().key)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The source topic id the topic's history belongs to, when known. */
    public Optional<Uuid> incarnation(String topic) {
        byte[] value = store.get(OffsetSyncKeys.incarnationKey(topic));
        return value == null ? Optional.empty() : Optional.of(OffsetSyncKeys.incarnationOf(value));
    }

    @Override
    public void incarnation(String topic, Uuid topicId) {
        if (topicId == null) {
            writable().delete(OffsetSyncKeys.incarnationKey(topic));
        } else {
            writable().put(OffsetSyncKeys.incarnationKey(topic), OffsetSyncKeys.incarnationValue(topicId));
        }
    }

    /**
     * How many times this instance saw translations of a partition forgotten so far: its history as a whole (a reset
     * marker: the source topic was recreated, or its mirror), or from a downstream offset on (a rewind: the mirror
     * went back); 0 without {@link NewestSyncs}.
     */
    public long forgets() {
        return newest == null ? 0 : newest.forgets();
    }

    /**
     * The partitions whose translations were forgotten after the {@code seen}-th time, each with the downstream
     * offset from which on ({@link NewestSyncs#forgottenSince}: -1 for all).
     */
    public Map<TopicPartition, Long> forgottenSince(long seen) {
        return newest == null ? Map.of() : newest.forgottenSince(seen);
    }

    private void deleteRange(Bytes from, Bytes to) {
        KeyValueStore<Bytes, byte[]> target = writable();
        List<Bytes> doomed = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = target.range(from, to)) {
            it.forEachRemaining(kv -> doomed.add(kv.key));
        }
        doomed.forEach(target::delete);
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
