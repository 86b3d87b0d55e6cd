package dev.sextant.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class UnansweredLimitTest {

    @Test
    void theLimitFollowsWhatTheDestinationAnswersInTheQueuedTimeWithinItsBounds() {
        UnansweredLimit limit = new UnansweredLimit();
        assertEquals(UnansweredLimit.MIN, limit.limit(0, 0), "at the start");
        assertEquals(UnansweredLimit.MIN, limit.limit(100, 1_000), "sampled every 250 ms");
        assertEquals(1_200, limit.limit(250, 750), "3,000 a second: 400 ms of them, at once");
        assertEquals(1_200, limit.limit(400, 800), "kept until the next sample");
        assertEquals(800, limit.limit(500, 1_000), "a slower sample (800 a second): half way down");
        for (long t = 500; t <= 5_000; t += 250) {
            limit.limit(t, 750 + (t - 250) * 3);
        }
        assertEquals(1_200, limit.limit(5_250, 750 + 5_000 * 3), "settled: 400 ms of 3,000 a second");
        for (long t = 5_500; t <= 8_000; t += 250) {
            limit.limit(t, 15_750);
        }
        assertEquals(UnansweredLimit.MIN, limit.limit(8_250, 15_750), "a quiet spell: no lower than the least");
        for (long t = 8_500; t <= 12_000; t += 250) {
            limit.limit(t, 15_750 + (t - 8_250) * 100);
        }
        assertEquals(UnansweredLimit.MAX, limit.limit(12_250, 15_750 + 4_000 * 100), "no higher than the most");
    }

    @Test
    void aBurstAnsweredAsFastAsItIsHandedOutGrowsTheLimitToItsMostWithinAFewSeconds() {
        UnansweredLimit limit = new UnansweredLimit();
        long answered = 0;
        long t = 0;
        int current = limit.limit(t, answered);
        while (current < UnansweredLimit.MAX && t < 10_000) {
            answered += current; // every write handed out in a sample is answered within it
            t += UnansweredLimit.SAMPLE_MS;
            current = limit.limit(t, answered);
        }
        assertTrue(t <= 1_500, "from the least to the most in " + t + " ms");
    }
}
