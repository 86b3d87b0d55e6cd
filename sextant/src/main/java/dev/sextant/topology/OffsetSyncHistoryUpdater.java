package dev.sextant.topology;

import dev.sextant.state.NewestSyncs;
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
 *
 * <p>It also keeps the instance's {@link NewestSyncs} (the head of every partition's history) exact: it is the only
 * writer of both, and updates the head after the store.
 */
final class OffsetSyncHistoryUpdater implements Processor<Bytes, byte[], Void, Void> {

    private final NewestSyncs newest;
    private OffsetSyncStore history;

    OffsetSyncHistoryUpdater(NewestSyncs newest) {
        this.newest = newest;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        KeyValueStore<Bytes, byte[]> store = context.getStateStore(SextantTopology.HISTORY_STORE);
        history = OffsetSyncStore.writer(store);
        // what a restart kept on disk is not replayed through process(): seed the heads from it
        history.forEachNewest(newest::stored);
    }

    @Override
    public void process(Record<Bytes, byte[]> record) {
        if (record.key() == null) {
            return;
        }
        OffsetSyncPoint point = OffsetSyncKeys.decode(record.key(), record.value());
        if (point.upstreamOffset() == OffsetSyncKeys.RESET) {
            history.deletePartition(point.topic(), point.partition());
            newest.replace(point.topic(), point.partition(), null);
        } else if (record.value() == null) {
            history.delete(point.topic(), point.partition(), point.upstreamOffset());
            if (newest.isNewest(point.topic(), point.partition(), point.upstreamOffset())) {
                newest.replace(point.topic(), point.partition(),
                        history.newest(point.topic(), point.partition()).orElse(null));
            }
        } else {
            history.put(point);
            newest.stored(point);
        }
    }
}
