package dev.sextant.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.apply.DestinationView.PartitionPresence;
import dev.sextant.testing.InMemoryDestination;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DescribedTopicsTest {

    private final InMemoryDestination destination = new InMemoryDestination();
    private final DescribedTopics topics = new DescribedTopics(destination);

    /** A refresh that succeeded: what it describes, described. */
    private void refresh() {
        Set<String> asked = topics.toDescribe();
        topics.described(asked, topics.describe(asked).join());
    }

    @Test
    void aTopicAskedForIsLookedUpAtTheNextRefresh() {
        assertEquals(Set.of(), topics.toDescribe());
        assertEquals(PartitionPresence.UNKNOWN, topics.presence("orders", 0));
        assertEquals(Set.of("orders"), topics.toDescribe());

        refresh();
        assertEquals(PartitionPresence.ABSENT, topics.presence("orders", 0), "looked up, not there");
        assertEquals(Set.of("orders"), topics.toDescribe(), "looked up again until it is");

        destination.topic("orders", 2); // MirrorMaker 2 created it
        refresh();
        assertEquals(PartitionPresence.PRESENT, topics.presence("orders", 1));
        assertEquals(Set.of("orders"), topics.toDescribe(), "a topic found is described at every refresh");
    }

    @Test
    void aPartitionBeyondTheLastCountIsAbsentAndItsTopicLookedUpAgain() {
        destination.topic("orders", 2);
        topics.presence("orders", 0);
        refresh();
        assertEquals(PartitionPresence.ABSENT, topics.presence("orders", 2));
        destination.topic("orders", 3);
        refresh();
        assertEquals(PartitionPresence.PRESENT, topics.presence("orders", 2));
    }

    @Test
    void theIdsAreKeptAsSoonAsTheTopicsAnswerTheCountsOnceTheRefreshDoes() {
        destination.topic("orders", 1);
        Map<String, Integer> counts = topics.describe(Set.of("orders")).join();
        assertEquals(Map.of("orders", 1), counts);
        assertEquals(Optional.of(destination.topicId("orders")), topics.id("orders"));
        assertEquals(PartitionPresence.UNKNOWN, topics.presence("orders", 0), "counts not kept yet");

        destination.recreate("orders");
        refresh();
        assertEquals(Optional.of(destination.topicId("orders")), topics.id("orders"), "a recreated topic's new id");
        assertTrue(topics.id("payments").isEmpty());
    }
}
