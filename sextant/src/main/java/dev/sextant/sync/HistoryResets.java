package dev.sextant.sync;

import dev.sextant.state.OffsetSyncStore;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * Partitions whose offset-sync history was forgotten as a whole (the source topic was recreated, or its mirror
 * re-seeded) no longer translate through the syncs their applied positions were written with: each is planned again,
 * so one the history left now no longer covers shows as {@code UNTRANSLATABLE} instead of staying applied; so is one
 * whose write was in flight, once answered. The old translation and what was applied through it are forgotten
 * ({@link PartitionPosition#reopened}): neither the queries nor {@code failover} serve them; the destination's offset
 * stays until the new translation is written.
 */
final class HistoryResets implements ReplanTrigger {

    private final OffsetSyncStore history;
    private final IndexedPositions positions;
    private final WriteSettler settler;
    /** How many partition histories this task has seen forgotten (reset markers). */
    private long seen;

    HistoryResets(OffsetSyncStore history, IndexedPositions positions, WriteSettler settler) {
        this.history = history;
        this.positions = positions;
        this.settler = settler;
        this.seen = history.resets();
    }

    @Override
    public void markDue(long now, PendingGroups pending) {
        if (history.resets() == seen) {
            return;
        }
        Set<TopicPartition> reset = history.resetSince(seen);
        seen = history.resets();
        List<Map.Entry<PositionKey, PartitionPosition>> reopened = new ArrayList<>();
        positions.forEachStored((key, pos) -> {
            if (!reset.contains(new TopicPartition(key.topic(), key.partition()))) {
                return;
            }
            if (pending.inFlight(key.group())) {
                settler.reopenWhenAnswered(key); // its write may be in flight, translated through the old history
            } else {
                reopened.add(Map.entry(key, pos.reopened())); // applied or waiting: its translation is gone too
            }
        });
        for (Map.Entry<PositionKey, PartitionPosition> e : reopened) {
            positions.put(e.getKey(), e.getValue());
            pending.mark(e.getKey(), e.getValue().commitTimestamp());
        }
    }
}
