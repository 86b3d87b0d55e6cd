package dev.sextant.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.kafka.connect.mirror.DefaultReplicationPolicy;
import org.junit.jupiter.api.Test;

/** A B-to-A Sextant (source alias {@code destination}, destination alias {@code source}) of a two-way setup. */
class TopicRoutesTest {

    private static TopicRoutes routes(boolean translatesHome) {
        return new TopicRoutes(new DefaultReplicationPolicy(), "destination", "source", translatesHome,
                topic -> !topic.startsWith("internal"));
    }

    @Test
    void aMirrorOfTheDestinationsOwnTopicIsMovedOnlyWhenTranslatedHome() {
        assertTrue(routes(false).fromDestination("source.orders"));
        assertFalse(routes(false).moved("source.orders"), "two-way: its records came from the destination");
        assertTrue(routes(true).moved("source.orders"), "failback: translated home");
        assertEquals("orders", routes(true).destinationTopic("source.orders"), "to its original");
    }

    @Test
    void theSourcesOwnTopicGoesToItsMirrorWhenIncluded() {
        assertFalse(routes(false).fromDestination("payments"));
        assertTrue(routes(false).moved("payments"));
        assertEquals("destination.payments", routes(true).destinationTopic("payments"));
        assertFalse(routes(true).moved("internal.audit"), "topics.exclude");
        assertFalse(routes(true).included("internal.audit"));
    }

    @Test
    void withoutTheDestinationsAliasNoTopicIsTheDestinations() {
        TopicRoutes unknown = new TopicRoutes(new DefaultReplicationPolicy(), "destination", null, false, t -> true);
        assertFalse(unknown.fromDestination("source.orders"));
        assertTrue(unknown.moved("source.orders"));
    }
}
