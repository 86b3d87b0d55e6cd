package dev.sextant.state;

import dev.sextant.translate.OffsetSyncPoint;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;

/**
 * The newest offset sync of every source partition, in memory, next to the {@link OffsetSyncStore} of one instance.
 * A consumer that keeps up commits above its partition's newest sync, so most translations are answered here
 * without opening a RocksDB iterator.
 *
 * <p>Written only by the thread that writes the history (the global-store updater), after the store; read by every
 * stream thread. An entry is never newer than the store; a missing entry only means "ask the store".
 */
public final class NewestSyncs {

    private final Map<TopicPartition, OffsetSyncPoint> newest = new ConcurrentHashMap<>();
    /**
     * Per partition, the number of the last time its translations were forgotten (a reset, a rewind), and from which
     * downstream offset on; bounded by the partitions ever reset or rewound.
     */
    private final Map<TopicPartition, Forgotten> forgottenAt = new ConcurrentHashMap<>();
    private final AtomicLong forgets = new AtomicLong();
    /**
     * Per partition, a count of the changes to its history other than a new newest sync (a sync stored below the
     * head, a deletion, a reset): a reader that remembers syncs below the head ({@link OffsetSyncStore}) trusts
     * them only while this count stays what it was when it read them. Bounded by the partitions with history.
     */
    private final Map<TopicPartition, AtomicLong> changes = new ConcurrentHashMap<>();

    /** The newest sync of the partition, or null when it is not known here. */
    public OffsetSyncPoint get(String topic, int partition) {
        return newest.get(new TopicPartition(topic, partition));
    }

    /** A sync was stored: it is the newest unless a higher one is known. */
    public void stored(OffsetSyncPoint sync) {
        TopicPartition tp = new TopicPartition(sync.topic(), sync.partition());
        OffsetSyncPoint head = newest.get(tp); // one writer: nothing changes it between here and the merge
        newest.merge(tp, sync, (old, next) -> next.upstreamOffset() >= old.upstreamOffset() ? next : old);
        if (head == null || sync.upstreamOffset() <= head.upstreamOffset()) {
            // not a new head above a known one: it may fall between two syncs a reader remembers as neighbours
            changed(tp);
        }
    }

    /** A sync of the partition was deleted from the store (after the store write). */
    public void deleted(String topic, int partition) {
        changed(new TopicPartition(topic, partition));
    }

    /** How many times the partition's history changed other than by a new newest sync (see {@link #changes}). */
    public long changes(TopicPartition tp) {
        AtomicLong count = changes.get(tp);
        return count == null ? 0 : count.get();
    }

    private void changed(TopicPartition tp) {
        changes.computeIfAbsent(tp, k -> new AtomicLong()).incrementAndGet();
    }

    /** The partition's newest sync after deletions, as the store now has it (null: no history left). */
    public void replace(String topic, int partition, OffsetSyncPoint newestNow) {
        TopicPartition tp = new TopicPartition(topic, partition);
        if (newestNow == null) {
            newest.remove(tp);
        } else {
            newest.put(tp, newestNow);
        }
    }

    /** The partition's whole history was forgotten (a reset marker): counted, so that readers can look again. */
    public void reset(String topic, int partition) {
        TopicPartition tp = new TopicPartition(topic, partition);
        newest.remove(tp);
        changed(tp);
        forgottenAt.put(tp, new Forgotten(forgets.incrementAndGet(), -1));
    }

    /**
     * The partition's mirror went back to {@code downstreamOffset} (a rewind, after the tombstones of the syncs it
     * contradicts): translations at or past it are forgotten, counted so that readers can look again. The offset kept
     * is the lowest the partition went back to, so a reader that looks once after two rewinds misses neither.
     */
    public void rewound(String topic, int partition, long downstreamOffset) {
        forgottenAt.merge(new TopicPartition(topic, partition), new Forgotten(forgets.incrementAndGet(),
                downstreamOffset), (old, next) -> new Forgotten(next.at(), Math.min(old.from(), next.from())));
    }

    /** How many times translations were forgotten so far (resets and rewinds). */
    public long forgets() {
        return forgets.get();
    }

    /**
     * The partitions whose translations were forgotten after the {@code seen}-th time, each with the downstream
     * offset from which on: -1 for a reset (all of them), else the lowest offset the partition's mirror went back to.
     */
    public Map<TopicPartition, Long> forgottenSince(long seen) {
        Map<TopicPartition, Long> out = new HashMap<>();
        forgottenAt.forEach((tp, forgotten) -> {
            if (forgotten.at() > seen) {
                out.put(tp, forgotten.from());
            }
        });
        return out;
    }

    /** The number of a forgetting, and the downstream offset from which on translations were forgotten (-1: all). */
    private record Forgotten(long at, long from) {
    }

    /** True when {@code upstreamOffset} is this partition's newest sync as known here. */
    public boolean isNewest(String topic, int partition, long upstreamOffset) {
        OffsetSyncPoint head = get(topic, partition);
        return head != null && head.upstreamOffset() == upstreamOffset;
    }
}
