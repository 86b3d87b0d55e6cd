package dev.sextant.topology;

import dev.sextant.state.HistoryRecords;
import dev.sextant.state.NewestSyncs;
import dev.sextant.state.OffsetSyncStore;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Maintains the global offset-sync history store from the history topic: a sync is stored, a tombstone deletes one,
 * a reset marker deletes the partition's whole history. Kafka Streams replays the topic through this processor when
 * it restores the store, so every instance ends up with the same history.
 *
 * <p>Its writer also keeps the instance's {@link NewestSyncs} (the head of every partition's history) exact: this is
 * the only writer of both, and the head is updated after the store.
 */
final class OffsetSyncHistoryUpdater implements Processor<Bytes, byte[], Void, Void> {

    private final NewestSyncs newest;
    private OffsetSyncStore history;

    OffsetSyncHistoryUpdater(NewestSyncs newest) {
        this.newest = newest;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        KeyValueStore<Bytes, byte[]> store = context.getStateStore(OffsetSyncStore.NAME);
        history = OffsetSyncStore.writer(store, newest);
        history.seedNewest();
    }

    @Override
    public void process(Record<Bytes, byte[]> record) {
        HistoryRecords.replay(record.key(), record.value(), history);
    }
}
