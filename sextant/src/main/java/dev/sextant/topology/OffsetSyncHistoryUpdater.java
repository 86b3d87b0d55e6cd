package dev.sextant.topology;

import dev.sextant.apply.DestinationView;
import dev.sextant.decode.UndecodableRecordException;
import dev.sextant.history.OffsetSyncCatchUp;
import dev.sextant.state.HistoryRecords;
import dev.sextant.state.NewestSyncs;
import dev.sextant.state.OffsetSyncKeys;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.sync.SyncSettings;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maintains the global offset-sync history store from the history topic: a sync is stored, a tombstone deletes one,
 * a reset marker deletes the partition's whole history. Kafka Streams replays the topic through this processor when
 * it restores the store, so every instance ends up with the same history.
 *
 * <p>A record that is not one Sextant writes is counted and skipped: the global thread must survive anything the
 * topic holds, since it replays the topic on every restore.
 *
 * <p>The destination cluster the history pins is handed to the instance's {@link DestinationView} as it is read,
 * so the sync holds its writes to another cluster without reading the store at every flush.
 *
 * <p>Its writer also keeps the instance's {@link NewestSyncs} (the head of every partition's history) exact: this is
 * the only writer of both, and the head is updated after the store.
 */
final class OffsetSyncHistoryUpdater implements Processor<Bytes, byte[], Void, Void> {

    private static final Logger log = LoggerFactory.getLogger(OffsetSyncHistoryUpdater.class);

    private final NewestSyncs newest;
    private final SyncSettings settings;
    private final UndecodableRecords undecodable;
    private final OffsetSyncCatchUp catchUp;
    private final DestinationView view;
    private ProcessorContext<Void, Void> context;
    private OffsetSyncStore history;

    /** @param view told the destination cluster the history pins, at the start and whenever a pin is read */
    OffsetSyncHistoryUpdater(NewestSyncs newest, SyncSettings settings, UndecodableRecords undecodable,
                             OffsetSyncCatchUp catchUp, DestinationView view) {
        this.view = view;
        this.newest = newest;
        this.catchUp = catchUp;
        this.settings = settings;
        this.undecodable = undecodable;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        this.context = context;
        KeyValueStore<Bytes, byte[]> store = context.getStateStore(OffsetSyncStore.NAME);
        history = OffsetSyncStore.writer(store, newest);
        history.seedNewest();
        history.destinationCluster().ifPresent(view::pin);
    }

    @Override
    public void process(Record<Bytes, byte[]> record) {
        if (catchUp.waiting()) {
            context.recordMetadata().ifPresent(m -> catchUp.read(m.partition(), m.offset()));
        }
        try {
            HistoryRecords.replay(record.key(), record.value(), history);
            if (record.key() != null && OffsetSyncKeys.upstreamOf(record.key()) == OffsetSyncKeys.DESTINATION_CLUSTER) {
                history.destinationCluster().ifPresent(view::pin);
            }
        } catch (IllegalArgumentException e) {
            // A global store cannot forward: counted, and logged as often as a dead-letter record would be written.
            // Throwing would stop the global thread, and the client with it, on every restore.
            String where = TopologyNames.where(context.recordMetadata());
            undecodable.report(settings.historyTopic(), where,
                            UndecodableRecordException.malformed(null, e.getMessage(), null), null)
                    .ifPresent(dead -> log.warn("Skipped a record of the offset-sync history: {}", dead.detail()));
        }
    }
}
