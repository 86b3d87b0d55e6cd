package dev.sextant.deadletter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class DeadLetterThrottleTest {

    private final DeadLetterThrottle throttle = new DeadLetterThrottle();

    @Test
    void oneRecordPerKindPerIntervalAndTheNextSaysHowManyWereLeftOut() {
        assertEquals(Optional.of(""), throttle.admit("orders-0", 0));
        assertEquals(Optional.empty(), throttle.admit("orders-0", 1_000));
        assertEquals(Optional.empty(), throttle.admit("orders-0", 2_000));
        assertEquals(Optional.of(""), throttle.admit("orders-1", 2_000), "another kind: its own record");
        String next = throttle.admit("orders-0", DeadLetterThrottle.INTERVAL_MS).orElseThrow();
        assertTrue(next.contains("and 2 more like it"), next);
    }

    @Test
    void everNewKindsDoNotGrowWithoutBound() {
        int kinds = DeadLetterThrottle.MAX_KINDS * 2 + 5; // the map was cleared at 10,000 and at 20,000 kinds
        for (int i = 0; i < kinds; i++) {
            assertTrue(throttle.admit("topic-" + i, 0).isPresent(), "a new kind is always written");
        }
        assertEquals(Optional.empty(), throttle.admit("topic-" + (kinds - 1), 1), "still throttles after a clear");
        assertTrue(throttle.admit("topic-0", 1).isPresent(), "forgotten in a clear: written again, nothing worse");
    }
}
