package dev.sextant.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sextant.state.InMemorySyncHistory;
import dev.sextant.translate.OffsetSyncPoint;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The failback history: a mirror of the destination's own topic reads the returned history, any other its own. */
class HomewardHistoryTest {

    @Test
    void theNewestSyncIsTheOneOfTheHistoryThePartitionTranslatesThrough() {
        InMemorySyncHistory own = new InMemorySyncHistory();
        own.put(new OffsetSyncPoint("payments", 0, 40, 41));
        own.put(new OffsetSyncPoint("source.orders", 0, 10, 10)); // not what a homeward topic translates through
        InMemorySyncHistory returned = new InMemorySyncHistory();
        returned.put(new OffsetSyncPoint("source.orders", 0, 99, 98));
        returned.put(new OffsetSyncPoint("source.orders", 0, 199, 197));
        HomewardHistory history = new HomewardHistory(own, returned, topic -> topic.startsWith("source."));

        assertEquals(Optional.of(new OffsetSyncPoint("source.orders", 0, 199, 197)),
                history.newest("source.orders", 0), "a bounded failback position improves on the inverted history");
        assertEquals(Optional.of(new OffsetSyncPoint("payments", 0, 40, 41)), history.newest("payments", 0));
        assertEquals(Optional.empty(), history.newest("payments", 1));
    }
}
