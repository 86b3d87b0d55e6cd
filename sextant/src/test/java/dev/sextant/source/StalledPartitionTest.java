package dev.sextant.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class StalledPartitionTest {

    @Test
    void aLastStableOffsetThatStandsStillBelowTheEndIsHeldBackAfterTheStallTime() {
        StalledPartition p = new StalledPartition();
        assertEquals(Optional.empty(), p.observe(100, 120, 0), "first seen: not yet");
        assertEquals(Optional.empty(), p.observe(100, 125, StalledPartition.STALL_MS - 1));
        assertFalse(p.stalled(StalledPartition.STALL_MS - 1));
        assertEquals(Optional.of(new StalledPartition.Stretch(100, 130)), p.observe(100, 130,
                StalledPartition.STALL_MS));
        assertTrue(p.stalled(StalledPartition.STALL_MS));

        p.readUpTo(130);
        assertEquals(Optional.empty(), p.observe(100, 130, 2_000), "nothing new past what was read");
        assertEquals(Optional.of(new StalledPartition.Stretch(130, 140)), p.observe(100, 140, 2_500));
    }

    @Test
    void aMovingLastStableOffsetIsBusyTrafficNotAStall() {
        StalledPartition p = new StalledPartition();
        for (long t = 0, stable = 100; t < 10_000; t += 500, stable += 7) {
            assertEquals(Optional.empty(), p.observe(stable, stable + 5, t));
        }
        assertFalse(p.stalled(10_000));
    }

    @Test
    void theTransactionEndingClearsTheStall() {
        StalledPartition p = new StalledPartition();
        p.observe(100, 120, 0);
        p.observe(100, 120, 5_000);
        p.readUpTo(120);
        assertEquals(Optional.empty(), p.observe(130, 130, 6_000));
        assertFalse(p.stalled(6_000));
        p.observe(130, 150, 7_000);
        assertEquals(Optional.of(new StalledPartition.Stretch(130, 150)), p.observe(130, 150, 8_000),
                "a new stall reads from its own last stable offset");
    }
}
