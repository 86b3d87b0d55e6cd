package dev.sextant.state;

import dev.sextant.translate.OffsetSyncPoint;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;

/**
 * What a task's {@link OffsetSyncStore} reader remembers of the history below the partitions' heads: per partition,
 * the syncs around the last {@value #PER_PARTITION} intervals it looked up. Many groups commit inside the same few
 * intervals of a partition (the caught-up ones near the head, each lagging one in its own), so most lookups below the
 * head are answered here instead of by a RocksDB seek, whose iterator costs more than the rest of a translation; with
 * one interval kept, groups committing in two alternated and each lookup opened one.
 *
 * <p>An interval is trusted only while the partition's change count ({@link NewestSyncs#changes}) stays what it was
 * when it was read: new syncs above the head leave it true, anything else may not. Not thread-safe: a reader belongs
 * to one task, so one thread.
 */
final class LookedUpIntervals {

    /** The most intervals kept per partition. */
    static final int PER_PARTITION = 8;

    /** A seek of the store for one partition, next to {@code upstreamOffset}: what is asked when nothing kept holds. */
    @FunctionalInterface
    interface Seek {
        Optional<OffsetSyncPoint> find(String topic, int partition, long upstreamOffset);
    }

    private final NewestSyncs newest;
    private final Seek atOrBelow;
    private final Seek above;
    private final Map<TopicPartition, Brackets> byPartition = new HashMap<>();

    /**
     * @param atOrBelow the store's newest sync at or below an offset
     * @param above     the store's oldest sync above an offset
     */
    LookedUpIntervals(NewestSyncs newest, Seek atOrBelow, Seek above) {
        this.newest = newest;
        this.atOrBelow = atOrBelow;
        this.above = above;
    }

    /** The newest sync at or below {@code upstreamOffset}, from a kept interval or else the store (then kept). */
    Optional<OffsetSyncPoint> latestAtOrBelow(String topic, int partition, long upstreamOffset) {
        TopicPartition tp = new TopicPartition(topic, partition);
        long changes = newest.changes(tp); // read before the store: a change after it is seen at the next lookup
        Brackets kept = byPartition.computeIfAbsent(tp, t -> new Brackets());
        Bracket known = kept.holding(changes, upstreamOffset);
        if (known != null) {
            return Optional.of(known.lower);
        }
        Optional<OffsetSyncPoint> found = atOrBelow.find(topic, partition, upstreamOffset);
        found.ifPresent(lower -> kept.put(null, new Bracket(changes, lower, upstreamOffset, null)));
        return found;
    }

    /**
     * The oldest sync above {@code upstreamOffset}, from a kept interval or else the store; the store's answer
     * completes the interval that holds the offset, when one does.
     */
    Optional<OffsetSyncPoint> earliestAbove(String topic, int partition, long upstreamOffset) {
        TopicPartition tp = new TopicPartition(topic, partition);
        long changes = newest.changes(tp);
        Brackets kept = byPartition.computeIfAbsent(tp, t -> new Brackets());
        Bracket known = kept.holding(changes, upstreamOffset);
        if (known != null && known.upper != null) {
            return Optional.of(known.upper);
        }
        Optional<OffsetSyncPoint> found = above.find(topic, partition, upstreamOffset);
        if (known != null && found.isPresent()) {
            // nothing between the bracket's lower sync and the offset, and this is the next sync above the offset
            kept.put(known, new Bracket(changes, known.lower, upstreamOffset, found.get()));
        }
        return found;
    }

    /**
     * {@code lower} is the newest sync at or below every offset from its own up to {@code probed}; {@code upper},
     * when not null, the next sync above it; both as the store was when the partition's change count
     * ({@link NewestSyncs#changes}) was {@code changes}. New syncs above the head do not change either.
     */
    private record Bracket(long changes, OffsetSyncPoint lower, long probed, OffsetSyncPoint upper) {

        boolean holds(long offset) {
            return lower.upstreamOffset() <= offset
                    && (upper == null ? offset <= probed : offset < upper.upstreamOffset());
        }
    }

    /**
     * A partition's last intervals looked up, replaced oldest first. It grows one slot per interval in use, up to
     * {@value LookedUpIntervals#PER_PARTITION}: a partition whose groups all commit in one interval keeps one.
     */
    private static final class Brackets {
        private Bracket[] slots = new Bracket[1];
        private int next;

        /** The kept bracket that holds {@code offset} as the store was at {@code changes}, or null. */
        Bracket holding(long changes, long offset) {
            for (Bracket b : slots) {
                if (b != null && b.changes == changes && b.holds(offset)) {
                    return b;
                }
            }
            return null;
        }

        /**
         * Keeps {@code with} in place of {@code old} when it is kept, else in a free slot (or one the store changed
         * since), else in a new one while fewer than {@value LookedUpIntervals#PER_PARTITION}, else in place of the
         * oldest.
         */
        void put(Bracket old, Bracket with) {
            int free = -1;
            for (int i = 0; i < slots.length; i++) {
                if (old != null && slots[i] == old) {
                    slots[i] = with;
                    return;
                }
                if (free < 0 && (slots[i] == null || slots[i].changes != with.changes)) {
                    free = i;
                }
            }
            if (free >= 0) {
                slots[free] = with;
                return;
            }
            if (slots.length < PER_PARTITION) {
                slots = Arrays.copyOf(slots, slots.length + 1);
                slots[slots.length - 1] = with;
                return;
            }
            slots[next] = with;
            next = (next + 1) % slots.length;
        }
    }
}
