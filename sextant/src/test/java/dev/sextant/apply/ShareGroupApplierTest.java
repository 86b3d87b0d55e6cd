package dev.sextant.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sextant.state.PositionKey;
import dev.sextant.testing.InMemoryDestination;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class ShareGroupApplierTest {

    private final InMemoryDestination destination = new InMemoryDestination();
    private final ShareGroupApplier applier = new ShareGroupApplier(destination);

    private static PlannedPartition applied(String group, int partition, long offset) {
        return new PlannedPartition(new PositionKey(group, "orders", partition),
                new TopicPartition("source.orders", partition), offset, 1_000, offset, -1, -1, false);
    }

    @Test
    void theAuditFindsStartOffsetsBelowTheAppliedOneOrGone() throws Exception {
        Map<TopicPartition, Long> there = new HashMap<>();
        there.put(new TopicPartition("source.orders", 0), 400L); // a late write of an older position landed
        there.put(new TopicPartition("source.orders", 1), 500L); // as applied
        there.put(new TopicPartition("source.orders", 2), 650L); // moved on since (its consumers, after failover)
        destination.shareOffsets.put("queue", there);
        List<PositionKey> found = applier.overwritten(Map.of("queue", List.of(applied("queue", 0, 500),
                applied("queue", 1, 500), applied("queue", 2, 600), applied("queue", 3, 100)))).get();
        assertEquals(Set.of(new PositionKey("queue", "orders", 0), new PositionKey("queue", "orders", 3)),
                Set.copyOf(found), "below the applied start offset, or gone; never one at or above it");
    }
}
