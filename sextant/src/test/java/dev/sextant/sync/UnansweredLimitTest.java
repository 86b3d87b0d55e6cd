package dev.sextant.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class UnansweredLimitTest {

    @Test
    void theLimitIsWhatTheDestinationAnswersInTheQueuedTimeWithinItsBounds() {
        UnansweredLimit limit = new UnansweredLimit();
        assertEquals(UnansweredLimit.MIN, limit.limit(0, 0), "at the start");
        assertEquals(UnansweredLimit.MIN, limit.limit(500, 1_000), "sampled once a second");
        assertEquals(1_200, limit.limit(1_000, 3_000), "3,000 a second: 400 ms of them");
        assertEquals(1_200, limit.limit(1_500, 3_100), "kept until the next sample");
        assertEquals(UnansweredLimit.MIN, limit.limit(2_000, 3_200), "a slow second: no lower than the least");
        assertEquals(UnansweredLimit.MAX, limit.limit(3_000, 100_000), "a fast one: no higher than the most");
    }
}
