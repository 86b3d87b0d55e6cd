package dev.sextant.topology;

import dev.sextant.decode.OffsetSync;
import dev.sextant.decode.OffsetSyncDecoder;
import dev.sextant.decode.UndecodableRecordException;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.source.SourceOffsets;
import dev.sextant.state.OffsetSyncKeys;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.translate.OffsetSyncPoint;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.PunctuationType;
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

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(OffsetSyncHistoryWriter.class);
    private static final long PRUNE_TICK_MS = 1_000;

    private final SyncSettings settings;
    private final SourceOffsets source;
    private final SextantMetrics metrics;
    private final UndecodableRecords undecodableRecords;
    private long nextPrune;
    private CompletableFuture<Map<TopicPartition, Long>> floors;
    private final Map<TopicPartition, OffsetSyncPoint> lastSync = new HashMap<>();
    private ProcessorContext<Object, Object> context;
    private OffsetSyncStore history;

    OffsetSyncHistoryWriter(SyncSettings settings, SourceOffsets source, SextantMetrics metrics,
                            UndecodableRecords undecodableRecords) {
        this.undecodableRecords = undecodableRecords;
        this.settings = settings;
        this.source = source;
        this.metrics = metrics;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        ReadOnlyKeyValueStore<Bytes, byte[]> store = context.getStateStore(OffsetSyncStore.NAME);
        this.history = OffsetSyncStore.reader(store);
        this.nextPrune = settings.clock().millis() + settings.pruneIntervalMs();
        context.schedule(Duration.ofMillis(PRUNE_TICK_MS), PunctuationType.WALL_CLOCK_TIME, ts -> prune());
    }

    /**
     * Drops history nothing can need any more (see {@link SourceOffsets#pruneFloors}): asks the source for the
     * floors without blocking, and writes tombstones to the history topic once the answer is in. The global store
     * forgets the syncs when it reads them, and compaction removes them from the topic.
     */
    private void prune() {
        long now = settings.clock().millis();
        if (floors == null && now >= nextPrune) {
            floors = source.pruneFloors(history.partitions());
        }
        if (floors == null || !floors.isDone()) {
            return;
        }
        CompletableFuture<Map<TopicPartition, Long>> done = floors;
        floors = null;
        nextPrune = now + settings.pruneIntervalMs();
        if (done.isCompletedExceptionally()) {
            log.warn("Cannot read the source's log starts and group offsets; the offset-sync history is pruned "
                    + "next time", done.handle((v, e) -> e).join());
            return;
        }
        int pruned = 0;
        for (Map.Entry<TopicPartition, Long> floor : done.join().entrySet()) {
            TopicPartition tp = floor.getKey();
            for (OffsetSyncPoint sync : history.prunable(tp.topic(), tp.partition(), floor.getValue())) {
                context.forward(new Record<Object, Object>(
                        OffsetSyncKeys.key(sync.topic(), sync.partition(), sync.upstreamOffset()), null, now),
                        SextantTopology.HISTORY_SINK);
                pruned++;
            }
        }
        metrics.historyPruned(pruned);
        if (pruned > 0) {
            log.info("Pruned {} offset syncs below the source's log starts and the slowest groups", pruned);
        }
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        OffsetSync sync;
        try {
            sync = OffsetSyncDecoder.decode(record.key(), record.value());
        } catch (UndecodableRecordException e) {
            String where = context.recordMetadata().map(SextantTopology::where).orElse("?");
            undecodableRecords.report(settings.offsetSyncsTopic(), where, e, null)
                    .ifPresent(dead -> context.forward(new Record<>(null, dead, record.timestamp()),
                            SextantTopology.SYNC_DLQ_SINK));
            return;
        }
        if (!settings.includeTopic().test(sync.topic())) {
            return;
        }
        TopicPartition tp = new TopicPartition(sync.topic(), sync.partition());
        OffsetSyncPoint last = lastSync.computeIfAbsent(tp, p -> history.newest(p.topic(), p.partition()).orElse(null));
        if (last != null && sync.upstreamOffset() < last.upstreamOffset()) {
            if (sync.downstreamOffset() < last.downstreamOffset()) {
                // Both offsets behind the newest: a sync read again after a restart (the input offset had not been
                // committed yet). It is already in the history; it must not look like a new log.
                return;
            }
            // Upstream behind, downstream ahead: a new source log mirrored after the old one (topic recreated,
            // or MirrorMaker 2 re-mirroring from an earlier point). The old history no longer describes it.
            context.forward(new Record<Object, Object>(OffsetSyncKeys.resetMarker(sync.topic(), sync.partition()),
                    new byte[0], record.timestamp()), SextantTopology.HISTORY_SINK);
        }
        lastSync.put(tp, new OffsetSyncPoint(sync.topic(), sync.partition(), sync.upstreamOffset(),
                sync.downstreamOffset()));
        context.forward(new Record<Object, Object>(
                OffsetSyncKeys.key(sync.topic(), sync.partition(), sync.upstreamOffset()),
                OffsetSyncKeys.value(sync.downstreamOffset()), record.timestamp()), SextantTopology.HISTORY_SINK);
    }
}
