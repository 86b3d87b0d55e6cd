package dev.sextant.state;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/** Initialised in-memory stores for unit tests of the store wrappers. */
public final class InMemoryStores {

    private InMemoryStores() {
    }

    public static KeyValueStore<Bytes, byte[]> bytesStore(String name) {
        KeyValueStore<Bytes, byte[]> store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name),
                Serdes.Bytes(), Serdes.ByteArray()).withLoggingDisabled().build();
        MockProcessorContext<Object, Object> context = new MockProcessorContext<>();
        store.init(context.getStateStoreContext(), store);
        return store;
    }

    /** A store keyed by string, as the group registry's ({@link GroupStore}). */
    public static KeyValueStore<String, byte[]> stringStore(String name) {
        KeyValueStore<String, byte[]> store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name),
                Serdes.String(), Serdes.ByteArray()).withLoggingDisabled().build();
        MockProcessorContext<Object, Object> context = new MockProcessorContext<>();
        store.init(context.getStateStoreContext(), store);
        return store;
    }
}
