package dev.sextant.history;

import dev.sextant.metrics.SextantMetrics;
import dev.sextant.source.SourceOffsets;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.translate.OffsetSyncPoint;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drops offset syncs nothing can need any more (see {@link SourceOffsets#pruneFloors}): every
 * {@code offset.syncs.prune.interval.ms} it asks the source for the floors without blocking, and once the answer is in
 * sends tombstones for the syncs below them. The global store forgets the syncs when it reads them, and compaction
 * removes them from the topic.
 */
final class HistoryPruning {

    private static final Logger log = LoggerFactory.getLogger(HistoryPruning.class);

    private final SourceOffsets source;
    private final OffsetSyncStore history;
    private final long intervalMs;
    private final SextantMetrics metrics;
    private final HistorySink sink;
    private long nextPrune;
    private CompletableFuture<Map<TopicPartition, Long>> floors;

    HistoryPruning(SourceOffsets source, OffsetSyncStore history, long intervalMs, SextantMetrics metrics,
                   HistorySink sink, long now) {
        this.source = source;
        this.history = history;
        this.intervalMs = intervalMs;
        this.metrics = metrics;
        this.sink = sink;
        this.nextPrune = now + intervalMs;
    }

    /** Asks for the floors when due; prunes once they are in. */
    void tick(long now) {
        if (floors == null && now >= nextPrune) {
            floors = source.pruneFloors(history.partitions());
        }
        if (floors == null || !floors.isDone()) {
            return;
        }
        CompletableFuture<Map<TopicPartition, Long>> done = floors;
        floors = null;
        nextPrune = now + intervalMs;
        if (done.isCompletedExceptionally()) {
            log.warn("Cannot read the source's log starts and group offsets; the offset-sync history is pruned "
                    + "next time", done.handle((v, e) -> e).join());
            return;
        }
        int pruned = 0;
        for (Map.Entry<TopicPartition, Long> floor : done.join().entrySet()) {
            TopicPartition tp = floor.getKey();
            for (OffsetSyncPoint sync : history.prunable(tp.topic(), tp.partition(), floor.getValue())) {
                sink.forget(sync.topic(), sync.partition(), sync.upstreamOffset(), now);
                pruned++;
            }
        }
        metrics.historyPruned(pruned);
        if (pruned > 0) {
            log.info("Pruned {} offset syncs below the source's log starts and the slowest groups", pruned);
        }
    }
}
