package dev.sextant.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.apply.GroupOutcome;
import dev.sextant.apply.GroupOutcome.PartitionOutcome;
import dev.sextant.apply.PlannedPartition;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.GroupKind;
import dev.sextant.domain.Reason;
import dev.sextant.state.GroupRecord;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import dev.sextant.translate.OffsetTranslation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** What the settler records from the destination's answer to a group's write. */
class WriteSettlerTest {

    private static final String GROUP = "billing";

    private final InMemoryTask task = new InMemoryTask();
    private final WriteSettler settler = task.settler();
    private final PositionKey orders0 = new PositionKey(GROUP, "orders", 0);
    private final PositionKey orders1 = new PositionKey(GROUP, "orders", 1);

    /**
     * The partitions were committed at {@code 200} and planned as {@code 190} within {@code bound}; their write is in
     * flight.
     */
    private void inFlight(long bound, PositionKey... keys) {
        List<PlannedPartition> plan = new ArrayList<>();
        for (PositionKey key : keys) {
            task.commit(key, 200);
            task.positions.put(key, task.positions.get(key).withTranslation(OffsetTranslation.bounded(200, 190,
                    bound)));
            plan.add(new PlannedPartition(key, new TopicPartition("source." + key.topic(), key.partition()), 200,
                    task.now(), 190, bound, -1, false));
        }
        task.pending.startFlight(GROUP, plan);
    }

    private void settle(Reason reason, String detail, Map<PositionKey, PartitionOutcome> partitions) {
        settler.settle(new GroupOutcome(GROUP, reason, false, detail, partitions), task.now());
    }

    private void answer(PositionKey key, PositionStatus status, long destinationOffset, boolean written) {
        settle(null, null, Map.of(key, new PartitionOutcome(status, destinationOffset, written)));
    }

    private void failed() {
        settler.settle(new GroupOutcome(GROUP, null, true, "TimeoutException", Map.of()), task.now());
    }

    private PartitionPosition position(PositionKey key) {
        return task.positions.get(key);
    }

    private boolean dueAt(long at) {
        return task.pending.due(at, 10).contains(GROUP);
    }

    @Test
    void anAppliedWriteSettlesThePositionAndEndsItsWait() {
        inFlight(0, orders0);
        task.advance(40);

        answer(orders0, PositionStatus.APPLIED, 190, true);

        PartitionPosition settled = position(orders0);
        assertEquals(PositionStatus.APPLIED, settled.status());
        assertEquals(190, settled.appliedOffset());
        assertEquals(200, settled.appliedSourceOffset());
        assertFalse(settled.needsApply());
        assertFalse(task.pending.isPending(GROUP));
        assertFalse(task.pending.inFlight(GROUP));
        assertEquals(0, task.pending.unsettledPositions());
        assertEquals(List.of("billing source.orders-0 200->190"), task.checkpoints);
        assertEquals(1.0, task.counter("sextant.positions.applied"));
        assertEquals(40.0, task.registry.get("sextant.sync.latency").timer().max(TimeUnit.MILLISECONDS),
                "from the source commit to the answer");
    }

    @Test
    void aCommitThatArrivedDuringTheWriteKeepsThePartitionPending() {
        inFlight(0, orders0);
        task.advance(10);
        task.commit(orders0, 250);

        answer(orders0, PositionStatus.APPLIED, 190, true);

        PartitionPosition pos = position(orders0);
        assertEquals(PositionStatus.PENDING, pos.status(), "250 is still to write");
        assertEquals(190, pos.appliedOffset(), "what the destination holds now");
        assertEquals(200, pos.appliedSourceOffset());
        assertTrue(task.pending.keys(GROUP).contains(orders0));
        assertEquals(1, task.pending.unsettledPositions());
    }

    /**
     * A trigger that marks a partition while its write is in flight (its interval proven, the mirror's end moved
     * past it) marks it once: the answer must not clean that mark, or the partition keeps the bounded translation it
     * was written with (the proof's trigger and the clamped positions' hand a position over once).
     */
    @Test
    void aMarkMadeWhileTheWriteWasInFlightOutlivesItsAnswer() {
        inFlight(5, orders0, orders1);
        task.pending.mark(orders0); // say, the interval around its commit was proven just now

        settle(null, null, Map.of(orders0, new PartitionOutcome(PositionStatus.APPLIED, 190, true),
                orders1, new PartitionOutcome(PositionStatus.APPLIED, 190, true)));

        assertEquals(List.of(orders0), task.pending.keys(GROUP), "looked at again; orders1 was not marked");
        assertTrue(dueAt(task.now()));
    }

    @Test
    void aFailedWriteBacksTheGroupOffLongerAtEachFailureUntilOneSucceeds() {
        inFlight(0, orders0);
        long at = task.now();

        failed();

        assertEquals(PositionStatus.PENDING, position(orders0).status(), "nothing concluded");
        assertFalse(task.pending.inFlight(GROUP));
        assertFalse(dueAt(at + Backoffs.RETRY_MS / 2 - 1), "drawn from the upper half of a second");
        assertTrue(dueAt(at + Backoffs.RETRY_MS));

        task.pending.startFlight(GROUP, List.of());
        failed();
        assertFalse(dueAt(at + Backoffs.RETRY_MS - 1), "doubled: the upper half of two seconds");
        assertTrue(dueAt(at + 2 * Backoffs.RETRY_MS));
        assertEquals(2.0, task.counter("sextant.apply.retries"));

        task.pending.startFlight(GROUP, List.of());
        settle(null, null, Map.of()); // an answer: the failures are over
        task.pending.startFlight(GROUP, List.of());
        failed();
        assertTrue(dueAt(at + Backoffs.RETRY_MS), "back to a second");
    }

    @Test
    void aGroupTheDestinationRefusesIsRecordedReportedAndBackedOff() {
        inFlight(0, orders0);
        long at = task.now();

        settle(Reason.GROUP_ACTIVE, "UnknownMemberIdException: unknown member",
                Map.of(orders0, new PartitionOutcome(PositionStatus.GROUP_ACTIVE, -1)));

        assertEquals(PositionStatus.GROUP_ACTIVE, position(orders0).status());
        assertEquals(at, position(orders0).pendingSince());
        assertTrue(task.pending.keys(GROUP).contains(orders0), "retried once the guard is gone");
        assertFalse(dueAt(at + Backoffs.GUARD_MS - 1));
        assertTrue(dueAt(at + Backoffs.GUARD_MS));
        assertEquals(List.of(), task.checkpoints);
        DeadLetterRecord record = task.deadLetters.get(0);
        assertEquals(Reason.GROUP_ACTIVE, record.reason());
        assertEquals("UnknownMemberIdException: unknown member", record.detail(), "the destination's own words");
        assertEquals(List.of(new DeadLetterRecord.PartitionDetail("orders", 0, 200L, 190L, null)), record.partitions());
        assertEquals(1.0, task.counter("sextant.deadletter.records"));
    }

    @Test
    void offsetsSomeoneElseCommittedBackTheGroupOffLonger() {
        inFlight(0, orders0);
        long at = task.now();

        settle(Reason.DESTINATION_DIVERGED, "foreign offsets",
                Map.of(orders0, new PartitionOutcome(PositionStatus.DESTINATION_DIVERGED, 170)));

        assertEquals(PositionStatus.DESTINATION_DIVERGED, position(orders0).status());
        assertFalse(dueAt(at + Backoffs.DIVERGED_MS - 1));
        assertTrue(dueAt(at + Backoffs.DIVERGED_MS));
        assertEquals(Reason.DESTINATION_DIVERGED, task.deadLetters.get(0).reason());
    }

    @Test
    void aWriteThatSucceedsAfterARefusalClearsTheGroupsReason() {
        inFlight(0, orders0);
        settle(Reason.GROUP_ACTIVE, "active", Map.of(orders0, new PartitionOutcome(PositionStatus.GROUP_ACTIVE, -1)));
        task.advance(Backoffs.GUARD_MS);
        task.pending.startFlight(GROUP, List.of(new PlannedPartition(orders0, new TopicPartition("source.orders", 0),
                200, task.now(), 190, 0, -1, false)));

        answer(orders0, PositionStatus.APPLIED, 190, true);

        assertNull(task.groups.get(GROUP).openReason());
        assertEquals(-1, position(orders0).pendingSince());
        assertFalse(task.pending.isPending(GROUP));
        assertEquals(1, task.deadLetters.size(), "a reason that ends writes no record");
    }

    @Test
    void aPartitionLeftOutOfTheAnswerStaysPendingAsItWas() {
        inFlight(0, orders0, orders1);
        PartitionPosition before = position(orders1);

        answer(orders0, PositionStatus.APPLIED, 190, true);

        assertEquals(before, position(orders1));
        assertEquals(List.of(orders1), task.pending.keys(GROUP));
    }

    @Test
    void aRewindNotFollowedSettlesWithoutCountingAsAWrite() {
        inFlight(0, orders0);

        answer(orders0, PositionStatus.REWIND_SKIPPED, 300, false);

        assertEquals(PositionStatus.REWIND_SKIPPED, position(orders0).status());
        assertEquals(300, position(orders0).appliedOffset(), "the destination keeps its higher offset");
        assertFalse(task.pending.isPending(GROUP));
        assertEquals(List.of(), task.checkpoints, "a checkpoint only for an applied translation");
        assertEquals(0.0, task.counter("sextant.positions.applied"));
    }

    @Test
    void aBoundedWriteThatANewerSyncOvertookIsLookedAtAgain() {
        inFlight(10, orders0); // translated through a sync at 189
        task.heads.put(new TopicPartition("orders", 0), 195L); // a closer one arrived while the write was in flight

        answer(orders0, PositionStatus.APPLIED, 190, true);

        assertEquals(PositionStatus.APPLIED, position(orders0).status());
        assertTrue(task.pending.keys(GROUP).contains(orders0));
    }

    @Test
    void aBoundedWriteNoNewerSyncCanImproveIsSettled() {
        inFlight(10, orders0);
        task.heads.put(new TopicPartition("orders", 0), 189L); // the sync it was translated with

        answer(orders0, PositionStatus.APPLIED, 190, true);

        assertFalse(task.pending.isPending(GROUP));
    }

    @Test
    void aPartitionDeletedDuringTheWriteIsForgotten() {
        inFlight(0, orders0);
        task.positions.delete(orders0);

        answer(orders0, PositionStatus.APPLIED, 190, true);

        assertNull(position(orders0));
        assertFalse(task.pending.isPending(GROUP));
    }

    @Test
    void aShareGroupsAppliedWriteEmitsNoCheckpoint() {
        task.groups.put(GROUP, GroupRecord.of(GroupKind.SHARE));
        inFlight(0, orders0);

        answer(orders0, PositionStatus.APPLIED, 190, true);

        assertEquals(PositionStatus.APPLIED, position(orders0).status());
        assertEquals(List.of(), task.checkpoints, "MirrorMaker 2 checkpoints are for consumer groups");
        assertEquals(1.0, task.counter("sextant.positions.applied"));
    }
}
