package dev.sextant.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sextant.translate.OffsetSyncPoint;
import java.util.List;
import org.junit.jupiter.api.Test;

class OffsetSyncStoreTest {

    private final OffsetSyncStore history = OffsetSyncStore.writer(InMemoryStores.bytesStore("history"));

    @Test
    void prunableIsEverySyncBelowTheOneThatTranslatesTheFloor() {
        for (long u = 0; u <= 1000; u += 100) {
            history.put(new OffsetSyncPoint("orders", 0, u, u));
        }
        history.put(new OffsetSyncPoint("orders-2", 0, 10, 10)); // a topic whose name extends the first: kept apart

        List<OffsetSyncPoint> prunable = history.prunable("orders", 0, 550);

        assertEquals(List.of(0L, 100L, 200L, 300L, 400L),
                prunable.stream().map(OffsetSyncPoint::upstreamOffset).toList());
        assertEquals(0, history.oldest("orders", 0).orElseThrow().upstreamOffset());
        assertEquals(1000, history.newest("orders", 0).orElseThrow().upstreamOffset());
        assertEquals(List.of(), history.prunable("orders-2", 0, 550), "one sync: it still translates the floor");
    }

    @Test
    void theWriterKeepsTheHeadsExactAndTheReaderAnswersFromThem() {
        NewestSyncs newest = new NewestSyncs();
        var store = InMemoryStores.bytesStore("heads");
        OffsetSyncStore writer = OffsetSyncStore.writer(store, newest);
        writer.put(new OffsetSyncPoint("orders", 0, 100, 90));
        writer.put(new OffsetSyncPoint("orders", 0, 200, 190));
        assertEquals(200, newest.get("orders", 0).upstreamOffset());

        writer.delete("orders", 0, 200);
        assertEquals(100, newest.get("orders", 0).upstreamOffset(), "the head falls back to what the store has");
        assertEquals(new OffsetSyncPoint("orders", 0, 100, 90),
                OffsetSyncStore.reader(store, newest).latestAtOrBelow("orders", 0, 5_000).orElseThrow());

        writer.deletePartition("orders", 0);
        assertEquals(null, newest.get("orders", 0));
    }
}
