package dev.sextant.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
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

    @Test
    void afterAnOutageTheClusterIsNotConfirmedUntilItsIdIsReadAgain() {
        assertFalse(view.clusterConfirmed(), "not before a first read");
        view.refreshNow();
        assertTrue(view.clusterConfirmed());

        destination.unreachable = true;
        view.refreshNow();
        assertFalse(view.clusterConfirmed(), "an outage: another cluster may come up at the same address");

        destination.unreachable = false;
        destination.clusterIdFails = true; // the listing answers, the cluster id read does not yet
        view.refreshNow();
        assertTrue(view.ready());
        assertFalse(view.clusterConfirmed(), "the id not read yet: nothing may be written");

        destination.clusterIdFails = false;
        view.refreshNow();
        assertTrue(view.clusterConfirmed(), "read again at the next refresh, not 10 s later");
    }

    @Test
    void listsTheGroupsNoMoreOftenThanTheirCostAllows() {
        destination.emptyConsumerGroup("billing");
        destination.onListGroups = () -> clock.advance(Duration.ofMillis(100)); // a destination with many groups
        view.refresh().join();
        assertEquals(1, destination.listGroupsCalls.get());

        destination.activeConsumerGroup("billing");
        clock.advance(Duration.ofMillis(500));
        view.refresh().join();
        assertEquals(1, destination.listGroupsCalls.get(), "not within 20 x 100 ms of the last listing");
        assertFalse(view.group("billing").orElseThrow().active(), "the last listing still stands");
        assertTrue(view.reachable(), "topics were refreshed meanwhile");

        clock.advance(Duration.ofMillis(1_500));
        view.refresh().join();
        assertEquals(2, destination.listGroupsCalls.get(), "2 s after the last listing began");
        assertTrue(view.group("billing").orElseThrow().active());

        view.refreshNow();
        assertEquals(3, destination.listGroupsCalls.get(), "refreshNow always lists");

        destination.unreachable = true;
        view.refresh().join();
        destination.unreachable = false;
        view.refresh().join();
        assertEquals(4, destination.listGroupsCalls.get(), "after a failure the groups are listed at once");

        destination.onListGroups = () -> clock.advance(Duration.ofSeconds(10)); // a destination struggling to answer
        clock.advance(Duration.ofSeconds(2));
        view.refresh().join(); // began at S, answered at S + 10 s
        assertEquals(5, destination.listGroupsCalls.get());
        clock.advance(Duration.ofSeconds(19));
        view.refresh().join();
        assertEquals(5, destination.listGroupsCalls.get(), "not within 20 x 10 s of S...");
        clock.advance(Duration.ofSeconds(1));
        view.refresh().join();
        assertEquals(6, destination.listGroupsCalls.get(), "...but again 30 s after S");
    }

    @Test
    void aClientThatThrowsInsteadOfAnsweringDoesNotHoldBackTheNextRefresh() {
        destination.onListGroups = () -> {
            throw new IllegalStateException("closed");
        };
        assertThrows(IllegalStateException.class, view::refreshNow);
        destination.onListGroups = () -> { };
        view.refreshNow();
        assertEquals(2, destination.listGroupsCalls.get());
        assertTrue(view.reachable());
    }
}
