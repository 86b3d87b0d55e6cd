package dev.sextant.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.translate.OffsetSyncTranslator;
import dev.sextant.translate.OffsetTranslation;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Replaying the history topic into memory (what the failover command does) gives the translations the global store
 * gives: {@code OffsetSyncHistoryUpdaterTest} checks the store side with the same records.
 */
class HistoryRecordsTest {

    private final InMemorySyncHistory history = new InMemorySyncHistory();
    private final OffsetSyncTranslator translator = new OffsetSyncTranslator(history);

    private void sync(String topic, int partition, long upstream, long downstream) {
        HistoryRecords.replay(OffsetSyncKeys.key(topic, partition, upstream), OffsetSyncKeys.value(downstream),
                history);
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
        assertTrue(translate("orders", 0, -1).isEmpty());
    }

    @Test
    void aRecordSextantDoesNotWriteIsRefusedAndChangesNothing() {
        sync("orders", 0, 100, 90);
        assertThrows(IllegalArgumentException.class, () -> HistoryRecords.replay(null, new byte[8], history));
        assertThrows(IllegalArgumentException.class,
                () -> HistoryRecords.replay(OffsetSyncKeys.key("orders", 0, 200), new byte[0], history));
        assertThrows(IllegalArgumentException.class,
                () -> HistoryRecords.replay(OffsetSyncKeys.resetMarker("orders", 0), new byte[8], history));
        assertEquals(1, history.size());
        assertEquals(Optional.of(OffsetTranslation.exact(100, 90)), translate("orders", 0, 100));
    }

    @Test
    void aTombstoneForgetsOneSync() {
        sync("orders", 0, 0, 0);
        sync("orders", 0, 100, 90);
        HistoryRecords.replay(OffsetSyncKeys.key("orders", 0, 100), null, history);
        assertEquals(Optional.of(OffsetTranslation.bounded(150, 1, 149)), translate("orders", 0, 150));
    }

    @Test
    void aResetMarkerForgetsThePartitionThenNewSyncsCount() {
        sync("orders", 0, 500, 500);
        sync("orders", 1, 500, 500);
        HistoryRecords.replay(OffsetSyncKeys.resetMarker("orders", 0), new byte[0], history);
        assertTrue(translate("orders", 0, 600).isEmpty());
        assertEquals(Optional.of(OffsetTranslation.bounded(600, 501, 99)), translate("orders", 1, 600));
        sync("orders", 0, 10, 7);
        assertEquals(Optional.of(OffsetTranslation.exact(10, 7)), translate("orders", 0, 10));
        assertEquals(2, history.partitions());
        assertEquals(2, history.size());
    }
}
