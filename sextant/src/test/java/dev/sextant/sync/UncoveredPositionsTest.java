package dev.sextant.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sextant.state.PositionKey;
import dev.sextant.translate.OffsetTranslation;
import dev.sextant.translate.OffsetTranslator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class UncoveredPositionsTest {

    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    /** The newest sync's upstream offset per partition, and the lowest offset the history covers. */
    private final Map<TopicPartition, Long> heads = new HashMap<>();
    private final Map<TopicPartition, Long> oldest = new HashMap<>();
    private int lookups;
    private final OffsetTranslator translator = (topic, partition, offset) -> {
        lookups++;
        Long from = oldest.get(new TopicPartition(topic, partition));
        return from != null && offset >= from ? Optional.of(OffsetTranslation.exact(offset, offset))
                : Optional.empty();
    };
    private final UncoveredPositions uncovered = new UncoveredPositions(heads::get, translator);

    @Test
    void waitingPositionsComeBackWhenASyncCoversThemAndOnlyThen() {
        PositionKey billing = new PositionKey("billing", "orders", 0);
        PositionKey audit = new PositionKey("audit", "orders", 0);
        uncovered.waitFor(billing, 50);
        uncovered.waitFor(audit, 70);
        assertEquals(List.of(), uncovered.covered(), "no new sync");
        assertEquals(0, lookups, "nothing looked up while the partition's history stands still");

        heads.put(ORDERS_0, 1_000L);
        oldest.put(ORDERS_0, 100L);
        assertEquals(List.of(), uncovered.covered(), "a new sync that covers neither");
        assertEquals(1, lookups, "one lookup per partition whose history changed, not per position");

        heads.put(ORDERS_0, 1_100L);
        oldest.put(ORDERS_0, 60L);
        assertEquals(2, uncovered.covered().size(), "covered from 60: both offered again (50 parks again)");
        assertEquals(0, uncovered.partitions());
    }

    @Test
    void identityTranslationKeepsNothing() {
        UncoveredPositions identity = new UncoveredPositions(null, translator);
        identity.waitFor(new PositionKey("billing", "orders", 0), 50);
        assertEquals(0, identity.partitions());
        assertEquals(List.of(), identity.covered());
    }
}
