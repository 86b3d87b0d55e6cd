package dev.sextant.state;

import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * Builds a {@link WriteBehindKeyValueStore} over the store another builder makes (RocksDB, changelogged): the
 * changelog and store settings are that builder's. It never adds Streams' record cache below: the write-behind
 * map does that job.
 */
public final class WriteBehindStoreBuilder implements StoreBuilder<KeyValueStore<Bytes, byte[]>> {

    private final StoreBuilder<KeyValueStore<Bytes, byte[]>> below;

    public WriteBehindStoreBuilder(StoreBuilder<KeyValueStore<Bytes, byte[]>> below) {
        this.below = below.withCachingDisabled();
    }

    @Override
    public StoreBuilder<KeyValueStore<Bytes, byte[]>> withCachingEnabled() {
        return this; // the write-behind map is the cache
    }

    @Override
    public StoreBuilder<KeyValueStore<Bytes, byte[]>> withCachingDisabled() {
        return this;
    }

    @Override
    public StoreBuilder<KeyValueStore<Bytes, byte[]>> withLoggingEnabled(Map<String, String> config) {
        below.withLoggingEnabled(config);
        return this;
    }

    @Override
    public StoreBuilder<KeyValueStore<Bytes, byte[]>> withLoggingDisabled() {
        below.withLoggingDisabled();
        return this;
    }

    @Override
    public KeyValueStore<Bytes, byte[]> build() {
        return new WriteBehindKeyValueStore(below.build());
    }

    @Override
    public Map<String, String> logConfig() {
        return below.logConfig();
    }

    @Override
    public boolean loggingEnabled() {
        return below.loggingEnabled();
    }

    @Override
    public String name() {
        return below.name();
    }
}
