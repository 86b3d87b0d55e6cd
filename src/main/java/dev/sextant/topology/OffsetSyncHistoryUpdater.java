package dev.sextant.topology;

import dev.sextant.state.OffsetSyncKeys;
import dev.sextant.state.OffsetSyncPoint;
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
 */
final class OffsetSyncHistoryUpdater implements Processor<Bytes, byte[], Void, Void> {

    private OffsetSyncStore history;

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        KeyValueStore<Bytes, byte[]> store = context.getStateStore(SextantTopology.HISTORY_STORE);
        history = OffsetSyncStore.writer(store);
    }

    @Override
    public void process(Record<Bytes, byte[]> record) {
        if (record.key() == null) {
            return;
        }
        OffsetSyncPoint point = OffsetSyncKeys.decode(record.key(), record.value());
        if (point.upstreamOffset() == OffsetSyncKeys.RESET) {
            history.deletePartition(point.topic(), point.partition());
        } else if (record.value() == null) {
            history.delete(point.topic(), point.partition(), point.upstreamOffset());
        } else {
            history.put(point);
        }
    }
}
