package dev.sextant.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sextant.failover.FailoverReport.GroupResult;
import dev.sextant.failover.FailoverReport.GroupState;
import dev.sextant.failover.FailoverReport.PartitionState;
import dev.sextant.failover.FailoverReport.PartitionStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The reset plan's lines: one per partition with an offset to resume at, in Kafka's three-column form. */
class ResetPlanCsvTest {

    private static PartitionState row(String topic, int partition, Long offset, Long pending, PartitionStatus status) {
        return new PartitionState(topic, partition, offset, "exact", 0L, 1_000L, pending, status);
    }

    private static GroupState group(GroupResult result, PartitionState... partitions) {
        return new GroupState("billing", "consumer", "Empty", result, null, List.of(partitions));
    }

    @Test
    void oneLinePerPartitionSortedNoHeaderEndedByNewline() {
        ResetPlanCsv plan = ResetPlanCsv.of(group(GroupResult.READY,
                row("source.orders", 10, 7L, null, PartitionStatus.IN_SYNC),
                row("source.orders", 2, 1230L, null, PartitionStatus.IN_SYNC),
                row("source.audit", 0, 0L, null, PartitionStatus.WRITTEN)));
        assertEquals("source.audit,0,0\nsource.orders,2,1230\nsource.orders,10,7\n", plan.text());
        assertEquals(List.of(), plan.leftOut());
    }

    /** A dry run's plan is where consumers resume once the positions Sextant holds are written, as --apply does. */
    @Test
    void aPendingOrMissingPartitionResumesAtTheTranslationNotYetWritten() {
        ResetPlanCsv plan = ResetPlanCsv.of(group(GroupResult.PENDING,
                row("source.orders", 0, 100L, 150L, PartitionStatus.PENDING),
                row("source.orders", 1, null, 90L, PartitionStatus.MISSING)));
        assertEquals("source.orders,0,150\nsource.orders,1,90\n", plan.text());
    }

    /** Sextant does not write over offsets it did not write; neither does its plan. */
    @Test
    void anOffsetSomeoneElseWroteStaysAsTheDestinationHoldsIt() {
        ResetPlanCsv plan = ResetPlanCsv.of(group(GroupResult.REFUSED,
                row("source.orders", 0, 42L, 150L, PartitionStatus.NOT_SEXTANT)));
        assertEquals("source.orders,0,42\n", plan.text());
    }

    @Test
    void aPartitionWithNoOffsetToResumeAtIsLeftOutAndNamed() {
        ResetPlanCsv plan = ResetPlanCsv.of(group(GroupResult.INCOMPLETE,
                row("source.orders", 0, 100L, null, PartitionStatus.IN_SYNC),
                row("source.unmirrored", 0, null, null, PartitionStatus.UNTRANSLATED)));
        assertEquals("source.orders,0,100\n", plan.text());
        assertEquals(List.of("source.unmirrored-0 (UNTRANSLATED)"), plan.leftOut());
    }

    @Test
    void aGroupWithoutOffsetsHasAnEmptyPlan() {
        assertEquals("", ResetPlanCsv.of(group(GroupResult.READY)).text());
    }
}
