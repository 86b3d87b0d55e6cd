package dev.sextant.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.apply.OffsetOwnership;
import dev.sextant.decode.ConsumerOffsetsRecord.GroupDeleted;
import dev.sextant.decode.ConsumerOffsetsRecord.GroupTypeSeen;
import dev.sextant.decode.ConsumerOffsetsRecord.OffsetCommit;
import dev.sextant.decode.ConsumerOffsetsRecord.OffsetDeleted;
import dev.sextant.decode.ConsumerOffsetsRecord.ShareGroupTopics;
import dev.sextant.domain.GroupKind;
import dev.sextant.state.CutoverRecord;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import dev.sextant.state.SharePosition;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

/** What a task takes in from the source's records: the positions it stores and the partitions it marks pending. */
class CommitIntakeTest {

    private static final String GROUP = "billing";

    private final InMemoryTask task = new InMemoryTask();
    private final CommitIntake intake = task.intake();
    private final PositionKey orders0 = new PositionKey(GROUP, "orders", 0);

    /** A consumer's commit of {@code offset} at {@code timestamp}, read at {@code logOffset}. */
    private void commit(long offset, long timestamp, long logOffset) {
        intake.accept(new OffsetCommit(GROUP, "orders", 0, offset, -1, "", timestamp), logOffset);
    }

    private PartitionPosition position() {
        return task.positions.get(orders0);
    }

    /** The partition was looked at by a flush and settled: only a new mark makes it pending again. */
    private void settled() {
        task.pending.clean(orders0);
    }

    @Test
    void aFirstCommitIsStoredPendingAndMarkedWithItsTime() {
        commit(100, 1_000, 10);

        assertEquals(PartitionPosition.committed(100, 1_000, 10), position());
        assertEquals(List.of(orders0), task.pending.keys(GROUP));
        assertEquals(1_000, task.pending.pendingSince(orders0), "the age of what is not written counts from it");
        assertEquals(GroupKind.CONSUMER, task.groups.kindOf(GROUP), "a group without metadata: a consumer group");
        assertEquals(1, task.registry.get("sextant.groups.tracked").gauge().value(), "counted once");
    }

    @Test
    void aRecordReadAgainAtOrBelowTheStoredLogPositionMovesNothing() {
        commit(100, 2_000, 10);
        settled();

        commit(90, 1_500, 9); // read again after a restart: the changelog was ahead of the input's offset
        commit(95, 2_000, 10);

        assertEquals(PartitionPosition.committed(100, 2_000, 10), position(), "not moved back");
        assertFalse(task.pending.isPending(GROUP), "nothing to write again");
    }

    @Test
    void aNewerCommitAtALowerLogPositionIsTaken() {
        commit(100, 2_000, 10);
        settled();

        commit(80, 3_000, 5); // the log was truncated by an unclean election: a replayed record keeps its old time

        assertEquals(PartitionPosition.committed(80, 3_000, 5), position());
        assertEquals(3_000, task.pending.pendingSince(orders0));
    }

    @Test
    void aLaterLogPositionIsTakenWhateverTheCoordinatorsClockSays() {
        commit(100, 2_000, 10);

        commit(120, 1_500, 11);

        assertEquals(PartitionPosition.committed(120, 1_500, 11), position(), "the log orders a group's commits");
    }

    @Test
    void aRecommitOfTheSameOffsetChangesNothing() {
        commit(100, 1_000, 10);
        settled();

        commit(100, 5_000, 20);

        assertEquals(PartitionPosition.committed(100, 1_000, 10), position(), "its first commit's time and place");
        assertFalse(task.pending.isPending(GROUP));
    }

    @Test
    void aRecordWithoutALogPositionIsTakenEvenWhenOlder() {
        commit(100, 2_000, 10);

        commit(90, 1_000, -1);

        assertEquals(PartitionPosition.committed(90, 1_000, -1), position());
    }

    @Test
    void aNewCommitKeepsWhatTheDestinationHoldsAndForgetsTheTranslation() {
        task.positions.put(orders0, new PartitionPosition(100, 1_000, 90, 2, 90, 100, 1_500, -1,
                PositionStatus.APPLIED, 10));

        commit(150, 3_000, 11);

        PartitionPosition moved = position();
        assertEquals(150, moved.sourceOffset());
        assertEquals(PositionStatus.PENDING, moved.status());
        assertEquals(-1, moved.translatedOffset());
        assertEquals(90, moved.appliedOffset(), "what the destination holds until the write");
        assertEquals(100, moved.appliedSourceOffset());
        assertTrue(moved.needsApply());
    }

    @Test
    void aCommitWrittenByASextantIsNotTakenIn() {
        String mark = new OffsetOwnership("other-direction").metadataFor(1_000, 100);
        intake.accept(new OffsetCommit(GROUP, "orders", 0, 100, -1, mark, 1_000), 10);

        assertNull(position());
        assertFalse(task.pending.isPending(GROUP));
        assertEquals(1, task.counter("sextant.records.filtered"));
    }

    @Test
    void aShareGroupsCommitIsNotTakenAsAConsumerGroups() {
        intake.accept(new GroupTypeSeen(GROUP, GroupType.SHARE, "share"), 1);

        commit(100, 1_000, 10);

        assertNull(position());
        assertEquals(GroupKind.SHARE, task.groups.kindOf(GROUP));
    }

    @Test
    void aCutOverGroupsCommitMovesNothingAndIsReported() {
        commit(100, 1_000, 10);
        settled();
        task.cutovers().put(new CutoverRecord(GROUP, "consumer", 500, 0, "source-cluster", List.of()));

        commit(150, 2_000, 11);

        assertEquals(PartitionPosition.committed(100, 1_000, 10), position(), "as the destination was given it");
        assertFalse(task.pending.isPending(GROUP));
        assertEquals(1, task.deadLetters.size(), "a consumer still commits on the source");
    }

    @Test
    void anOffsetTombstoneDeletesThePosition() {
        commit(100, 1_000, 10);

        intake.accept(new OffsetDeleted(GROUP, "orders", 0), 11);

        assertNull(position());
    }

    @Test
    void aTombstonedConsumerGroupKeepsItsPositions() {
        commit(100, 1_000, 10);

        // an online migration between protocols tombstones the old type's record; the offsets survive it
        intake.accept(new GroupDeleted(GROUP, GroupType.CLASSIC), 11);

        assertEquals(100, position().sourceOffset());
        assertTrue(task.pending.isPending(GROUP));
        assertNull(task.groups.get(GROUP));
    }

    @Test
    void aDeletedShareGroupLeavesNoPositionAndNothingPending() {
        Uuid ordersId = Uuid.randomUuid();
        intake.accept(new GroupTypeSeen(GROUP, GroupType.SHARE, "share"), 1);
        intake.accept(new ShareGroupTopics(GROUP, Map.of(ordersId, "orders")), 2);
        intake.sharePosition(GROUP, new SharePosition(ordersId, 0, 100, 1_000), 5);
        assertEquals(PartitionPosition.committed(100, 1_000, 5), position());
        assertTrue(task.pending.isPending(GROUP));

        intake.accept(new GroupDeleted(GROUP, GroupType.SHARE), 3);

        assertNull(position());
        assertFalse(task.pending.isPending(GROUP), "nothing of it is planned any more");
        assertNull(task.groups.get(GROUP));
    }

    @Test
    void aShareStartOffsetFollowsTheReplayGuardAndItsDeletionDeletesThePosition() {
        Uuid ordersId = Uuid.randomUuid();
        intake.accept(new ShareGroupTopics(GROUP, Map.of(ordersId, "orders")), 2);
        intake.sharePosition(GROUP, new SharePosition(ordersId, 0, 100, 2_000), 5);

        intake.sharePosition(GROUP, new SharePosition(ordersId, 0, 80, 1_000), 4);
        assertEquals(100, position().sourceOffset(), "read again after a restart");

        intake.sharePosition(GROUP, new SharePosition(ordersId, 0, -1, 3_000), 6);
        assertNull(position(), "the share state was deleted");
    }

    @Test
    void aShareStartOffsetOfAnUnnamedTopicWaitsUnderAPlaceholder() {
        Uuid unknown = Uuid.randomUuid();
        intake.accept(new GroupTypeSeen(GROUP, GroupType.SHARE, "share"), 1);

        intake.sharePosition(GROUP, new SharePosition(unknown, 0, 100, 1_000), 5);

        List<PositionKey> keys = task.pending.keys(GROUP);
        assertEquals(1, keys.size());
        assertTrue(SharePlaceholders.isPlaceholder(keys.get(0).topic()), keys.toString());
        assertEquals(100, task.positions.get(keys.get(0)).sourceOffset());
    }
}
