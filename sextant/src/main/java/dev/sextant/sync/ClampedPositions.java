package dev.sextant.sync;

import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.apache.kafka.common.TopicPartition;

/**
 * Applied positions written at the mirror's log end because their translation lay beyond it
 * ({@link PartitionPosition#clamped()}), by destination partition, so that they are written again, closer, once the
 * destination view shows the end past them: without a read of the destination per commit, and without scanning the
 * store.
 *
 * <p>Invariant: exactly the task's clamped positions are tracked (every settled write passes through {@link #track},
 * and the store's clamped positions are tracked again on recovery); a position leaves when {@link #due} hands it to
 * the planner, which clamps it anew if the end is still short.
 */
final class ClampedPositions implements ReplanTrigger {

    private final Map<TopicPartition, Map<PositionKey, Long>> byDestination = new HashMap<>();
    private final Map<PositionKey, TopicPartition> destinationOf = new HashMap<>();
    private final ToLongFunction<TopicPartition> endOffset;

    /** @param endOffset a destination partition's log end as the view knows it, -1 when not known */
    ClampedPositions(ToLongFunction<TopicPartition> endOffset) {
        this.endOffset = endOffset;
    }

    /** Written at the mirror's end: planned again, closer, once the view shows the end past them. */
    @Override
    public void markDue(long now, PendingGroups pending) {
        due(endOffset).forEach(pending::mark);
    }

    /** Tracks {@code pos} if it is clamped, forgets it otherwise. */
    void track(PositionKey key, TopicPartition destination, PartitionPosition pos) {
        if (pos.clamped()) {
            TopicPartition old = destinationOf.put(key, destination);
            if (old != null && !old.equals(destination)) {
                remove(old, key);
            }
            byDestination.computeIfAbsent(destination, tp -> new HashMap<>()).put(key, pos.appliedOffset());
        } else if (!destinationOf.isEmpty()) {
            TopicPartition old = destinationOf.remove(key);
            if (old != null) {
                remove(old, key);
            }
        }
    }

    private void remove(TopicPartition destination, PositionKey key) {
        Map<PositionKey, Long> keys = byDestination.get(destination);
        if (keys != null) {
            keys.remove(key);
            if (keys.isEmpty()) {
                byDestination.remove(destination);
            }
        }
    }

    /**
     * The positions whose destination partition's log end, as {@code endOffset} knows it (-1: not known), is now past
     * the offset they were written at; they are no longer tracked.
     */
    List<PositionKey> due(ToLongFunction<TopicPartition> endOffset) {
        if (byDestination.isEmpty()) {
            return List.of();
        }
        List<PositionKey> out = new ArrayList<>();
        for (Iterator<Map.Entry<TopicPartition, Map<PositionKey, Long>>> it = byDestination.entrySet().iterator();
             it.hasNext(); ) {
            Map.Entry<TopicPartition, Map<PositionKey, Long>> e = it.next();
            long end = endOffset.applyAsLong(e.getKey());
            if (end < 0) {
                continue;
            }
            e.getValue().entrySet().removeIf(k -> {
                if (end > k.getValue()) {
                    out.add(k.getKey());
                    destinationOf.remove(k.getKey());
                    return true;
                }
                return false;
            });
            if (e.getValue().isEmpty()) {
                it.remove();
            }
        }
        return out;
    }

    int size() {
        return destinationOf.size();
    }
}
