package dev.sextant.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sextant.state.PositionKey;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class ExactFloorTest {

    private static final PositionKey KEY = new PositionKey("billing", "orders", 0);
    private static final TopicPartition MIRROR = new TopicPartition("source.orders", 0);
    /** Record 200 is at 530 on the mirror: Sextant wrote commit 200 (log offset 41) exact. */
    private static final OffsetOwnership.Mark EXACT_200 = new OffsetOwnership.Mark(1_000, 200, 0, 41);

    private static PlannedPartition plan(long sourceOffset, long logOffset, long translated, long bound) {
        return new PlannedPartition(KEY, MIRROR, sourceOffset, 1_000 + logOffset, translated, bound, logOffset,
                false);
    }

    @Test
    void aBoundedPlanOfTheSameOrANewerCommitBelowTheExactOffsetKeepsIt() {
        assertEquals(OptionalLong.of(0), ExactFloor.keep(EXACT_200, 530, plan(200, 41, 521, 9)), "the same commit");
        assertEquals(OptionalLong.of(7), ExactFloor.keep(EXACT_200, 530, plan(207, 42, 525, 12)),
                "a newer commit resumes at record 200 at worst: 7 records again");
        assertEquals(OptionalLong.of(7), ExactFloor.keep(EXACT_200, 530, plan(207, 42, 525, -1)),
                "a plan of unknown precision is no proof either");
    }

    @Test
    void theOrdinaryRulesDecideEverythingElse() {
        assertEquals(OptionalLong.empty(), ExactFloor.keep(EXACT_200, 530, plan(210, 42, 540, 0)), "a plan above");
        assertEquals(OptionalLong.empty(), ExactFloor.keep(EXACT_200, 530, plan(150, 42, 480, 3)),
                "a rewind of the source (sync.rewind decides)");
        assertEquals(OptionalLong.empty(), ExactFloor.keep(EXACT_200, 530, plan(207, 40, 525, 12)),
                "the mark's commit is newer (superseded)");
        assertEquals(OptionalLong.empty(), ExactFloor.keep(EXACT_200, 530, plan(207, 42, 525, 0)),
                "two exact answers that disagree: the mirror changed under them");
        assertEquals(OptionalLong.empty(), ExactFloor.keep(new OffsetOwnership.Mark(1_000, 200, 4, 41), 530,
                plan(200, 41, 521, 9)), "a bounded offset proves nothing");
        assertEquals(OptionalLong.empty(), ExactFloor.keep(new OffsetOwnership.Mark(1_000, 200), 530,
                plan(200, 41, 521, 9)), "a mark without b= predates bounds");
    }
}
