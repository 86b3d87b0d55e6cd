package dev.sextant.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.sextant.domain.GroupKind;
import dev.sextant.domain.LogRange;
import dev.sextant.domain.Reason;
import dev.sextant.state.GroupRecord;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import dev.sextant.translate.OffsetTranslation;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GroupViewsTest {

    private static final PartitionPosition APPLIED = PartitionPosition.committed(1234, 1_000)
            .withTranslation(OffsetTranslation.bounded(1234, 1201, 33))
            .settled(1201, 1234, PositionStatus.APPLIED, 2_000);

    @Test
    void aGroupsTypeIsShownAsItsProtocolNamesIt() {
        assertEquals("consumer", GroupViews.groupType(null), "a group seen only through its commits");
        assertEquals("consumer", GroupViews.groupType(GroupRecord.of(GroupKind.CONSUMER).withType(GroupKind.CONSUMER,
                "consumer")));
        assertEquals("streams", GroupViews.groupType(GroupRecord.of(GroupKind.CONSUMER).withType(GroupKind.CONSUMER,
                GroupRecord.STREAMS_PROTOCOL)), "a Kafka Streams group (KIP-1071)");
        assertEquals("share", GroupViews.groupType(GroupRecord.of(GroupKind.SHARE)));
    }

    @Test
    void unknownOffsetsAreNull() {
        Views.PartitionView view = GroupViews.partition(new PositionKey("g", "orders", 0),
                PartitionPosition.committed(5, 1_000), t -> "source." + t);
        assertEquals("source.orders", view.destinationTopic());
        assertNull(view.translatedOffset());
        assertNull(view.precision());
        assertNull(view.bound());
        assertNull(view.appliedOffset());
        assertNull(view.appliedAt());
        assertEquals("PENDING", view.status());
    }

    @Test
    void anAppliedPosition() {
        Views.PartitionView view = GroupViews.partition(new PositionKey("g", "orders", 0), APPLIED, t -> t);
        assertEquals(1201L, view.translatedOffset());
        assertEquals("bounded", view.precision());
        assertEquals(33L, view.bound());
        assertEquals(2_000L, view.appliedAt());
    }

    @Test
    void offsetsFallBackToTheAppliedOffsetWhileTheNewCommitIsUntranslated() {
        PartitionPosition moved = APPLIED.withCommit(5_000, 3_000).withStatus(PositionStatus.UNTRANSLATABLE, 3_000);
        Views.GroupDetail detail = GroupViews.detail("g", null, List.of(
                Map.entry(new PositionKey("g", "orders", 0), moved),
                Map.entry(new PositionKey("g", "orders", 1), PartitionPosition.committed(7, 1))), t -> "source." + t,
                Optional.empty());
        assertEquals(List.of(new Views.OffsetView("source.orders", 0, 1201)),
                GroupViews.offsets(detail, GroupViews.NO_LOGS).offsets());
    }

    @Test
    void offsetsAreKeptInsideTheDestinationLogAsEveryWriteIs() {
        PartitionPosition ahead = PartitionPosition.committed(100, 1_000)
                .withTranslation(OffsetTranslation.exact(100, 100));
        PartitionPosition gone = PartitionPosition.committed(5, 1_000).withTranslation(OffsetTranslation.exact(5, 5));
        Views.GroupDetail detail = GroupViews.detail("g", null, List.of(
                Map.entry(new PositionKey("g", "orders", 0), ahead),
                Map.entry(new PositionKey("g", "orders", 1), gone)), t -> t, Optional.empty());
        Map<Integer, LogRange> logs = Map.of(0, new LogRange(0, 60), 1, new LogRange(20, 80));
        assertEquals(List.of(new Views.OffsetView("orders", 0, 60), new Views.OffsetView("orders", 1, 20)),
                GroupViews.offsets(detail, (topic, partition) -> logs.get(partition)).offsets(),
                "not beyond the mirror's end, not below its start");
    }

    @Test
    void theStateIsTheOpenReasonElseTheWorstStatusElseInSync() {
        assertEquals("GROUP_ACTIVE", GroupViews.state(
                GroupRecord.of(GroupKind.CONSUMER).withReason(Reason.GROUP_ACTIVE), List.of(APPLIED)));
        assertEquals("PENDING", GroupViews.state(null, List.of(APPLIED, PartitionPosition.committed(1, 1))));
        assertEquals("IN_SYNC", GroupViews.state(null, List.of(APPLIED)));
        assertEquals("NO_OFFSETS", GroupViews.state(GroupRecord.of(GroupKind.SHARE), List.of()));
    }

    @Test
    void aSummaryTakesTheNewestTimesAndTheWorstBound() {
        PartitionPosition exact = PartitionPosition.committed(10, 5_000)
                .withTranslation(OffsetTranslation.exact(10, 10))
                .settled(10, 10, PositionStatus.APPLIED, 6_000);
        Views.GroupSummary summary = GroupViews.summary("g", null, List.of(APPLIED, exact), false);
        assertEquals(new Views.GroupSummary("g", "consumer", "IN_SYNC", 2, 5_000L, 6_000L, 33L), summary);
    }
}
