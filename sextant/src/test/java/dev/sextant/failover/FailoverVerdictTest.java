package dev.sextant.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.apply.DestinationGroup;
import dev.sextant.apply.GroupOutcome;
import dev.sextant.apply.OffsetOwnership;
import dev.sextant.apply.PlannedPartition;
import dev.sextant.apply.TranslatedPosition;
import dev.sextant.client.SextantClient;
import dev.sextant.domain.GroupKind;
import dev.sextant.domain.LogRange;
import dev.sextant.failover.FailoverReport.GroupResult;
import dev.sextant.failover.FailoverReport.GroupState;
import dev.sextant.failover.FailoverReport.PartitionState;
import dev.sextant.failover.FailoverReport.PartitionStatus;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class FailoverVerdictTest {

    private static PartitionState pending(String topic, long pendingOffset, long bound) {
        return new PartitionState(topic, 0, null, bound == 0 ? "exact" : "bounded", bound, 1_000L, pendingOffset,
                PartitionStatus.PENDING);
    }

    private static GroupState group(PartitionState... rows) {
        return new GroupState("billing", "consumer", "Empty", GroupResult.PENDING, "pending", List.of(rows));
    }

    @Test
    void pendingRowsShowWhatApplyWritesInsideTheMirrorsLog() {
        GroupState state = group(pending("orders", 100, 0), pending("payments", 30, 2));
        GroupState within = FailoverVerdict.withinLogs(state, Map.of(
                new TopicPartition("orders", 0), new LogRange(0, 60),
                new TopicPartition("payments", 0), new LogRange(0, 500)));
        assertEquals(new PartitionState("orders", 0, null, "bounded", 40L, 1_000L, 60L, PartitionStatus.PENDING),
                within.partitions().get(0), "at the mirror's end, the 40 records not mirrored yet in the bound");
        assertEquals(state.partitions().get(1), within.partitions().get(1), "inside the log: as translated");
    }

    @Test
    void eachAnswerSettlesTheRowOfItsOwnTopicAndPartition() {
        GroupState state = group(pending("orders", 100, 0), pending("payments", 30, 0));
        List<PlannedPartition> planned = List.of(plan("orders", 100), plan("payments", 30));
        // partition 0 of both topics: the first written, the second refused (the mirror topic is gone)
        GroupOutcome outcome = new GroupOutcome("billing", null, false, null, Map.of(
                planned.get(0).key(), new GroupOutcome.PartitionOutcome(PositionStatus.APPLIED, 100, true),
                planned.get(1).key(), new GroupOutcome.PartitionOutcome(PositionStatus.TOPIC_NOT_MIRRORED, -1)));

        GroupState settled = FailoverVerdict.settle(state, planned, outcome);

        assertEquals(GroupResult.FAILED, settled.result(), "one partition not written: not clean");
        assertEquals(PartitionStatus.WRITTEN, settled.partitions().get(0).status());
        assertEquals(100L, settled.partitions().get(0).offset());
        assertEquals(PartitionStatus.NOT_WRITTEN, settled.partitions().get(1).status(),
                "never reported written with the other topic's offset");
    }

    @Test
    void aCutOverGroupWhoseOffsetsTheDestinationLostIsNotClean() {
        DestinationGroup there = new DestinationGroup("billing", GroupKind.CONSUMER, "consumer", false, "Empty");
        SextantClient.Cutover cut = new SextantClient.Cutover(1_000, 30_000, "source-id");
        SextantClient.Partition applied = new SextantClient.Partition("orders", 0, "source.orders", 10, 10L,
                "exact", 0L, 10L, 2_000L, "APPLIED", 1_000L);
        OffsetOwnership ownership = new OffsetOwnership("app");

        GroupState lost = FailoverVerdict.state(there, "consumer", Map.of(), Map.of(), List.of(applied), cut,
                ownership, 5_000);
        assertEquals(GroupResult.INCOMPLETE, lost.result(), lost.detail());
        assertFalse(lost.clean(), "its consumers would start from auto.offset.reset");
        assertEquals(PartitionStatus.MISSING, lost.partitions().get(0).status(), "--apply writes it back");
        assertTrue(FailoverVerdict.writes(lost));

        GroupState held = FailoverVerdict.state(there, "consumer", Map.of(new TopicPartition("source.orders", 0),
                new OffsetAndMetadata(10, ownership.metadataFor(1_000, 10, 0))), Map.of(), List.of(applied), cut,
                ownership, 5_000);
        assertEquals(GroupResult.CUT_OVER, held.result(), held.detail());
        assertTrue(held.clean());

        GroupState nothingKnown = FailoverVerdict.state(there, "consumer", Map.of(), Map.of(), List.of(), cut,
                ownership, 5_000);
        assertFalse(nothingKnown.clean(), "a cut-over consumer group with no offset on the destination at all");
    }

    private static PlannedPartition plan(String topic, long offset) {
        return TranslatedPosition.of(new PositionKey("billing", topic, 0), new TopicPartition(topic, 0), offset,
                1_000, offset, 0).within(LogRange.UNKNOWN);
    }
}
