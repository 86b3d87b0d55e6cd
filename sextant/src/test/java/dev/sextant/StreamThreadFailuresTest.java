package dev.sextant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StreamThreadFailuresTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T00:00:00Z"));
    private final StreamThreadFailures failures = new StreamThreadFailures(clock);

    @Test
    void notLiveOnceThreadsKeepDyingAndLiveAgainWhenTheyStop() {
        for (int i = 1; i < StreamThreadFailures.LIMIT; i++) {
            failures.failed(new IllegalStateException("boom " + i));
            clock.advance(Duration.ofSeconds(10));
        }
        assertEquals(Optional.empty(), failures.problem(), "a few replaced threads are what REPLACE_THREAD is for");

        failures.failed(new IllegalStateException("boom again"));
        String problem = failures.problem().orElseThrow();
        assertTrue(problem.contains(StreamThreadFailures.LIMIT + " stream threads died")
                && problem.contains("boom again"), problem);

        clock.advance(Duration.ofMillis(StreamThreadFailures.WINDOW_MS));
        assertEquals(Optional.empty(), failures.problem());
    }
}
