package dev.sextant.topology;

import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;

/**
 * Applied positions whose translation is bounded, indexed by source partition, so a new offset sync on that
 * partition re-translates just the groups it can improve.
 */
final class BoundedPositions {

    /** Per source partition: committed offset -> groups whose applied position there is bounded. */
    private final Map<TopicPartition, TreeMap<Long, Set<String>>> byOffset = new HashMap<>();
    private final Map<PositionKey, Long> trackedOffset = new HashMap<>();
    private final Map<TopicPartition, Long> newestSeen = new HashMap<>();
    private final Function<TopicPartition, Long> newestUpstream;

    /** @param newestUpstream the newest sync's upstream offset of a partition, or null; null function: identity */
    BoundedPositions(Function<TopicPartition, Long> newestUpstream) {
        this.newestUpstream = newestUpstream;
    }

    void track(PositionKey key, PartitionPosition pos) {
        if (newestUpstream == null) {
            return;
        }
        boolean bounded = pos.status() == PositionStatus.APPLIED && pos.bound() > 0;
        Long old = trackedOffset.get(key);
        if (old == null && !bounded || bounded && old != null && old == pos.sourceOffset()) {
            return; // nothing changes
        }
        TopicPartition tp = new TopicPartition(key.topic(), key.partition());
        trackedOffset.remove(key);
        if (old != null) {
            TreeMap<Long, Set<String>> offsets = byOffset.get(tp);
            Set<String> groups = offsets.get(old);
            groups.remove(key.group());
            if (groups.isEmpty()) {
                offsets.remove(old);
            }
        }
        if (bounded) {
            trackedOffset.put(key, pos.sourceOffset());
            byOffset.computeIfAbsent(tp, p -> new TreeMap<>())
                    .computeIfAbsent(pos.sourceOffset(), o -> new HashSet<>()).add(key.group());
        }
    }

    /**
     * True when an applied, bounded position may have missed a closer sync, one between the sync it was
     * translated with (upstream {@code U = C - bound - 1}) and its offset {@code C}, that {@link #improvable}
     * will not offer it: the partition's head itself lies there, or the last check already went past {@code C}
     * (it ran while this position's write was in flight, with syncs newer than {@code U}).
     */
    boolean outdated(PositionKey key, PartitionPosition pos) {
        if (newestUpstream == null || pos.status() != PositionStatus.APPLIED || pos.bound() <= 0) {
            return false;
        }
        TopicPartition tp = new TopicPartition(key.topic(), key.partition());
        long committed = pos.sourceOffset();
        long used = committed - pos.bound() - 1;
        Long seen = newestSeen.get(tp);
        if (seen != null && seen > used && seen >= committed) {
            return true;
        }
        Long newest = newestUpstream.apply(tp);
        return newest != null && newest <= committed && newest > used;
    }

    /** True when the key's source partition has at least one offset sync (always, for identity). */
    boolean hasHistory(PositionKey key) {
        return newestUpstream == null
                || newestUpstream.apply(new TopicPartition(key.topic(), key.partition())) != null;
    }

    /**
     * Bounded positions that a sync received since the last call can bring closer: the new syncs of a partition
     * lie above the newest one seen before, so only positions committed above it can use them (a consumer that
     * keeps up, not one far behind). A partition seen for the first time, or whose history went backwards (a
     * new log), gives all its positions.
     */
    Set<PositionKey> improvable() {
        Set<PositionKey> out = new HashSet<>();
        byOffset.entrySet().removeIf(e -> e.getValue().isEmpty());
        for (Map.Entry<TopicPartition, TreeMap<Long, Set<String>>> e : byOffset.entrySet()) {
            TopicPartition tp = e.getKey();
            Long newest = newestUpstream.apply(tp);
            if (newest == null) {
                continue;
            }
            Long before = newestSeen.put(tp, newest);
            if (newest.equals(before)) {
                continue;
            }
            Map<Long, Set<String>> candidates = before == null || newest < before
                    ? e.getValue() : e.getValue().tailMap(before, false);
            candidates.values().forEach(groups ->
                    groups.forEach(group -> out.add(new PositionKey(group, tp.topic(), tp.partition()))));
        }
        return out;
    }
}
