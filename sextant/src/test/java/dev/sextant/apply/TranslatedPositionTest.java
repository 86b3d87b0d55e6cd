package dev.sextant.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.domain.LogRange;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The one way a translation becomes a planned write: inside the mirror partition's log, with its mark's inputs. */
class TranslatedPositionTest {

    private static final PositionKey KEY = new PositionKey("g", "orders", 0);
    private static final TopicPartition MIRROR = new TopicPartition("source.orders", 0);

    private static TranslatedPosition translated(long offset, long bound) {
        return TranslatedPosition.of(KEY, MIRROR, 500, 1_000L, offset, bound);
    }

    @Test
    void aTranslationInsideTheLogIsWrittenAsItIs() {
        PlannedPartition planned = translated(300, 2).within(new LogRange(100, 400));
        assertEquals(300, planned.translatedOffset());
        assertEquals(2, planned.bound());
        assertEquals(500, planned.sourceOffset());
        assertEquals(1_000L, planned.commitTimestamp());
        assertFalse(planned.again());
    }

    @Test
    void aTranslationBeyondALaggingMirrorIsWrittenAtItsEndWithTheGapAddedToTheBound() {
        TranslatedPosition t = translated(450, 0);
        LogRange lagging = new LogRange(0, 400);
        assertTrue(t.beyond(lagging));
        PlannedPartition planned = t.within(lagging);
        assertEquals(400, planned.translatedOffset(), "never beyond the end: what producers append there is read");
        assertEquals(50, planned.bound(), "the 50 records up to the translation are replays once mirrored");
        assertEquals(60, translated(450, -1).within(new LogRange(0, 390)).bound(), "an unknown bound counts as 0");
    }

    @Test
    void aTranslationBelowTheLogStartIsWrittenAtTheStart() {
        PlannedPartition planned = translated(50, 3).within(new LogRange(120, 400));
        assertEquals(120, planned.translatedOffset(), "below the start a consumer falls back to auto.offset.reset");
        assertEquals(3, planned.bound());
    }

    @Test
    void unknownEndsLeaveTheTranslationAsItIs() {
        assertEquals(450, translated(450, -1).within(LogRange.UNKNOWN).translatedOffset());
        assertEquals(-1, translated(450, -1).within(LogRange.UNKNOWN).bound());
        assertEquals(500, translated(450, 1).within(new LogRange(500, -1)).translatedOffset(),
                "a known start holds without a known end");
        assertFalse(translated(450, 0).beyond(new LogRange(0, -1)));
    }

    @Test
    void theWriteAppliedBeforeIsMarkedAsWrittenAgainOnPurpose() {
        PartitionPosition applied = new PartitionPosition(500, 1_000L, 300, 0, 300, 500, 2_000L, -1,
                PositionStatus.APPLIED);
        assertTrue(TranslatedPosition.of(KEY, MIRROR, applied).within(new LogRange(0, 400)).again());
        PartitionPosition clampedBefore = new PartitionPosition(500, 1_000L, 300, 0, 250, 500, 2_000L, -1,
                PositionStatus.APPLIED);
        assertFalse(TranslatedPosition.of(KEY, MIRROR, clampedBefore).within(new LogRange(0, 400)).again(),
                "written closer now that the mirror caught up: a new write, not the old one again");
        assertEquals(250, TranslatedPosition.of(KEY, MIRROR, clampedBefore).applied().translatedOffset(),
                "what the destination is expected to hold");
    }
}
