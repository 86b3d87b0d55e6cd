package dev.sextant.topology;

import dev.sextant.decode.OffsetSync;
import dev.sextant.decode.OffsetSyncDecoder;
import dev.sextant.decode.UndecodableRecordException;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.deadletter.Reason;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.state.OffsetSyncKeys;
import dev.sextant.state.OffsetSyncPoint;
import dev.sextant.state.OffsetSyncStore;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Copies every offset sync MirrorMaker 2 emits into Sextant's own history topic. MirrorMaker 2's topic is compacted
 * by source partition, so it only ever holds the latest sync of each; the history topic is keyed by (partition,
 * upstream offset) and keeps them all, and a global store reads it back on every instance.
 *
 * <p>When the upstream offsets of a partition go backwards (the source topic was recreated, or MirrorMaker 2
 * re-mirrors from an earlier point) the old history no longer describes the log: a reset marker is written first, and
 * the global store forgets the partition's history when it reads it.
 */
final class OffsetSyncHistoryWriter implements Processor<byte[], byte[], Object, Object> {

    private final SyncSettings settings;
    private final SextantMetrics metrics;
    private final Map<TopicPartition, Long> lastUpstream = new HashMap<>();
    private ProcessorContext<Object, Object> context;
    private OffsetSyncStore history;

    OffsetSyncHistoryWriter(SyncSettings settings, SextantMetrics metrics) {
        this.settings = settings;
        this.metrics = metrics;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        ReadOnlyKeyValueStore<Bytes, byte[]> store = context.getStateStore(SextantTopology.HISTORY_STORE);
        this.history = OffsetSyncStore.reader(store);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        OffsetSync sync;
        try {
            sync = OffsetSyncDecoder.decode(record.key(), record.value());
        } catch (UndecodableRecordException e) {
            metrics.undecodable(settings.offsetSyncsTopic());
            String where = context.recordMetadata().map(SextantTopology::where).orElse("?");
            context.forward(new Record<>(null, new DeadLetterRecord(null, null, Reason.UNDECODABLE, List.of(),
                    "offset sync at " + where + ": " + e.getMessage(), null,
                    settings.clock().millis(), settings.instance()), record.timestamp()), SextantTopology.SYNC_DLQ_SINK);
            return;
        }
        if (!settings.includeTopic().test(sync.topic())) {
            return;
        }
        TopicPartition tp = new TopicPartition(sync.topic(), sync.partition());
        Long last = lastUpstream.computeIfAbsent(tp, p -> history.newest(p.topic(), p.partition())
                .map(OffsetSyncPoint::upstreamOffset).orElse(null));
        if (last != null && sync.upstreamOffset() < last) {
            context.forward(new Record<Object, Object>(OffsetSyncKeys.resetMarker(sync.topic(), sync.partition()),
                    new byte[0], record.timestamp()), SextantTopology.HISTORY_SINK);
        }
        lastUpstream.put(tp, sync.upstreamOffset());
        context.forward(new Record<Object, Object>(
                OffsetSyncKeys.key(sync.topic(), sync.partition(), sync.upstreamOffset()),
                OffsetSyncKeys.value(sync.downstreamOffset()), record.timestamp()), SextantTopology.HISTORY_SINK);
    }
}
