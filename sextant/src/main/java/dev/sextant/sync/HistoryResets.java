package dev.sextant.sync;

import dev.sextant.state.OffsetSyncStore;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * Partitions whose offset-sync history was forgotten as a whole (the source topic was recreated, or its mirror
 * re-seeded) no longer translate through the syncs their applied positions were written with: each is planned again,
 * so one the history left now no longer covers shows as {@code UNTRANSLATABLE} instead of staying applied; so is one
 * whose write was in flight, once answered. The old translation and what was applied through it are forgotten
 * ({@link PartitionPosition#reopened}): neither the queries nor {@code failover} serve them; the destination's offset
 * stays until the new translation is written.
 *
 * <p>A mirror that went back under the same topic id (a rewind: an unclean leader election truncated it, and the
 * history forgot the syncs at or past where it went back) forgets part of a history: the positions translated or
 * applied at or past the offset it went back to are planned again the same way, those below it keep what they have
 * (the records there are where they were). Their new plans carry the rewind
 * ({@link dev.sextant.domain.MirrorRewind}), so the offset the destination holds through the forgotten syncs is no
 * floor to them.
 */
final class HistoryResets implements ReplanTrigger {

    private final OffsetSyncStore history;
    private final IndexedPositions positions;
    private final WriteSettler settler;
    /** How many times this task has seen translations forgotten (reset markers, rewinds). */
    private long seen;

    HistoryResets(OffsetSyncStore history, IndexedPositions positions, WriteSettler settler) {
        this.history = history;
        this.positions = positions;
        this.settler = settler;
        this.seen = history.forgets();
    }

    @Override
    public void markDue(long now, PendingGroups pending) {
        long upTo = history.forgets(); // read first: one counted meanwhile is looked at now and again next time
        if (upTo == seen) {
            return;
        }
        Map<TopicPartition, Long> forgotten = history.forgottenSince(seen);
        seen = upTo;
        List<Map.Entry<PositionKey, PartitionPosition>> reopened = new ArrayList<>();
        positions.forEachStored((key, pos) -> {
            Long from = forgotten.get(new TopicPartition(key.topic(), key.partition()));
            if (from == null || from >= 0 && pos.translatedOffset() < from && pos.appliedOffset() < from) {
                return; // not forgotten, or below where the mirror went back
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
