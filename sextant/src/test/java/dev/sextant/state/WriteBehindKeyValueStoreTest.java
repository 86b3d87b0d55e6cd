package dev.sextant.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Writes held until the commit, reads that see them meanwhile, one write below per key. */
class WriteBehindKeyValueStoreTest {

    private KeyValueStore<Bytes, byte[]> below;
    private WriteBehindKeyValueStore store;

    @BeforeEach
    void open() {
        below = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("positions"), Serdes.Bytes(),
                Serdes.ByteArray()).withLoggingDisabled().withCachingDisabled().build();
        store = new WriteBehindKeyValueStore(below);
        MockProcessorContext<Object, Object> context = new MockProcessorContext<>();
        store.init(context.getStateStoreContext(), store);
    }

    @AfterEach
    void close() {
        store.close();
    }

    private static Bytes key(String k) {
        return Bytes.wrap(k.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] value(String v) {
        return v.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> keys(KeyValueIterator<Bytes, byte[]> it) {
        List<String> out = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                out.add(new String(kv.key.get(), StandardCharsets.UTF_8) + "="
                        + new String(kv.value, StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    @Test
    void writesReachTheStoreBelowAtTheCommitOnlyButAreReadAtOnce() {
        store.put(key("a"), value("1"));
        store.put(key("a"), value("2"));
        assertArrayEquals(value("2"), store.get(key("a")));
        assertNull(below.get(key("a")), "not below before the commit");
        assertEquals(1, store.pendingWrites(), "two writes of one key are one pending write");

        store.flushCache(); // what Streams calls before it flushes its producer and commits the input offsets
        assertArrayEquals(value("2"), below.get(key("a")));
        assertEquals(0, store.pendingWrites());
        assertArrayEquals(value("2"), store.get(key("a")));
    }

    @Test
    void aDeleteHidesTheStoredValueAndRemovesItAtTheCommit() {
        store.put(key("a"), value("1"));
        store.flushCache();
        assertArrayEquals(value("1"), store.delete(key("a")), "delete returns the old value");
        assertNull(store.get(key("a")));
        assertArrayEquals(value("1"), below.get(key("a")), "still below until the commit");
        assertEquals(List.of(), keys(store.all()));
        store.flushCache();
        assertNull(below.get(key("a")));
        store.put(key("b"), null); // a null value is a delete, as in every Streams store
        store.flushCache();
        assertNull(below.get(key("b")));
    }

    @Test
    void rangeReadsMergePendingWritesOverTheStoreBelowInKeyOrder() {
        store.put(key("g1/a"), value("old"));
        store.put(key("g1/c"), value("3"));
        store.put(key("g2/a"), value("x"));
        store.flushCache();
        store.put(key("g1/a"), value("1"));
        store.put(key("g1/b"), value("2"));
        store.delete(key("g1/c"));
        store.put(key("g0/z"), value("0"));

        assertEquals(List.of("g1/a=1", "g1/b=2"), keys(store.prefixScan("g1/", Serdes.String().serializer())));
        assertEquals(List.of("g0/z=0", "g1/a=1", "g1/b=2", "g2/a=x"), keys(store.all()));
        assertEquals(List.of("g2/a=x", "g1/b=2", "g1/a=1", "g0/z=0"), keys(store.reverseAll()));
        assertEquals(List.of("g1/a=1", "g1/b=2"), keys(store.range(key("g1/"), key("g1/z"))));
        assertEquals(List.of("g1/b=2", "g1/a=1"), keys(store.reverseRange(key("g1/"), key("g1/z"))));

        store.flushCache();
        assertEquals(List.of("g0/z=0", "g1/a=1", "g1/b=2", "g2/a=x"), keys(below.all()), "the same, below");
    }

    @Test
    void putIfAbsentSeesPendingWrites() {
        store.put(key("a"), value("1"));
        assertArrayEquals(value("1"), store.putIfAbsent(key("a"), value("2")));
        assertNull(store.putIfAbsent(key("b"), value("3")));
        store.putAll(List.of(KeyValue.pair(key("c"), value("4"))));
        store.flushCache();
        assertEquals(List.of("a=1", "b=3", "c=4"), keys(below.all()));
    }

    @Test
    void clearingTheCacheDropsPendingWrites() {
        store.put(key("a"), value("1"));
        store.clearCache(); // Streams recycles a task's stores only after committing it
        assertNull(store.get(key("a")));
        store.flushCache();
        assertNull(below.get(key("a")));
    }
}
