package dev.sextant.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sextant.domain.MirrorRewind;
import dev.sextant.translate.OffsetSyncPoint;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
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

    @Test
    void aRewindRecordIsKeptPerPartitionCountedForTheTasksAndForgottenWithTheHistory() {
        NewestSyncs newest = new NewestSyncs();
        var store = InMemoryStores.bytesStore("rewinds");
        OffsetSyncStore writer = OffsetSyncStore.writer(store, newest);
        OffsetSyncStore reader = OffsetSyncStore.reader(store, newest);
        for (long u = 0; u <= 1_400; u += 100) {
            writer.put(new OffsetSyncPoint("orders", 0, u, u));
        }
        HistoryRecords.replay(OffsetSyncKeys.key("orders", 0, 1_400), null, writer); // contradicted: forgotten
        HistoryRecords.replay(OffsetSyncKeys.rewindKey("orders", 0),
                OffsetSyncKeys.rewindValue(new MirrorRewind(1_500, 1_350)), writer);
        HistoryRecords.replay(OffsetSyncKeys.key("orders", 0, 1_500), OffsetSyncKeys.value(1_350), writer);

        assertEquals(new MirrorRewind(1_500, 1_350), reader.rewind("orders", 0));
        assertEquals(MirrorRewind.NONE, reader.rewind("orders", 1));
        assertEquals(15, reader.size(), "the rewind is no sync");
        assertEquals(new OffsetSyncPoint("orders", 0, 1_500, 1_350), reader.newest("orders", 0).orElseThrow());
        assertEquals(Map.of(new TopicPartition("orders", 0), 1_350L),
                reader.forgottenSince(0), "the tasks plan again what lies at or past 1,350");

        // went back again, further: the lower offset is the one kept for a task that looks once after both
        writer.rewound("orders", 0, new MirrorRewind(1_600, 1_200));
        assertEquals(Map.of(new TopicPartition("orders", 0), 1_200L),
                reader.forgottenSince(0));
        assertEquals(2, reader.forgets());

        writer.deletePartition("orders", 0); // the source topic recreated: the rewind of its old log goes too
        assertEquals(MirrorRewind.NONE, reader.rewind("orders", 0));
        assertEquals(Map.of(new TopicPartition("orders", 0), -1L), reader.forgottenSince(2));

        assertThrows(IllegalArgumentException.class, () -> HistoryRecords.replay(OffsetSyncKeys.rewindKey("orders",
                0), new byte[8], writer), "not two offsets");
        assertThrows(IllegalArgumentException.class, () -> HistoryRecords.replay(OffsetSyncKeys.rewindKey("orders",
                0), OffsetSyncKeys.rewindValue(new MirrorRewind(-1, 5)), writer), "a negative offset");
    }

    /**
     * A task's reader remembers the syncs around the offsets it looked up below the head. Whatever changes the history
     * afterwards (a sync stored between two it remembers, a deletion, a reset, new heads), its answers stay the ones
     * a reader without memory gives.
     */
    @Test
    void aReaderThatRemembersIntervalsAnswersAsTheStoreDoesWhateverChanges() {
        NewestSyncs newest = new NewestSyncs();
        var store = InMemoryStores.bytesStore("remembered");
        OffsetSyncStore writer = OffsetSyncStore.writer(store, newest);
        OffsetSyncStore plain = OffsetSyncStore.reader(store);
        // one reader per offset, each remembering the interval around its own offset when the history changes
        Map<Long, OffsetSyncStore> remembering = new TreeMap<>();
        for (long c = 0; c <= 1200; c += 10) {
            remembering.put(c, OffsetSyncStore.reader(store, newest));
        }
        for (long u = 0; u <= 1000; u += 100) {
            writer.put(new OffsetSyncPoint("orders", 0, u, u + 7));
        }
        List<Runnable> changes = List.of(
                () -> writer.put(new OffsetSyncPoint("orders", 0, 450, 457)), // between two remembered neighbours
                () -> writer.delete("orders", 0, 500),
                () -> writer.delete("orders", 0, 400),
                () -> writer.put(new OffsetSyncPoint("orders", 0, 1100, 1107)), // a new head
                () -> writer.delete("orders", 0, 1100), // the head itself
                () -> writer.put(new OffsetSyncPoint("orders", 0, 420, 427)),
                () -> writer.deletePartition("orders", 0),
                () -> writer.put(new OffsetSyncPoint("orders", 0, 300, 1)), // the topic's next incarnation
                () -> writer.put(new OffsetSyncPoint("orders", 0, 600, 301)));
        assertSameAnswers(remembering, plain);
        for (Runnable change : changes) {
            change.run();
            assertSameAnswers(remembering, plain);
        }
    }

    private static void assertSameAnswers(Map<Long, OffsetSyncStore> remembering, OffsetSyncStore plain) {
        remembering.forEach((c, reader) -> {
            assertEquals(plain.latestAtOrBelow("orders", 0, c), reader.latestAtOrBelow("orders", 0, c),
                    "at or below " + c);
            assertEquals(plain.earliestAbove("orders", 0, c), reader.earliestAbove("orders", 0, c), "above " + c);
            for (long near = Math.max(0, c - 60); near <= c + 60; near += 30) { // answered from the same memory
                assertEquals(plain.latestAtOrBelow("orders", 0, near), reader.latestAtOrBelow("orders", 0, near),
                        "at or below " + near + " after " + c);
                assertEquals(plain.earliestAbove("orders", 0, near), reader.earliestAbove("orders", 0, near),
                        "above " + near + " after " + c);
            }
            reader.latestAtOrBelow("orders", 0, c); // remember c's interval again for the next change
            reader.earliestAbove("orders", 0, c);
        });
    }

    /** Groups committing in several intervals of a partition, in turn: each interval is looked up in the store once. */
    @Test
    void aReaderAnswersLookupsInTheIntervalsItRemembersWithoutOpeningAnIterator() {
        NewestSyncs newest = new NewestSyncs();
        var store = InMemoryStores.bytesStore("seeks");
        OffsetSyncStore writer = OffsetSyncStore.writer(store, newest);
        for (long u = 0; u <= 1000; u += 100) {
            writer.put(new OffsetSyncPoint("orders", 0, u, u + 7));
        }
        int[] iterators = {0};
        ReadOnlyKeyValueStore<Bytes, byte[]> counted = new ReadOnlyKeyValueStore<>() {
            @Override
            public byte[] get(Bytes key) {
                return store.get(key);
            }

            @Override
            public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
                iterators[0]++;
                return store.range(from, to);
            }

            @Override
            public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
                iterators[0]++;
                return store.reverseRange(from, to);
            }

            @Override
            public KeyValueIterator<Bytes, byte[]> all() {
                iterators[0]++;
                return store.all();
            }

            @Override
            public long approximateNumEntries() {
                return store.approximateNumEntries();
            }
        };
        OffsetSyncStore reader = OffsetSyncStore.reader(counted, newest);
        long[] commits = {150, 350, 550, 120, 380};
        for (long c : commits) {
            reader.latestAtOrBelow("orders", 0, c);
            reader.earliestAbove("orders", 0, c);
        }
        int first = iterators[0];
        for (int round = 0; round < 3; round++) {
            for (long c : commits) {
                assertEquals(Optional.of(new OffsetSyncPoint("orders", 0, c / 100 * 100, c / 100 * 100 + 7)),
                        reader.latestAtOrBelow("orders", 0, c));
                assertEquals(Optional.of(new OffsetSyncPoint("orders", 0, c / 100 * 100 + 100, c / 100 * 100 + 107)),
                        reader.earliestAbove("orders", 0, c));
            }
        }
        assertEquals(first, iterators[0], "three intervals in turn, each sought once");
    }
}
