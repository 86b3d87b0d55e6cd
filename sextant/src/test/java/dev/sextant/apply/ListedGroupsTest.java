package dev.sextant.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.testing.InMemoryDestination;
import dev.sextant.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ListedGroupsTest {

    private final InMemoryDestination destination = new InMemoryDestination();
    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T00:00:00Z"));
    private final ListedGroups groups = new ListedGroups(destination, clock);

    @Test
    void answersFromTheListingPublishedNotFromOneStillUnpublished() {
        assertEquals(-1, groups.listedAt());
        destination.emptyConsumerGroup("billing");
        long startedAt = clock.millis();
        ListedGroups.Listing listing = groups.listing(startedAt, false).join();
        assertEquals(Optional.empty(), groups.group("billing"), "listed, not published");

        groups.publish(listing);
        assertEquals(startedAt, groups.listedAt());
        assertEquals("classic", groups.group("billing").orElseThrow().typeLabel());
    }

    @Test
    void listsAgainOnlyOnceWhatTheLastListingTookAllows() {
        destination.onListGroups = () -> clock.advance(Duration.ofMillis(100));
        ListedGroups.Listing first = groups.listing(clock.millis(), false).join();
        groups.publish(first);
        assertEquals(1, destination.listGroupsCalls.get());

        clock.advance(Duration.ofMillis(1_800)); // 1.9 s after the listing began
        assertSame(first, groups.listing(clock.millis(), false).join(), "the published one");
        assertEquals(1, destination.listGroupsCalls.get());
        assertTrue(groups.listing(clock.millis(), true).join().startedAt() > first.startedAt(), "unless forced");
        assertEquals(2, destination.listGroupsCalls.get());
    }

    @Test
    void aSlowListingIsRepeatedWithinTheLongestInterval() {
        destination.onListGroups = () -> clock.advance(Duration.ofSeconds(10));
        long startedAt = clock.millis();
        groups.publish(groups.listing(startedAt, false).join());
        clock.advance(Duration.ofSeconds(19));
        groups.listing(clock.millis(), false).join();
        assertEquals(1, destination.listGroupsCalls.get(), "not within 20 x 10 s...");
        clock.advance(Duration.ofSeconds(1));
        groups.listing(clock.millis(), false).join();
        assertEquals(2, destination.listGroupsCalls.get(), "...but again 30 s after it began");
    }

    @Test
    void afterAFailedRefreshTheGroupsAreListedAtTheNext() {
        destination.onListGroups = () -> clock.advance(Duration.ofMillis(100));
        groups.publish(groups.listing(clock.millis(), false).join());
        groups.listing(clock.millis(), false).join();
        assertEquals(1, destination.listGroupsCalls.get());
        groups.listAtNextRefresh();
        groups.listing(clock.millis(), false).join();
        assertEquals(2, destination.listGroupsCalls.get());
    }
}
