package dev.sextant.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.acl.AccessDenials;
import dev.sextant.domain.Reason;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import dev.sextant.testing.InMemoryDestination;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ShareGroupApplierTest {

    private final InMemoryDestination destination = new InMemoryDestination();
    private final ShareGroupApplier applier = new ShareGroupApplier(destination);

    @BeforeEach
    void mirror() {
        destination.topic("source.orders", 4);
    }

    private static PlannedPartition applied(String group, int partition, long offset) {
        return new PlannedPartition(new PositionKey(group, "orders", partition),
                new TopicPartition("source.orders", partition), offset, 1_000, offset, -1, -1, false);
    }

    /** A write of {@code translated} for a partition Sextant applied {@code appliedBefore} for (-1: none). */
    private static PlannedPartition write(String group, int partition, long translated, long appliedBefore) {
        return new PlannedPartition(new PositionKey(group, "orders", partition),
                new TopicPartition("source.orders", partition), translated, 1_000, translated, 0, -1, false,
                appliedBefore);
    }

    private void holds(String group, int partition, long offset) {
        destination.shareOffsets.computeIfAbsent(group, g -> new HashMap<>())
                .put(new TopicPartition("source.orders", partition), offset);
        destination.shareGroup(group);
    }

    private static GroupOutcome apply(ShareGroupApplier applier, String group, List<PlannedPartition> parts) {
        CompletableFuture<GroupOutcome> done = new CompletableFuture<>();
        applier.apply(Map.of(group, parts), done::complete);
        return done.join();
    }

    @Test
    void theAuditFindsStartOffsetsBelowTheAppliedOneOrGone() throws Exception {
        Map<TopicPartition, Long> there = new HashMap<>();
        there.put(new TopicPartition("source.orders", 0), 400L); // a late write of an older position landed
        there.put(new TopicPartition("source.orders", 1), 500L); // as applied
        there.put(new TopicPartition("source.orders", 2), 650L); // moved on since (its consumers, after failover)
        destination.shareOffsets.put("queue", there);
        List<PositionKey> found = applier.overwritten(Map.of("queue", List.of(applied("queue", 0, 500),
                applied("queue", 1, 500), applied("queue", 2, 600), applied("queue", 3, 100)))).get();
        assertEquals(Set.of(new PositionKey("queue", "orders", 0), new PositionKey("queue", "orders", 3)),
                Set.copyOf(found), "below the applied start offset, or gone; never one at or above it");
    }

    @Test
    void aGroupTheDestinationLacksIsWritten() {
        GroupOutcome outcome = apply(applier, "queue", List.of(write("queue", 0, 700, -1)));
        assertNull(outcome.reason());
        assertEquals(PositionStatus.APPLIED, outcome.partitions().get(new PositionKey("queue", "orders", 0)).status());
        assertEquals(700L, destination.startOffset("queue", "source.orders", 0));
    }

    @Test
    void whatSextantAppliedOrALateWriteBelowItIsWrittenOver() {
        holds("queue", 0, 500); // as applied
        holds("queue", 1, 400); // below what was applied: the previous owner's late write
        GroupOutcome outcome = apply(applier, "queue", List.of(write("queue", 0, 700, 500),
                write("queue", 1, 700, 500)));
        assertNull(outcome.reason(), String.valueOf(outcome.detail()));
        assertEquals(700L, destination.startOffset("queue", "source.orders", 0));
        assertEquals(700L, destination.startOffset("queue", "source.orders", 1));
    }

    @Test
    void aStartOffsetAShareConsumerMovedPastWhatSextantAppliedRefusesTheWholeGroup() {
        holds("queue", 0, 500); // as applied
        holds("queue", 1, 640); // a share consumer on the destination acknowledged records past 500, then left
        int calls = destination.shareAlterCalls.get();
        GroupOutcome outcome = apply(applier, "queue", List.of(write("queue", 0, 700, 500),
                write("queue", 1, 700, 500)));
        assertEquals(Reason.DESTINATION_DIVERGED, outcome.reason());
        assertTrue(outcome.detail().contains("source.orders-1=640 (Sextant applied 500)"), outcome.detail());
        assertEquals(PositionStatus.DESTINATION_DIVERGED,
                outcome.partitions().get(new PositionKey("queue", "orders", 0)).status());
        assertEquals(640L, outcome.partitions().get(new PositionKey("queue", "orders", 1)).destinationOffset());
        assertEquals(calls, destination.shareAlterCalls.get(), "nothing of the group written");
        assertEquals(500L, destination.startOffset("queue", "source.orders", 0));
        assertEquals(640L, destination.startOffset("queue", "source.orders", 1));
    }

    @Test
    void recordsAShareConsumerAcknowledgedAboveAStartOffsetItLeftWhereItWasRefuseTheGroup() {
        holds("queue", 0, 500); // as applied: the coordinator did not move the stored start offset...
        destination.shareDelivered.put("queue", Map.of(new TopicPartition("source.orders", 0), 120L)); // ...past these
        GroupOutcome outcome = apply(applier, "queue", List.of(write("queue", 0, 700, 500)));
        assertEquals(Reason.DESTINATION_DIVERGED, outcome.reason());
        assertTrue(outcome.detail().contains("source.orders-0=500 with 120 record(s) above it delivered there"),
                outcome.detail());
        assertEquals(500L, destination.startOffset("queue", "source.orders", 0));

        destination.shareDelivered.put("queue", Map.of(new TopicPartition("source.orders", 0), 200L));
        GroupOutcome translationThere = apply(applier, "queue", List.of(write("queue", 0, 500, 500)));
        assertEquals(Reason.DESTINATION_DIVERGED, translationThere.reason(), "its consumer is past the translation");

        ShareGroupApplier adopting = new ShareGroupApplier(destination, new OverwritePolicy(true, true),
                new AccessDenials(Clock.systemUTC()));
        assertEquals(Reason.DESTINATION_DIVERGED, apply(adopting, "queue", List.of(write("queue", 0, 650, 500)))
                .reason(), "adopt-forward: not below what its consumer delivered (500 + 200)");
        assertNull(apply(adopting, "queue", List.of(write("queue", 0, 700, 500))).reason());
        assertEquals(700L, destination.startOffset("queue", "source.orders", 0));
    }

    @Test
    void recordsDeliveredOnAPartitionTheWriteDoesNotTouchRefuseTheWholeGroup() {
        holds("queue", 0, 500); // as applied
        holds("queue", 1, 300); // not in this write: its consumer there acknowledged 40 records above it
        destination.shareDelivered.put("queue", Map.of(new TopicPartition("source.orders", 1), 40L));
        GroupOutcome outcome = apply(applier, "queue", List.of(write("queue", 0, 700, 500)));
        assertEquals(Reason.DESTINATION_DIVERGED, outcome.reason());
        assertTrue(outcome.detail().contains("source.orders-1=300 with 40 record(s) above it delivered there (not in "
                + "this write)"), outcome.detail());
        assertEquals(500L, destination.startOffset("queue", "source.orders", 0));
    }

    @Test
    void aLagReadBeforeALaterLogEndNeverCountsRecordsNobodyDelivered() {
        // the lag is the high watermark the broker read, less the start offset and the records delivered above it;
        // a log end read before it is at most that high watermark
        ShareStart afterSextantsWrite = new ShareStart(500, 1_020); // high watermark 1,520 when listed
        assertEquals(0, afterSextantsWrite.completedAtLeast(1_500), "the mirror appended 20 since the end was read");
        assertEquals(0, afterSextantsWrite.completedAtLeast(1_520));
        ShareStart consumed = new ShareStart(500, 900);
        assertEquals(100, consumed.completedAtLeast(1_500), "at least 100, of 120 when the mirror appended 20");
        assertEquals(-1, new ShareStart(500, -1).completedAtLeast(1_500), "no lag reported: not known");
    }

    @Test
    void aStartOffsetSextantNeverWroteIsSomeoneElsesUnlessAdoptForwardTakesItOver() {
        holds("queue", 0, 300);
        GroupOutcome refused = apply(applier, "queue", List.of(write("queue", 0, 700, -1)));
        assertEquals(Reason.DESTINATION_DIVERGED, refused.reason());
        assertTrue(refused.detail().contains("(Sextant applied none)"), refused.detail());
        assertEquals(300L, destination.startOffset("queue", "source.orders", 0));

        ShareGroupApplier adopting = new ShareGroupApplier(destination, new OverwritePolicy(true, true),
                new AccessDenials(Clock.systemUTC()));
        GroupOutcome below = apply(adopting, "queue", List.of(write("queue", 0, 200, -1)));
        assertEquals(Reason.DESTINATION_DIVERGED, below.reason(), "never moved back, also under adopt-forward");
        GroupOutcome taken = apply(adopting, "queue", List.of(write("queue", 0, 700, -1)));
        assertNull(taken.reason());
        assertEquals(700L, destination.startOffset("queue", "source.orders", 0));
    }

    @Test
    void theTranslationAlreadyThereSettlesWithoutAWrite() {
        holds("queue", 0, 700); // Sextant's own write, whose answer was lost (or a restart before it was stored)
        int calls = destination.shareAlterCalls.get();
        GroupOutcome outcome = apply(applier, "queue", List.of(write("queue", 0, 700, 500)));
        assertNull(outcome.reason());
        var partition = outcome.partitions().get(new PositionKey("queue", "orders", 0));
        assertEquals(PositionStatus.APPLIED, partition.status());
        assertEquals(700L, partition.destinationOffset());
        assertEquals(calls, destination.shareAlterCalls.get());
    }
}
