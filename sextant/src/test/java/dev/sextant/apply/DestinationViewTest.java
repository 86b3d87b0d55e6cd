package dev.sextant.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.testing.InMemoryDestination;
import dev.sextant.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class DestinationViewTest {

    private final InMemoryDestination destination = new InMemoryDestination();
    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T00:00:00Z"));
    private final DestinationView view = new DestinationView(destination, clock);

    @Test
    void saysSinceWhenTheDestinationHasNotAnswered() {
        assertFalse(view.reachable(), "not before a first answer");
        view.refreshNow();
        assertTrue(view.reachable());
        assertEquals(0, view.unreachableForMs());

        destination.unreachable = true;
        view.refreshNow();
        clock.advance(Duration.ofSeconds(20));
        view.refreshNow();
        assertFalse(view.reachable());
        assertTrue(view.ready(), "what it knew stays usable");
        assertEquals(20_000, view.unreachableForMs(), "from the first refresh that failed");

        destination.unreachable = false;
        view.refreshNow();
        assertTrue(view.reachable());
        assertEquals(0, view.unreachableForMs());
    }
}
