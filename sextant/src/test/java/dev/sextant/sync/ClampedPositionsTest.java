package dev.sextant.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Which positions written at the mirror's log end are planned again as the mirror's end moves past them. */
class ClampedPositionsTest {

    private static final String GROUP = "billing";

    /** Destination log ends as the view knows them (no entry: not known). */
    private final Map<TopicPartition, Long> ends = new HashMap<>();
    private final ClampedPositions clamped = new ClampedPositions(tp -> ends.getOrDefault(tp, -1L));
    private final PendingGroups pending = new PendingGroups();
    private final PositionKey orders0 = new PositionKey(GROUP, "orders", 0);
    private final PositionKey orders1 = new PositionKey(GROUP, "orders", 1);
    private final TopicPartition mirror0 = new TopicPartition("source.orders", 0);
    private final TopicPartition mirror1 = new TopicPartition("source.orders", 1);

    /** Committed at 200, translated to 190, written at {@code writtenAt} (short of 190: the mirror's end then). */
    private static PartitionPosition writtenAt(long writtenAt) {
        return new PartitionPosition(200, 1_000, 190, 0, writtenAt, 200, 1_500, -1, PositionStatus.APPLIED);
    }

    private List<PositionKey> markDue() {
        clamped.markDue(0, pending);
        List<PositionKey> due = pending.keys(GROUP);
        due.forEach(pending::clean);
        return due;
    }

    @Test
    void aClampedPositionIsDueOnceTheMirrorsEndIsPastWhereItWasWritten() {
        clamped.track(orders0, mirror0, writtenAt(150));

        assertEquals(List.of(), markDue(), "the end is not known");
        ends.put(mirror0, 150L);
        assertEquals(List.of(), markDue(), "the end is where it was written");
        ends.put(mirror0, 151L);
        assertEquals(List.of(orders0), markDue());
        assertEquals(0, clamped.size(), "handed to the planner, which clamps it anew if the end is still short");
        assertEquals(List.of(), markDue());
    }

    @Test
    void eachDestinationPartitionsEndCountsForItsOwnPositions() {
        clamped.track(orders0, mirror0, writtenAt(150));
        clamped.track(orders1, mirror1, writtenAt(150));

        ends.put(mirror1, 1_000L);

        assertEquals(List.of(orders1), markDue());
        assertEquals(1, clamped.size());
    }

    @Test
    void onlyClampedPositionsAreTracked() {
        ends.put(mirror0, 1_000L);

        clamped.track(orders0, mirror0, writtenAt(190)); // written at its translation
        assertEquals(0, clamped.size());

        clamped.track(orders0, mirror0, writtenAt(150));
        clamped.track(orders0, mirror0, PartitionPosition.committed(250, 2_000)); // a new commit: pending again
        assertEquals(0, clamped.size());
        assertEquals(List.of(), markDue());
    }

    @Test
    void aPositionTrackedUnderAnotherDestinationPartitionLeavesTheOldOne() {
        clamped.track(orders0, mirror0, writtenAt(150));
        clamped.track(orders0, mirror1, writtenAt(150)); // its mirror partition changed

        ends.put(mirror0, 1_000L);
        assertEquals(List.of(), markDue());
        assertEquals(1, clamped.size());

        ends.put(mirror1, 1_000L);
        assertEquals(List.of(orders0), markDue());
    }
}
