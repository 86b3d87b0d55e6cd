package dev.sextant.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Which applied, bounded positions a new offset sync can bring closer. */
class BoundedPositionsTest {

    private final Map<TopicPartition, Long> heads = new HashMap<>();
    private final BoundedPositions bounded = new BoundedPositions(heads::get);
    private final PositionKey keepsUp = new PositionKey("billing", "orders", 0);
    private final PositionKey behind = new PositionKey("audit", "orders", 0);

    /** Applied at {@code committed}, translated through the sync at {@code syncUpstream}. */
    private static PartitionPosition applied(long committed, long syncUpstream) {
        return new PartitionPosition(committed, 0, 1_000, committed - syncUpstream - 1, 1_000, committed, 0, -1,
                PositionStatus.APPLIED);
    }

    private void head(long upstream) {
        heads.put(new TopicPartition("orders", 0), upstream);
    }

    @Test
    void onlyPositionsCommittedAboveThePreviousHeadCanUseNewSyncs() {
        head(100);
        bounded.track(keepsUp, applied(150, 100));
        bounded.track(behind, applied(50, 0));
        assertEquals(Set.of(keepsUp, behind), bounded.improvable(), "a partition seen for the first time");

        head(120);
        assertEquals(Set.of(keepsUp), bounded.improvable(), "syncs above 100 cannot help an offset at 50");
        assertEquals(Set.of(), bounded.improvable(), "nothing new");

        head(10); // upstream went backwards: a new log
        assertEquals(Set.of(keepsUp, behind), bounded.improvable());

        bounded.track(keepsUp, applied(150, 100).withStatus(PositionStatus.PENDING, 0));
        head(20);
        assertEquals(Set.of(behind), bounded.improvable(), "no longer applied and bounded: not tracked");
    }

    @Test
    void aPositionTranslatedBeforeTheNewestSyncAtOrBelowItIsOutdated() {
        head(120);
        assertTrue(bounded.outdated(keepsUp, applied(150, 100)));
        head(160);
        assertFalse(bounded.outdated(keepsUp, applied(150, 100)), "a sync above the offset is no better");
        head(100);
        assertFalse(bounded.outdated(keepsUp, applied(150, 100)), "translated through the head itself");
        assertFalse(bounded.outdated(keepsUp, applied(100, 100)), "exact");
    }

    @Test
    void aPositionSettledAfterTheCheckWentPastItIsOutdated() {
        head(100);
        bounded.track(behind, applied(50, 0));
        bounded.improvable(); // seen: 100
        head(300);
        bounded.improvable(); // seen: 300, while the write of the next position was in flight
        assertTrue(bounded.outdated(keepsUp, applied(150, 100)),
                "a sync between 100 and 150 may have come with the ones up to 300; no later check offers it");
        assertFalse(bounded.outdated(keepsUp, applied(350, 300)), "translated through the newest sync");
        assertFalse(bounded.outdated(keepsUp, applied(400, 300)));
    }
    @Test
    void aPositionThatMovedManyTimesCountsAtItsLastOffsetOnly() {
        head(100);
        bounded.improvable(); // seen: 100 (nothing tracked yet: the partition is not known)
        bounded.track(behind, applied(50, 0));
        assertEquals(Set.of(behind), bounded.improvable(), "a partition seen for the first time");
        for (int i = 0; i < 1_000; i++) { // enough moves for the list to be compacted several times
            bounded.track(keepsUp, applied(i % 2 == 0 ? 150 : 60, 0));
        }
        head(130);
        assertEquals(Set.of(), bounded.improvable(), "its last offset is 60: syncs above 100 cannot help it");

        bounded.track(keepsUp, applied(150, 100));
        head(140);
        assertEquals(Set.of(keepsUp), bounded.improvable(), "back above the head seen before");

        bounded.track(keepsUp, applied(150, 100).withStatus(PositionStatus.PENDING, 0));
        bounded.track(behind, applied(50, 0).withStatus(PositionStatus.PENDING, 0));
        head(10);
        assertEquals(Set.of(), bounded.improvable(), "nothing applied and bounded is left");
    }
}
