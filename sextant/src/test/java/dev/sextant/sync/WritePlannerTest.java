package dev.sextant.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.apply.PlannedPartition;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.GroupKind;
import dev.sextant.domain.MirrorRewind;
import dev.sextant.domain.Reason;
import dev.sextant.state.GroupRecord;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

/** What the planner writes, records, parks, settles and backs off, from one task's in-memory state. */
class WritePlannerTest {

    private static final String GROUP = "billing";

    private final InMemoryTask task = new InMemoryTask();
    private final WritePlanner planner = task.planner();
    private final PositionKey orders0 = new PositionKey(GROUP, "orders", 0);
    private final PositionKey orders1 = new PositionKey(GROUP, "orders", 1);

    private List<PlannedPartition> plan() {
        return planner.plan(GROUP, GroupKind.CONSUMER, task.now());
    }

    private PartitionPosition position(PositionKey key) {
        return task.positions.get(key);
    }

    private boolean pending(PositionKey key) {
        return task.pending.keys(key.group()).contains(key);
    }

    /** True when the group is due at {@code at}: pending and neither in flight nor backing off. */
    private boolean dueAt(long at) {
        return task.pending.due(at, 10).contains(GROUP);
    }

    /** An applied position: {@code 200} written as {@code 180}, within {@code bound}. */
    private void applied(PositionKey key, long bound) {
        task.positions.put(key, new PartitionPosition(200, task.now(), 180, bound, 180, 200, task.now(), -1,
                PositionStatus.APPLIED));
        task.pending.mark(key);
    }

    @Test
    void plansATranslatedPositionOnAMirroredPartition() {
        task.mirrored("orders", 3);
        task.translates(orders0, 200, 190, 4);
        task.commit(orders0, 200);
        long committedAt = task.now();

        List<PlannedPartition> plan = plan();

        assertEquals(List.of(new PlannedPartition(orders0, new TopicPartition("source.orders", 0), 200, committedAt,
                190, 4, -1, false)), plan);
        assertEquals(190, position(orders0).translatedOffset(), "the translation is recorded");
        assertEquals(PositionStatus.PENDING, position(orders0).status());
        assertTrue(pending(orders0), "pending until the destination's answer settles it");
        assertEquals(List.of(), task.deadLetters);
    }

    @Test
    void aPlanCarriesWhereItsMirrorPartitionWentBack() {
        MirrorRewind rewind = new MirrorRewind(1_500, 1_000);
        WritePlanner knowing = task.planner(new MirrorRecords() {
            @Override
            public Optional<Uuid> recordedMirror(String sourceTopic) {
                return Optional.empty();
            }

            @Override
            public MirrorRewind rewind(String sourceTopic, int partition) {
                return partition == 0 ? rewind : MirrorRewind.NONE;
            }
        });
        task.mirrored("orders", 2);
        task.translates(orders0, 1_400, 910, 489);
        task.translates(orders1, 200, 190, 4);
        task.commit(orders0, 1_400);
        task.commit(orders1, 200);

        Map<TopicPartition, MirrorRewind> carried = new HashMap<>();
        knowing.plan(GROUP, GroupKind.CONSUMER, task.now()).forEach(p -> carried.put(p.destination(), p.rewind()));

        assertEquals(Map.of(new TopicPartition("source.orders", 0), rewind,
                new TopicPartition("source.orders", 1), MirrorRewind.NONE), carried,
                "what the destination holds through the syncs the rewind contradicts is no floor to the write");
    }

    @Test
    void countsAWriteBeyondTheMirrorsLogEndAndPlansItAnyway() {
        task.destination.ends.put(new TopicPartition("source.orders", 0), 100L);
        task.mirrored("orders", 1);
        task.translates(orders0, 200, 190, 0);
        task.commit(orders0, 200);

        assertEquals(1, plan().size());
        assertEquals(1.0, task.counter("sextant.positions.beyond.log.end"));
    }

    @Test
    void parksAnUntranslatableOffsetOfAPartitionWithoutHistoryForASecond() {
        task.mirrored("orders", 1);
        task.commit(orders0, 200);
        long at = task.now();

        assertEquals(List.of(), plan());

        assertEquals(PositionStatus.UNTRANSLATABLE, position(orders0).status());
        assertFalse(pending(orders0), "parked: not looked at in the meantime");
        task.pending.unpark(at + Backoffs.RETRY_MS - 1);
        assertFalse(pending(orders0));
        task.pending.unpark(at + Backoffs.RETRY_MS);
        assertTrue(pending(orders0));
        assertEquals(List.of(), task.deadLetters, "not a reason before the pending timeout");
    }

    @Test
    void parksAnOffsetBelowTheOldestSyncLongerTheLongerItWaitsButNeverPastItsReport() {
        task.mirrored("orders", 1);
        task.heads.put(new TopicPartition("orders", 0), 500L); // the partition has history, above the offset
        task.commit(orders0, 200);
        plan();
        task.advance(20_000);
        task.pending.unpark(task.now());
        long at = task.now();

        plan(); // waited 20 s: parked for half of it

        task.pending.unpark(at + 9_999);
        assertFalse(pending(orders0));
        task.pending.unpark(at + 10_000);
        assertTrue(pending(orders0));

        task.advance(30_000); // waited 50 s: half would be 25 s, but the wait is reported at 60 s
        at = task.now();
        plan();
        task.pending.unpark(at + 9_999);
        assertFalse(pending(orders0));
        task.pending.unpark(at + 10_000);
        assertTrue(pending(orders0));
    }

    @Test
    void anUntranslatableOffsetIsReportedOnceAtThePendingTimeout() {
        task.mirrored("orders", 1);
        task.commit(orders0, 200);
        plan();
        task.advance(InMemoryTask.PENDING_TIMEOUT_MS);
        task.pending.unpark(task.now());

        plan();
        task.pending.unpark(task.now() + Backoffs.MAX_PARK_MS);
        plan();

        assertEquals(1, task.deadLetters.size(), "one record per change of the group's reason");
        DeadLetterRecord record = task.deadLetters.get(0);
        assertEquals(Reason.UNTRANSLATABLE, record.reason());
        assertEquals(List.of(new DeadLetterRecord.PartitionDetail("orders", 0, 200L, null, null)), record.partitions());
        assertTrue(record.detail().contains("after 60000 ms"), record.detail());
        assertEquals(Reason.UNTRANSLATABLE, task.groups.get(GROUP).openReason());
    }

    @Test
    void parksAPartitionWhoseMirrorTopicIsMissing() {
        task.lookUp("orders"); // looked up, not there
        task.heads.put(new TopicPartition("orders", 0), 100L);
        task.translates(orders0, 200, 190, 0);
        task.commit(orders0, 200);
        long at = task.now();

        assertEquals(List.of(), plan());

        assertEquals(PositionStatus.TOPIC_NOT_MIRRORED, position(orders0).status());
        assertEquals(190, position(orders0).translatedOffset());
        task.pending.unpark(at + Backoffs.RETRY_MS - 1);
        assertFalse(pending(orders0));
        task.pending.unpark(at + Backoffs.RETRY_MS);
        assertTrue(pending(orders0), "a missing topic is looked for again a second later, history or not");
    }

    @Test
    void anActiveGroupIsRecordedReportedAtOnceAndBackedOff() {
        task.destination.activeConsumerGroup(GROUP);
        task.mirrored("orders", 2);
        task.translates(orders0, 200, 190, 0);
        task.commit(orders0, 200);
        task.commit(orders1, 50); // untranslatable: parked, but the group backs off all the same
        long at = task.now();

        assertEquals(List.of(), plan());

        assertEquals(PositionStatus.GROUP_ACTIVE, position(orders0).status());
        assertTrue(pending(orders0), "stays pending behind the guard");
        assertFalse(dueAt(at + Backoffs.GUARD_MS - 1));
        assertTrue(dueAt(at + Backoffs.GUARD_MS));
        assertEquals(1, task.deadLetters.size());
        DeadLetterRecord record = task.deadLetters.get(0);
        assertEquals(Reason.GROUP_ACTIVE, record.reason());
        assertEquals(List.of(new DeadLetterRecord.PartitionDetail("orders", 0, 200L, 190L, null)), record.partitions());

        task.advance(Backoffs.GUARD_MS);
        plan();
        assertEquals(1, task.deadLetters.size(), "the same reason is not reported again");
    }

    @Test
    void aShareGroupOfTheSameNameOnTheDestinationIsATypeConflict() {
        task.destination.shareGroup(GROUP);
        task.mirrored("orders", 1);
        task.translates(orders0, 200, 190, 0);
        task.commit(orders0, 200);

        assertEquals(List.of(), plan());

        assertEquals(PositionStatus.TYPE_CONFLICT, position(orders0).status());
        assertEquals(Reason.TYPE_CONFLICT, task.deadLetters.get(0).reason());
        assertFalse(dueAt(task.now()));
    }

    @Test
    void waitsForTheViewToLookUpANewMirrorTopic() {
        task.destination.topic("source.orders", 1); // there, but the view never asked
        task.translates(orders0, 200, 190, 0);
        task.commit(orders0, 200);

        assertEquals(List.of(), plan());

        assertEquals(PositionStatus.PENDING, position(orders0).status());
        assertEquals(190, position(orders0).translatedOffset());
        assertTrue(pending(orders0));
        assertTrue(dueAt(task.now()), "no backoff: looked at again at the next flush");

        task.view.refreshNow();
        assertEquals(1, plan().size());
    }

    @Test
    void settlesAnAppliedBoundedPositionThatNoNewSyncImproves() {
        task.mirrored("orders", 1);
        applied(orders0, 10);
        PartitionPosition before = position(orders0);
        task.translates(orders0, 200, 180, 10);

        assertEquals(List.of(), plan());

        assertEquals(before, position(orders0));
        assertFalse(task.pending.isPending(GROUP));
    }

    @Test
    void replansAnAppliedBoundedPositionThatANewSyncBringsCloser() {
        task.mirrored("orders", 1);
        applied(orders0, 10);
        task.translates(orders0, 200, 195, 0);

        List<PlannedPartition> plan = plan();

        assertEquals(1, plan.size());
        assertEquals(195, plan.get(0).translatedOffset());
        assertEquals(0, plan.get(0).bound());
    }

    @Test
    void settlesAnAppliedExactPositionWithoutTranslatingIt() {
        task.mirrored("orders", 1);
        applied(orders0, 0);

        assertEquals(List.of(), plan());

        assertFalse(task.pending.isPending(GROUP));
        assertEquals(0, task.translationLookups);
    }

    @Test
    void forgetsAPartitionDeletedWhileItWasPending() {
        task.pending.mark(orders0);

        assertEquals(List.of(), plan());

        assertFalse(task.pending.isPending(GROUP));
    }

    @Test
    void aShareGroupsPlaceholderTopicIsNamedOnceItsTopicIdIsKnown() {
        Uuid known = Uuid.randomUuid();
        Uuid unknown = Uuid.randomUuid();
        task.groups.put("queue", GroupRecord.of(GroupKind.SHARE).withShareTopics(Map.of(known.toString(), "orders")));
        PositionKey placeholder = new PositionKey("queue", "#" + known, 0);
        PositionKey stillUnknown = new PositionKey("queue", "#" + unknown, 0);
        task.commit(placeholder, 200);
        task.commit(stillUnknown, 300);
        task.mirrored("orders", 1);
        PositionKey named = new PositionKey("queue", "orders", 0);
        task.translates(named, 200, 190, 0);

        List<PlannedPartition> plan = planner.plan("queue", GroupKind.SHARE, task.now());

        assertEquals(List.of(named), plan.stream().map(PlannedPartition::key).toList());
        assertNull(task.positions.get(placeholder), "moved to its name");
        assertEquals(200, task.positions.get(named).sourceOffset());
        assertTrue(task.pending.keys("queue").contains(stillUnknown), "stays pending under its placeholder");
        assertEquals(PositionStatus.PENDING, task.positions.get(stillUnknown).status());
    }
}
