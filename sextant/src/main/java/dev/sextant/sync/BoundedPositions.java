package dev.sextant.sync;

import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;

/**
 * Applied positions whose translation is bounded, by source partition, so a new offset sync on that partition
 * re-translates just the groups it can improve.
 *
 * <p>Every settled write passes through {@link #track}, so it must be cheap: a position is appended to its
 * partition's list ({@code O(1)}) rather than kept in a sorted index, and {@link #improvable} (at every flush, only
 * for partitions with a new sync) filters the list by offset. An entry is current while {@code trackedOffset} still
 * maps its key to its offset; stale entries (the position moved or stopped being bounded) are skipped by that scan
 * and dropped by a compaction once a list holds more than {@link #MAX_ENTRIES_PER_CURRENT} entries per current
 * position.
 */
final class BoundedPositions implements ReplanTrigger {

    /** A position's committed offset when it was tracked. */
    private record Entry(PositionKey key, long offset) {
    }

    /** One source partition's tracked positions: appended in track order; {@code current} of them are current. */
    private static final class Partition {
        List<Entry> entries = new ArrayList<>();
        int current;
    }

    /**
     * Entries per current position a list may hold before it is compacted (stale ones outnumbering current ones three
     * to one): a compaction is a pass over the list, so it follows at least three appends per position it keeps, and
     * a list stays within this factor of its current positions.
     */
    private static final int MAX_ENTRIES_PER_CURRENT = 4;
    /** Entries a list may hold beyond that factor: a partition with few positions is not compacted at every track. */
    private static final int COMPACT_SLACK = 64;

    /** Exactly the positions that are applied and bounded: key -> committed offset. */
    private final Map<PositionKey, Long> trackedOffset = new HashMap<>();
    private final Map<TopicPartition, Partition> byPartition = new HashMap<>();
    private final Map<TopicPartition, Long> newestSeen = new HashMap<>();
    /**
     * The latest intervals proven per partition: upstream lower to upper, at most {@link #PROOFS_KEPT} (the oldest
     * go first). As many as a batch of proofs may bring for one partition while writes are in flight.
     */
    private final Map<TopicPartition, LinkedHashMap<Long, Long>> proven = new HashMap<>();
    private static final int PROOFS_KEPT = 1_024;
    private final Function<TopicPartition, Long> newestUpstream;

    /** @param newestUpstream the newest sync's upstream offset of a partition, or null; null function: identity */
    BoundedPositions(Function<TopicPartition, Long> newestUpstream) {
        this.newestUpstream = newestUpstream;
    }

    /** The newest sync's upstream offset of a partition (null: none), or null itself under identity translation. */
    Function<TopicPartition, Long> newestUpstream() {
        return newestUpstream;
    }

    void track(PositionKey key, PartitionPosition pos) {
        if (newestUpstream == null) {
            return;
        }
        boolean bounded = pos.status() == PositionStatus.APPLIED && pos.bound() > 0;
        Long old = bounded ? trackedOffset.put(key, pos.sourceOffset()) : trackedOffset.remove(key);
        if (old == null && !bounded || bounded && old != null && old == pos.sourceOffset()) {
            return; // nothing changes
        }
        Partition partition = byPartition.computeIfAbsent(new TopicPartition(key.topic(), key.partition()),
                tp -> new Partition());
        if (old == null) {
            partition.current++;
        } else if (!bounded) {
            partition.current--;
        }
        if (bounded) {
            partition.entries.add(new Entry(key, pos.sourceOffset()));
            if (partition.entries.size() > MAX_ENTRIES_PER_CURRENT * partition.current + COMPACT_SLACK) {
                partition.entries = currentEntries(partition);
            }
        }
    }

    private boolean isCurrent(Entry e) {
        Long offset = trackedOffset.get(e.key());
        return offset != null && offset == e.offset();
    }

    /** The current entries, each key once (a key that left an offset and came back to it is listed twice). */
    private List<Entry> currentEntries(Partition partition) {
        List<Entry> kept = new ArrayList<>(partition.current);
        Set<PositionKey> seen = new HashSet<>();
        for (Entry e : partition.entries) {
            if (isCurrent(e) && seen.add(e.key())) {
                kept.add(e);
            }
        }
        return kept;
    }

    /**
     * True when an applied, bounded position may have missed a closer sync, one between the sync it was
     * translated with (upstream {@code U = C - bound - 1}) and its offset {@code C}, that {@link #improvable}
     * will not offer it: the partition's head itself lies there, or the last check already went past {@code C}
     * (it ran while this position's write was in flight, with syncs newer than {@code U}); or an interval starting at
     * {@code U} and holding {@code C} was proven lately (maybe while the write was in flight).
     */
    boolean outdated(PositionKey key, PartitionPosition pos) {
        if (newestUpstream == null || pos.status() != PositionStatus.APPLIED || pos.bound() <= 0) {
            return false;
        }
        TopicPartition tp = new TopicPartition(key.topic(), key.partition());
        long committed = pos.sourceOffset();
        long used = committed - pos.bound() - 1;
        Long seen = newestSeen.get(tp);
        if (seen != null && seen > used && seen >= committed || insideProven(tp, used, committed)) {
            return true;
        }
        Long newest = newestUpstream.apply(tp);
        return newest != null && newest <= committed && newest > used;
    }

    /**
     * The current positions of a partition committed strictly between {@code lower} and {@code upper} (upstream
     * offsets of two syncs): those an interval proven between them makes exact.
     */
    Set<PositionKey> inside(TopicPartition tp, long lower, long upper) {
        proven.computeIfAbsent(tp, p -> new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Long> eldest) {
                return size() > PROOFS_KEPT;
            }
        }).put(lower, upper);
        Set<PositionKey> out = new HashSet<>();
        Partition partition = byPartition.get(tp);
        if (partition != null) {
            for (Entry entry : partition.entries) {
                if (entry.offset() > lower && entry.offset() < upper && isCurrent(entry)) {
                    out.add(entry.key());
                }
            }
        }
        return out;
    }

    /** True when an interval proven lately starts at the sync a position used and holds its offset. */
    private boolean insideProven(TopicPartition tp, long used, long committed) {
        Map<Long, Long> kept = proven.get(tp);
        Long upper = kept == null ? null : kept.get(used);
        return upper != null && committed < upper;
    }

    /** Every current position. */
    Set<PositionKey> all() {
        return new HashSet<>(trackedOffset.keySet());
    }

    /** True when the key's source partition has at least one offset sync (always, for identity). */
    boolean hasHistory(PositionKey key) {
        return newestUpstream == null
                || newestUpstream.apply(new TopicPartition(key.topic(), key.partition())) != null;
    }

    /** A sync received since the last flush may bring bounded positions closer: those it can are planned again. */
    @Override
    public void markDue(long now, PendingGroups pending) {
        improvable().forEach(pending::mark);
    }

    /**
     * Bounded positions that a sync received since the last call can bring closer: the new syncs of a partition
     * lie above the newest one seen before, so only positions committed above it can use them (a consumer that
     * keeps up, not one far behind). A partition seen for the first time, or whose history went backwards (a
     * new log), gives all its positions.
     */
    Set<PositionKey> improvable() {
        Set<PositionKey> out = new HashSet<>();
        for (Iterator<Map.Entry<TopicPartition, Partition>> it = byPartition.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<TopicPartition, Partition> e = it.next();
            Partition partition = e.getValue();
            if (partition.current == 0) {
                it.remove();
                continue;
            }
            TopicPartition tp = e.getKey();
            Long newest = newestUpstream.apply(tp);
            if (newest == null) {
                continue;
            }
            Long before = newestSeen.put(tp, newest);
            if (newest.equals(before)) {
                continue;
            }
            boolean all = before == null || newest < before;
            // the offset first: most positions lie below the head seen before, and a comparison is all they cost
            for (Entry entry : partition.entries) {
                if ((all || entry.offset() > before) && isCurrent(entry)) {
                    out.add(entry.key());
                }
            }
        }
        return out;
    }
}
