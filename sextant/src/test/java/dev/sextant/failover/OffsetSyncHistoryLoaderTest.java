package dev.sextant.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.state.OffsetSyncKeys;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.translate.OffsetSyncTranslator;
import dev.sextant.translate.OffsetTranslation;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Replaying the history topic in memory gives the translations the global store gives. */
class OffsetSyncHistoryLoaderTest {

    private final SortedKeyValueStore store = new SortedKeyValueStore("test");
    private final OffsetSyncStore history = OffsetSyncStore.writer(store);
    private final OffsetSyncTranslator translator = new OffsetSyncTranslator(OffsetSyncStore.reader(store));

    private void sync(String topic, int partition, long upstream, long downstream) {
        OffsetSyncHistoryLoader.replay(history, OffsetSyncKeys.key(topic, partition, upstream).get(),
                OffsetSyncKeys.value(downstream));
    }

    private Optional<OffsetTranslation> translate(String topic, int partition, long offset) {
        return translator.translate(topic, partition, offset);
    }

    @Test
    void translatesWithTheNewestSyncAtOrBelow() {
        sync("orders", 0, 0, 0);
        sync("orders", 0, 100, 90);
        sync("orders", 0, 200, 180);
        sync("orders", 1, 150, 150);
        assertEquals(Optional.of(OffsetTranslation.exact(100, 90)), translate("orders", 0, 100));
        assertEquals(Optional.of(OffsetTranslation.bounded(150, 91, 49)), translate("orders", 0, 150));
        assertEquals(Optional.of(OffsetTranslation.bounded(5_000, 181, 4_799)), translate("orders", 0, 5_000));
        assertTrue(translate("orders", 1, 149).isEmpty());
        assertTrue(translate("orders-2", 0, 10).isEmpty());
    }

    @Test
    void aTombstoneForgetsOneSync() {
        sync("orders", 0, 0, 0);
        sync("orders", 0, 100, 90);
        OffsetSyncHistoryLoader.replay(history, OffsetSyncKeys.key("orders", 0, 100).get(), null);
        assertEquals(Optional.of(OffsetTranslation.bounded(150, 1, 149)), translate("orders", 0, 150));
    }

    @Test
    void aResetMarkerForgetsThePartitionThenNewSyncsCount() {
        sync("orders", 0, 500, 500);
        sync("orders", 1, 500, 500);
        OffsetSyncHistoryLoader.replay(history, OffsetSyncKeys.resetMarker("orders", 0).get(), new byte[0]);
        assertTrue(translate("orders", 0, 600).isEmpty());
        assertEquals(Optional.of(OffsetTranslation.bounded(600, 501, 99)), translate("orders", 1, 600));
        sync("orders", 0, 10, 7);
        assertEquals(Optional.of(OffsetTranslation.exact(10, 7)), translate("orders", 0, 10));
        assertEquals(1, history.partitions().stream().filter(tp -> tp.partition() == 0).count());
    }
}
