package dev.sextant.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.apply.GroupOutcome;
import dev.sextant.apply.GroupOutcome.PartitionOutcome;
import dev.sextant.apply.PlannedPartition;
import dev.sextant.domain.MirrorRewind;
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

/**
 * What a task re-plans when the offset-sync history of a partition was forgotten as a whole, or from where its mirror
 * went back on.
 */
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

    @Test
    void aRewindReopensThePositionsTranslatedOrAppliedAtOrPastWhereTheMirrorWentBack() {
        // 190 exact for 200 at, 180 bounded applied while 230 translates to 215, and 150 below
        PartitionPosition atTheRewind = new PartitionPosition(200, 1_000, 190, 0, 190, 200, 1_500, -1,
                PositionStatus.APPLIED, 7);
        PartitionPosition translatedPast = new PartitionPosition(230, 1_100, 215, 3, 180, 210, 1_500, -1,
                PositionStatus.GROUP_ACTIVE, 8);
        PartitionPosition below = new PartitionPosition(160, 1_000, 150, 0, 150, 160, 1_500, -1,
                PositionStatus.APPLIED, 9);
        PositionKey other = new PositionKey("audit", "orders", 0);
        task.positions.put(orders0, atTheRewind);
        task.positions.put(payments0, translatedPast);
        task.positions.put(other, below);
        task.positions.put(orders1, atTheRewind); // another partition: its mirror did not go back
        HistoryResets resets = new HistoryResets(history, task.positions, settler);

        history.rewound("orders", 0, new MirrorRewind(250, 190));
        history.rewound("payments", 0, new MirrorRewind(240, 200));
        markDue(resets);

        assertEquals(atTheRewind.reopened(), task.positions.get(orders0), "190 is where the mirror went back to");
        assertEquals(translatedPast.reopened(), task.positions.get(payments0), "translated past it");
        assertEquals(below, task.positions.get(other), "below it: its records are where they were");
        assertEquals(atTheRewind, task.positions.get(orders1));
        assertEquals(List.of(orders0), task.pending.keys(GROUP));
        assertEquals(List.of(payments0), task.pending.keys("audit"));

        task.pending.done(GROUP);
        markDue(resets);
        assertFalse(task.pending.isPending(GROUP), "taken once");
    }
}
