package dev.sextant.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.apply.DestinationView;
import dev.sextant.history.OffsetSyncCatchUp;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.state.HistoryRecords;
import dev.sextant.state.InMemorySyncHistory;
import dev.sextant.state.NewestSyncs;
import dev.sextant.state.OffsetSyncKeys;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.sync.SyncSettings;
import dev.sextant.testing.InMemoryDestination;
import dev.sextant.translate.OffsetSyncPoint;
import dev.sextant.translate.OffsetSyncTranslator;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

/**
 * The in-memory heads ({@link NewestSyncs}) must always agree with the history store they shortcut, whatever mix of
 * syncs, tombstones and resets the history topic carries; and translations through them must equal translations
 * through the store alone.
 */
class OffsetSyncHistoryUpdaterTest {

    private final KeyValueStore<Bytes, byte[]> store = Stores.keyValueStoreBuilder(
            Stores.inMemoryKeyValueStore(OffsetSyncStore.NAME), Serdes.Bytes(), Serdes.ByteArray())
            .withLoggingDisabled().build();
    private final MockProcessorContext<Void, Void> context = new MockProcessorContext<>();
    private final NewestSyncs newest = new NewestSyncs();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final SyncSettings settings = TestSettings.settings();
    private final InMemoryDestination destination = new InMemoryDestination();
    private final DestinationView view = new DestinationView(destination);

    private OffsetSyncHistoryUpdater updater() {
        return new OffsetSyncHistoryUpdater(newest, settings,
                new UndecodableRecords(settings, new SextantMetrics(registry)), OffsetSyncCatchUp.notNeeded(), view);
    }

    private OffsetSyncHistoryUpdater started() {
        store.init(context.getStateStoreContext(), store);
        context.addStateStore(store);
        OffsetSyncHistoryUpdater updater = updater();
        updater.init(context);
        return updater;
    }

    @Test
    void aDestinationClusterPinReadFromTheHistoryHoldsTheViewsWritesToAnotherCluster() {
        view.refreshNow(); // the destination says it is "in-memory-cluster"
        OffsetSyncHistoryUpdater updater = started();
        assertTrue(view.clusterChange().isEmpty(), "nothing pinned yet");
        updater.process(new Record<>(OffsetSyncKeys.destinationClusterKey(),
                OffsetSyncKeys.clusterValue("the-old-cluster"), 0));
        assertTrue(view.clusterChange().isPresent(), "pinned to another cluster than the one answering");
    }

    @Test
    void headsMatchTheStoreAndTranslateLikeItUnderRandomSyncsTombstonesAndResets() {
        OffsetSyncHistoryUpdater updater = started();
        OffsetSyncStore history = OffsetSyncStore.reader(store);
        OffsetSyncTranslator fromStore = new OffsetSyncTranslator(history);
        OffsetSyncTranslator withHeads = new OffsetSyncTranslator(OffsetSyncStore.reader(store, newest));
        InMemorySyncHistory inMemory = new InMemorySyncHistory(); // what the failover command rebuilds
        OffsetSyncTranslator fromMemory = new OffsetSyncTranslator(inMemory);
        Random random = new Random(42);
        long[] next = new long[3];
        List<long[]> stored = new ArrayList<>();
        for (int step = 0; step < 5_000; step++) {
            int partition = random.nextInt(3);
            int op = random.nextInt(20);
            if (op == 0) {
                process(updater, inMemory, OffsetSyncKeys.resetMarker("orders", partition), new byte[0]);
                stored.removeIf(s -> s[0] == partition);
                next[partition] = random.nextInt(50);
            } else if (op < 5 && !stored.isEmpty()) {
                long[] victim = stored.remove(random.nextInt(stored.size()));
                process(updater, inMemory, OffsetSyncKeys.key("orders", (int) victim[0], victim[1]), null);
            } else {
                long upstream = next[partition];
                next[partition] += 1 + random.nextInt(100);
                process(updater, inMemory, OffsetSyncKeys.key("orders", partition, upstream),
                        OffsetSyncKeys.value(upstream + 7));
                stored.add(new long[] {partition, upstream});
            }
            for (int p = 0; p < 3; p++) {
                assertEquals(history.newest("orders", p).orElse(null), newest.get("orders", p),
                        "head of partition " + p + " after step " + step);
                long committed = random.nextInt((int) next[p] + 100);
                assertEquals(fromStore.translate("orders", p, committed), withHeads.translate("orders", p, committed));
                assertEquals(fromStore.translate("orders", p, committed), fromMemory.translate("orders", p, committed));
            }
        }
    }

    private static void process(OffsetSyncHistoryUpdater updater, InMemorySyncHistory inMemory, Bytes key,
                                byte[] value) {
        updater.process(new Record<>(key, value, 0L));
        HistoryRecords.replay(key, value, inMemory);
    }

    @Test
    void recordsSextantDoesNotWriteAreCountedAndSkipped() {
        OffsetSyncHistoryUpdater updater = started();
        updater.process(new Record<>(OffsetSyncKeys.key("orders", 0, 100), OffsetSyncKeys.value(90), 0L));
        byte[] garbage = new byte[] {0x7f, 0x01, 0x02};
        updater.process(new Record<>(Bytes.wrap(garbage), garbage, 0L));                       // short key
        updater.process(new Record<>(Bytes.wrap(new byte[20]), OffsetSyncKeys.value(1), 0L));  // empty topic name
        updater.process(new Record<>(OffsetSyncKeys.key("orders", 0, 200), new byte[3], 0L));   // short value
        updater.process(new Record<>(OffsetSyncKeys.key("orders", 0, 300), OffsetSyncKeys.value(-5), 0L));
        updater.process(new Record<>(OffsetSyncKeys.key("orders", -1, 300), OffsetSyncKeys.value(5), 0L));
        updater.process(new Record<>(OffsetSyncKeys.key("orders", 0, -7), OffsetSyncKeys.value(5), 0L));
        updater.process(new Record<>(null, OffsetSyncKeys.value(5), 0L));
        updater.process(new Record<>(OffsetSyncKeys.key("orders", 0, 400), OffsetSyncKeys.value(390), 0L));

        OffsetSyncStore history = OffsetSyncStore.reader(store);
        assertEquals(new OffsetSyncPoint("orders", 0, 100, 90), history.oldest("orders", 0).orElseThrow());
        assertEquals(new OffsetSyncPoint("orders", 0, 100, 90),
                history.latestAtOrBelow("orders", 0, 399).orElseThrow());
        assertEquals(new OffsetSyncPoint("orders", 0, 400, 390), history.newest("orders", 0).orElseThrow());
        assertEquals(1, history.partitions().size(), "nothing stored for the bad records");
        assertEquals(7.0, registry.get("sextant.records.undecodable").counter().count());
    }

    @Test
    void aRestartSeedsTheHeadsFromWhatTheStoreKept() {
        store.init(context.getStateStoreContext(), store);
        OffsetSyncStore.writer(store).put(new OffsetSyncPoint("orders", 0, 100, 90));
        OffsetSyncStore.writer(store).put(new OffsetSyncPoint("orders", 0, 200, 190));
        OffsetSyncStore.writer(store).put(new OffsetSyncPoint("payments", 2, 50, 40));
        context.addStateStore(store);

        updater().init(context);

        assertEquals(new OffsetSyncPoint("orders", 0, 200, 190), newest.get("orders", 0));
        assertEquals(new OffsetSyncPoint("payments", 2, 50, 40), newest.get("payments", 2));
        assertEquals(null, newest.get("orders", 1));
    }
}
