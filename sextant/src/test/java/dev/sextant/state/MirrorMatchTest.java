package dev.sextant.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.state.MirrorMatch.Verdict;
import dev.sextant.translate.IntervalEvidence;
import dev.sextant.translate.OffsetSyncPoint;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

class MirrorMatchTest {

    private static final OffsetSyncPoint P0 = new OffsetSyncPoint("orders", 0, 900, 800);
    private static final OffsetSyncPoint P1 = new OffsetSyncPoint("orders", 1, 500, 500);

    @Test
    void aRecordedIdMatchesItsMirrorAndNoOther() {
        Uuid id = Uuid.randomUuid();
        assertEquals(Verdict.MATCHES, MirrorMatch.byId("orders", "source.orders", id, id).verdict());
        MirrorMatch.Result other = MirrorMatch.byId("orders", "source.orders", id, Uuid.randomUuid());
        assertEquals(Verdict.RESEEDED, other.verdict());
        assertTrue(other.reason().startsWith("mirror topic source.orders was created again (topic id " + id
                + " is now "), other.reason());
        assertFalse(MirrorMatch.recorded(MirrorMatch.NOT_RECORDED));
        assertFalse(MirrorMatch.recorded(null));
    }

    @Test
    void withoutAnIdOnePartitionPastTheMirrorsEndOrWithAnotherRecordDecidesForTheTopic() {
        MirrorMatch.Result shorter = MirrorMatch.bySyncs("orders", "source.orders", List.of(P0, P1),
                Map.of(0, 800L, 1, 2_000L), Map.of(1, IntervalEvidence.Verdict.PROVEN));
        assertEquals(Verdict.RESEEDED, shorter.verdict());
        assertTrue(shorter.reason().contains("partition 0 points at offset 800, and the mirror's log ends at 800"),
                shorter.reason());

        MirrorMatch.Result another = MirrorMatch.bySyncs("orders", "source.orders", List.of(P0, P1),
                Map.of(0, 801L, 1, 2_000L), Map.of(0, IntervalEvidence.Verdict.PROVEN,
                        1, IntervalEvidence.Verdict.REFUTED));
        assertEquals(Verdict.RESEEDED, another.verdict());
        assertTrue(another.reason().contains("record at offset 500 of partition 1 is not the copy of the source's "
                + "record at 500"), another.reason());
    }

    @Test
    void withoutAnIdEveryPartitionProvenMatchesAndAnythingShortOfThatIsUnproven() {
        Map<Integer, Long> ends = Map.of(0, 1_000L, 1, 1_000L);
        assertEquals(Verdict.MATCHES, MirrorMatch.bySyncs("orders", "source.orders", List.of(P0, P1), ends,
                Map.of(0, IntervalEvidence.Verdict.PROVEN, 1, IntervalEvidence.Verdict.PROVEN)).verdict());
        assertEquals(Verdict.UNPROVEN, MirrorMatch.bySyncs("orders", "source.orders", List.of(P0, P1), ends,
                Map.of(0, IntervalEvidence.Verdict.PROVEN, 1, IntervalEvidence.Verdict.UNKNOWN)).verdict());
        assertEquals(Verdict.UNPROVEN, MirrorMatch.bySyncs("orders", "source.orders", List.of(P0, P1),
                Map.of(0, 1_000L), Map.of(0, IntervalEvidence.Verdict.PROVEN, 1, IntervalEvidence.Verdict.PROVEN))
                .verdict(), "an end not read proves nothing, and forgets nothing");
        assertEquals(Verdict.MATCHES, MirrorMatch.bySyncs("orders", "source.orders", List.of(), Map.of(), Map.of())
                .verdict(), "no syncs: nothing translates through it");
    }

    @Test
    void evidenceThatReadsNothingProvesNoSync() {
        assertEquals(IntervalEvidence.Verdict.UNKNOWN, MirrorMatch.records(IntervalEvidence.TRUSTED, P0));
        assertFalse(MirrorMatch.readsRecords(IntervalEvidence.NONE));
        assertEquals(IntervalEvidence.Verdict.REFUTED,
                MirrorMatch.records((lower, upper) -> IntervalEvidence.Verdict.REFUTED, P0));
    }
}
