package dev.sextant.translate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.state.InMemoryStores;
import dev.sextant.state.OffsetSyncStore;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OffsetSyncTranslatorTest {

    private final OffsetSyncStore history = OffsetSyncStore.writer(InMemoryStores.bytesStore("history"));
    private final OffsetSyncTranslator translator = new OffsetSyncTranslator(history);

    private void sync(String topic, int partition, long upstream, long downstream) {
        history.put(new OffsetSyncPoint(topic, partition, upstream, downstream));
    }

    @ParameterizedTest(name = "committed {0} -> {1} ({2}, bound {3})")
    @CsvSource({
            // syncs: 100->1000, 200->1100, 300->1200
            "100, 1000, EXACT,   0",   // exact hit
            "101, 1001, EXACT,   0",   // right after a sync: downstream + 1 is the next record
            "150, 1001, BOUNDED, 49",  // between syncs: never past the true position (1050)
            "199, 1001, BOUNDED, 98",
            "200, 1100, EXACT,   0",
            "300, 1200, EXACT,   0",   // the newest sync
            "450, 1201, BOUNDED, 149", // after the newest sync
    })
    void translatesByTheLatestSyncAtOrBelowTheCommit(long committed, long expected, Precision precision, long bound) {
        sync("orders", 0, 100, 1000);
        sync("orders", 0, 200, 1100);
        sync("orders", 0, 300, 1200);

        OffsetTranslation t = translator.translate("orders", 0, committed).orElseThrow();

        assertEquals(expected, t.destinationOffset());
        assertEquals(precision, t.precision());
        assertEquals(bound, t.bound());
        // never overshoots the exact destination offset (1:1 mapping between syncs here)
        long floorUpstream = committed >= 300 ? 300 : committed >= 200 ? 200 : 100;
        long exactDestination = 1000 + (floorUpstream - 100) + (committed - floorUpstream);
        assertTrue(t.destinationOffset() <= exactDestination);
        assertTrue(exactDestination - t.destinationOffset() <= t.bound());
    }

    @Test
    void beforeTheOldestSyncNothingIsTranslated() {
        sync("orders", 0, 100, 1000);
        assertEquals(Optional.empty(), translator.translate("orders", 0, 99));
        assertEquals(Optional.empty(), translator.translate("orders", 1, 500), "other partition has no history");
        assertEquals(Optional.empty(), translator.translate("other", 0, 500), "other topic has no history");
    }

    @Test
    void topicsWithCommonPrefixesDoNotMix() {
        sync("order", 0, 10, 10);
        sync("orders", 0, 500, 9000);
        assertEquals(11, translator.translate("order", 0, 600).orElseThrow().destinationOffset());
        assertEquals(Optional.empty(), translator.translate("orders", 0, 400));
    }

    @Test
    void aResetForgetsTheOldLog() {
        sync("orders", 0, 100, 1000);
        sync("orders", 0, 200, 1100);
        history.deletePartition("orders", 0); // upstream went backwards: a new log
        sync("orders", 0, 0, 5000);

        assertEquals(5001, translator.translate("orders", 0, 150).orElseThrow().destinationOffset());
        assertEquals(5000, translator.translate("orders", 0, 0).orElseThrow().destinationOffset());
    }

    @Test
    void aConsumerAMillionRecordsBehindReplaysNoMoreThanTheSyncSpacing() {
        long spacing = 100; // MirrorMaker 2's offset.lag.max
        long head = 2_000_000;
        for (long upstream = 0; upstream <= head; upstream += spacing) {
            sync("orders", 0, upstream, upstream + 7); // downstream shifted: destination topic started later
        }
        long lagging = head - 1_000_000 + 37;

        OffsetTranslation t = translator.translate("orders", 0, lagging).orElseThrow();

        long exact = lagging + 7;
        assertTrue(t.destinationOffset() <= exact, "never overshoots");
        assertTrue(exact - t.destinationOffset() <= spacing, "replay " + (exact - t.destinationOffset()));
        assertTrue(t.bound() <= spacing);
        // MirrorMaker 2 keeps 64 syncs per partition spaced by powers of two into the past; a consumer this far
        // behind would land on a sync on the order of its lag away (see bench/ for the side-by-side figures).
    }
}
