package dev.sextant.topology;

import static dev.sextant.testing.CoordinatorRecords.shareGroup;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.Reason;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionStatus;
import dev.sextant.sync.TakeoverAudit;
import dev.sextant.testing.CoordinatorRecords;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

/**
 * Share groups through the topology: the effective start offset past the acknowledged prefix, translated through the
 * offset syncs, written again after a late write of an older one, the type and activity guards, and topics named by
 * id from the source when the group record is missing.
 */
class ShareGroupSyncTopologyTest extends GroupSyncFixture {

    private static final Uuid ORDERS_ID = Uuid.randomUuid();

    private void shareGroupOnSource(String group) {
        pipe(commits, shareGroup(group));
        pipe(commits, CoordinatorRecords.shareGroupTopics(group, ORDERS_ID, "orders", 3));
    }

    @Test
    void appliesTheEffectiveShareStartOffsetPastTheAcknowledgedPrefix() {
        start(true, true);
        destination.topic("source.orders", 3);
        shareGroupOnSource("shipping");
        pipe(shareState, CoordinatorRecords.shareSnapshot("shipping", ORDERS_ID, 0, 10));
        pipe(shareState, CoordinatorRecords.shareUpdate("shipping", ORDERS_ID, 0, 10,
                new CoordinatorRecords.Batch(10, 29, 2)));
        flush();

        assertEquals(30L, destination.startOffset("shipping", "source.orders", 0),
                "acknowledged 10..29 are not redelivered");
        assertEquals(0, destination.alterCalls.get(), "never written as a consumer group");
        assertEquals(1, destination.shareAlterCalls.get());
        PartitionPosition p = position("shipping", "orders", 0);
        assertEquals(PositionStatus.APPLIED, p.status());
        assertEquals(30, p.sourceOffset());
    }

    @Test
    void aLateWriteOfAnOlderSharePositionAfterATakeoverIsOverwrittenWithTheNewerOne() {
        start(true, true);
        destination.topic("source.orders", 3);
        shareGroupOnSource("shipping");
        pipe(shareState, CoordinatorRecords.shareSnapshot("shipping", ORDERS_ID, 0, 30));
        flush();
        assertEquals(30L, destination.startOffset("shipping", "source.orders", 0));

        // the instance that owned the task before: its write of an older start offset reaches the broker now
        destination.shareOffsets.get("shipping").put(new TopicPartition("source.orders", 0), 10L);
        tick(TakeoverAudit.INTERVAL_MS);
        flush();

        assertEquals(30L, destination.startOffset("shipping", "source.orders", 0), "the newer one written again");
        assertEquals(PositionStatus.APPLIED, position("shipping", "orders", 0).status());
        assertEquals(1.0, registry.get("sextant.stale.writes.repaired").counter().count());
    }

    @Test
    void translatesShareOffsetsThroughTheOffsetSyncs() {
        start(false, true);
        destination.topic("source.orders", 3);
        sync("orders", 1, 0, 100);
        sync("orders", 1, 50, 150);
        shareGroupOnSource("shipping");
        pipe(shareState, CoordinatorRecords.shareSnapshot("shipping", ORDERS_ID, 1, 0,
                new CoordinatorRecords.Batch(0, 49, 2),
                new CoordinatorRecords.Batch(50, 59, 4),
                new CoordinatorRecords.Batch(60, 60, 0)));
        flush();

        assertEquals(151L, destination.startOffset("shipping", "source.orders", 1), "60 -> sync 50->150, +1");
        assertEquals(9, position("shipping", "orders", 1).bound());
    }

    @Test
    void aConsumerGroupOfTheSameNameIsATypeConflictAndAnActiveShareGroupIsLeftAlone() {
        start(true, true);
        destination.topic("source.orders", 3);
        destination.emptyConsumerGroup("shipping");
        destination.activeShareGroup("packing");
        shareGroupOnSource("shipping");
        shareGroupOnSource("packing");
        pipe(shareState, CoordinatorRecords.shareSnapshot("shipping", ORDERS_ID, 0, 5));
        pipe(shareState, CoordinatorRecords.shareSnapshot("packing", ORDERS_ID, 0, 7));
        commit("billing", "orders", 0, 42); // a consumer group syncing beside them
        flush();

        List<DeadLetterRecord> records = deadLetters.readValuesToList();
        assertEquals(2, records.size(), records.toString());
        assertTrue(records.stream().anyMatch(r -> r.group().equals("shipping") && r.reason() == Reason.TYPE_CONFLICT
                && r.groupType().equals("share")));
        assertTrue(records.stream().anyMatch(r -> r.group().equals("packing") && r.reason() == Reason.GROUP_ACTIVE));
        assertNull(destination.startOffset("shipping", "source.orders", 0));
        assertNull(destination.startOffset("packing", "source.orders", 0));
        assertEquals(42L, destination.committed("billing", "source.orders", 0));
    }

    @Test
    void namesTopicsByIdFromTheSourceWhenTheGroupRecordIsMissingAndForgetsDeletedState() {
        start(true, true);
        destination.topic("source.orders", 3);
        Uuid unknown = Uuid.randomUuid();
        pipe(commits, shareGroup("shipping"));
        pipe(shareState, CoordinatorRecords.shareSnapshot("shipping", unknown, 2, 12));
        flush();
        assertNull(destination.startOffset("shipping", "source.orders", 2), "name unknown: kept, not written");

        sourceTopicIds.put(unknown, "orders"); // the source's Admin API answered
        flush();
        assertEquals(12L, destination.startOffset("shipping", "source.orders", 2));

        pipe(shareState, CoordinatorRecords.shareStateDeleted("shipping", unknown, 2));
        flush();
        assertNull(position("shipping", "orders", 2));
    }
}
