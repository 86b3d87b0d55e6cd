package dev.sextant.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.apply.GroupOutcome;
import dev.sextant.apply.GroupOutcome.PartitionOutcome;
import dev.sextant.apply.PlannedPartition;
import dev.sextant.state.InMemoryStores;
import dev.sextant.state.NewestSyncs;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import dev.sextant.translate.OffsetTranslation;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** What a task re-plans when the offset-sync history of a partition was forgotten as a whole. */
class HistoryResetsTest {

    private static final String GROUP = "billing";

    private final InMemoryTask task = new InMemoryTask();
    private final WriteSettler settler = task.settler();
    private final OffsetSyncStore history = OffsetSyncStore.writer(InMemoryStores.bytesStore("history"),
            new NewestSyncs());
    private final PositionKey orders0 = new PositionKey(GROUP, "orders", 0);
    private final PositionKey orders1 = new PositionKey(GROUP, "orders", 1);
    private final PositionKey payments0 = new PositionKey("audit", "payments", 0);

    /** Committed at 200, written as 190 within 4. */
    private static PartitionPosition applied() {
        return new PartitionPosition(200, 1_000, 190, 4, 190, 200, 1_500, -1, PositionStatus.APPLIED, 7);
    }

    private void markDue(HistoryResets resets) {
        resets.markDue(task.now(), task.pending);
    }

    @Test
    void aResetReopensThePositionsOfItsPartitionAndMarksThemWithTheirCommit() {
        List.of(orders0, orders1, payments0).forEach(key -> task.positions.put(key, applied()));
        HistoryResets resets = new HistoryResets(history, task.positions, settler);

        markDue(resets);
        assertEquals(applied(), task.positions.get(orders0), "no reset: nothing changes");
        assertFalse(task.pending.isPending(GROUP));

        history.deletePartition("orders", 0); // the source topic was recreated
        markDue(resets);

        assertEquals(applied().reopened(), task.positions.get(orders0), "its old translation is gone too");
        assertEquals(List.of(orders0), task.pending.keys(GROUP));
        assertEquals(1_000, task.pending.pendingSince(orders0));
        assertEquals(applied(), task.positions.get(orders1));
        assertEquals(applied(), task.positions.get(payments0));
    }

    @Test
    void aResetIsTakenOnce() {
        task.positions.put(orders0, applied());
        HistoryResets resets = new HistoryResets(history, task.positions, settler);
        history.deletePartition("orders", 0);
        markDue(resets);
        task.pending.done(GROUP);

        markDue(resets);

        assertFalse(task.pending.isPending(GROUP));
    }

    @Test
    void resetsBeforeTheTaskStartedAreNotTakenAgain() {
        task.positions.put(orders0, applied());
        history.deletePartition("orders", 0);

        markDue(new HistoryResets(history, task.positions, settler));

        assertEquals(applied(), task.positions.get(orders0), "written since, through the history as it is now");
        assertFalse(task.pending.isPending(GROUP));
    }

    @Test
    void aPositionWhoseWriteIsInFlightIsReopenedOnceAnswered() {
        task.positions.put(orders0, PartitionPosition.committed(200, 1_000, 7)
                .withTranslation(OffsetTranslation.bounded(200, 190, 4)));
        task.pending.startFlight(GROUP, List.of(new PlannedPartition(orders0, new TopicPartition("source.orders", 0),
                200, 1_000, 190, 4, 7, false)));
        HistoryResets resets = new HistoryResets(history, task.positions, settler);

        history.deletePartition("orders", 0);
        markDue(resets);
        assertEquals(190, task.positions.get(orders0).translatedOffset(), "its write is still out");

        settler.settle(new GroupOutcome(GROUP, null, false, null,
                Map.of(orders0, new PartitionOutcome(PositionStatus.APPLIED, 190, true))), task.now());

        PartitionPosition answered = task.positions.get(orders0);
        assertEquals(PositionStatus.PENDING, answered.status(), "written through the forgotten history");
        assertEquals(-1, answered.translatedOffset());
        assertTrue(task.pending.keys(GROUP).contains(orders0));
    }
}
