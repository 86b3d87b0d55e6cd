package dev.sextant.history;

import dev.sextant.metrics.SextantMetrics;
import dev.sextant.source.SourceOffsets;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.translate.OffsetSyncPoint;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks the source topic ids of the topics with history, without blocking: every {@link #INTERVAL_MS} all of them,
 * and at every tick those with syncs stored since their id was last confirmed. A new id (the topic was recreated,
 * however long the new log) forgets the history the old incarnation left ({@link SourceIncarnations}): reset markers
 * for every partition, which also make the sync engines look again at what they applied through it, then the syncs
 * that may be the new incarnation's, stored again.
 */
final class IncarnationCheck {

    private static final Logger log = LoggerFactory.getLogger(IncarnationCheck.class);
    /** How often the source topic ids of every topic with history are checked (one metadata request). */
    static final long INTERVAL_MS = 5_000;

    private final SourceOffsets source;
    private final OffsetSyncStore history;
    private final SentSyncs sent;
    private final SextantMetrics metrics;
    private final HistorySink sink;
    private final SourceIncarnations incarnations;
    private CompletableFuture<Map<String, Uuid>> idCheck;
    private long nextFullCheck;

    /** @param sent the newest sync the intake sent per partition, which a recreation forgets */
    IncarnationCheck(SourceOffsets source, OffsetSyncStore history, SentSyncs sent, SextantMetrics metrics,
                     HistorySink sink) {
        this.sent = sent;
        this.source = source;
        this.history = history;
        this.metrics = metrics;
        this.sink = sink;
        this.incarnations = new SourceIncarnations(history::incarnation);
        history.partitions().forEach(tp -> incarnations.hasHistory(tp.topic()));
    }

    /** A sync was stored. */
    void stored(OffsetSyncPoint sync) {
        incarnations.stored(sync);
    }

    /** A sync was skipped as copied again: maybe the first of a topic recreated and mirrored from its start. */
    void skipped(OffsetSyncPoint sync) {
        incarnations.skipped(sync);
    }

    /** True when the incarnation the topic's history describes is recorded. */
    boolean knows(String topic) {
        return incarnations.knows(topic);
    }

    /** The topic's history belongs to the incarnation {@code id}: recorded now. */
    void seen(String topic, Uuid id, long timestamp) {
        incarnations.seen(topic, id);
        sink.incarnation(topic, id, timestamp);
    }

    /** Asks the source for the topic ids without blocking, and acts on the answer once it is in. */
    void tick(long now) {
        if (idCheck == null) {
            boolean all = now >= nextFullCheck;
            if (all) {
                nextFullCheck = now + INTERVAL_MS;
            }
            Set<String> topics = incarnations.checkSent(all);
            if (!topics.isEmpty()) {
                idCheck = source.topicIds(topics);
            }
        }
        if (idCheck == null || !idCheck.isDone()) {
            return;
        }
        CompletableFuture<Map<String, Uuid>> done = idCheck;
        idCheck = null;
        if (done.isCompletedExceptionally()) {
            incarnations.checkFailed();
            log.debug("Cannot read the source topic ids; checked again in {} ms", INTERVAL_MS,
                    done.handle((v, e) -> e).join());
            return;
        }
        for (SourceIncarnations.Change change : incarnations.answered(done.join())) {
            if (change.recreated()) {
                recreated(change, now);
            }
            sink.incarnation(change.topic(), change.to(), now);
        }
    }

    /**
     * The source topic was recreated: every partition's history is forgotten (reset markers), then the syncs that may
     * be the new incarnation's are stored again.
     */
    private void recreated(SourceIncarnations.Change change, long now) {
        Set<Integer> partitions = sent.forget(change.topic(),
                change.keep().stream().map(OffsetSyncPoint::partition).toList(), now);
        for (OffsetSyncPoint sync : change.keep()) {
            sent.sent(sync);
            sink.sync(sync, now);
        }
        metrics.offsetSyncHistoryResets(partitions.size());
        log.warn("Source topic {} was recreated (topic id {} is now {}): the offset-sync history of its {} "
                + "partition(s) is forgotten but for the {} sync(s) read since the last check; commits on the new "
                + "incarnation translate through its own syncs only", change.topic(), change.from(), change.to(),
                partitions.size(), change.keep().size());
    }
}
