package dev.sextant.history;

import dev.sextant.apply.DestinationView;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.deadletter.DeadLetterThrottle;
import dev.sextant.decode.OffsetSync;
import dev.sextant.decode.OffsetSyncDecoder;
import dev.sextant.decode.UndecodableRecordException;
import dev.sextant.domain.MirrorRewind;
import dev.sextant.domain.Reason;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.source.SourceOffsets;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.state.SyncHolds;
import dev.sextant.translate.IntervalEvidence;
import dev.sextant.translate.OffsetSyncPoint;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The offset-sync intake, the one entry point of this package for the Kafka Streams processor that reads MirrorMaker
 * 2's offset-syncs topic: every sync MirrorMaker 2 emits goes in ({@link #record}), and what Sextant's history topic
 * should hold comes out through a {@link HistorySink}. MirrorMaker 2's topic is compacted by source partition, so it
 * only ever holds the latest sync of each; the history topic is keyed by (partition, upstream offset) and keeps them
 * all.
 *
 * <p>Offset syncs are untrusted input: each passes {@link OffsetSyncGate} (it holds a sync until the log ends show it
 * describes the two logs) before it is written; a refused one is an {@code INVALID_OFFSET_SYNC} dead letter. When the
 * source topic was recreated (a sync below the partition's newest one while the source log no longer reaches that
 * newest one) the old history no longer describes the log: a reset marker is written first, and the global store
 * forgets the partition's history when it reads it. A sync that moves the downstream back (the mirror was truncated
 * or recreated) is written after tombstones for the older syncs it contradicts and a rewind marker (where the mirror
 * went back: the sync engines plan again what they wrote past it), and a mirror topic with a new id
 * forgets the history ({@link MirrorIncarnationCheck}); one of records MirrorMaker 2 copied
 * again after a restart is skipped and counted (see {@link OffsetSyncCheck}). Every {@link #tick} prunes what nothing
 * can need any more ({@link HistoryPruning}) and checks the source and mirror topic ids ({@link IncarnationCheck},
 * {@link MirrorIncarnationCheck}).
 *
 * <p>Nothing here knows Kafka Streams; every call comes from the processor's stream thread.
 */
public final class OffsetSyncIntake {

    private static final Logger log = LoggerFactory.getLogger(OffsetSyncIntake.class);

    /**
     * What the intake takes from the configuration.
     *
     * @param destinationTopic the mirror topic of a source topic
     * @param includeTopic     the source topics synced ({@code topics.include} / {@code topics.exclude})
     * @param pruneIntervalMs  {@code offset.syncs.prune.interval.ms}
     * @param instance         how this instance names itself in dead-letter records
     */
    public record Settings(Function<String, String> destinationTopic, Predicate<String> includeTopic,
                           long pruneIntervalMs, String instance, Clock clock) {
    }

    private final Settings settings;
    private final SextantMetrics metrics;
    private final OffsetSyncCatchUp catchUp;
    private final OffsetSyncStore history;
    private final HistorySink sink;
    private final OffsetSyncGate gate;
    private final IncarnationCheck incarnations;
    private final MirrorIncarnationCheck mirrors;
    private final DestinationClusterCheck cluster;
    private final HistoryPruning pruning;
    /** The newest sync this intake sent per partition: the global store may not have read it back yet. */
    private final SentSyncs sent;
    private final DeadLetterThrottle rejections = new DeadLetterThrottle();

    /**
     * @param history the global store's history, as far as it has read the history topic
     * @param holds   the syncs held by the gate, in a store that survives a restart
     */
    public OffsetSyncIntake(Settings settings, SourceOffsets source, DestinationView destination,
                            SextantMetrics metrics, OffsetSyncCatchUp catchUp, OffsetSyncStore history,
                            SyncHolds holds, HistorySink sink) {
        this(settings, source, destination, metrics, catchUp, history, holds, sink, IntervalEvidence.NONE);
    }

    /**
     * @param evidence reads the records at a sync on both clusters: a history without a recorded mirror id is checked
     *                 with them ({@link MirrorIncarnationCheck})
     */
    public OffsetSyncIntake(Settings settings, SourceOffsets source, DestinationView destination,
                            SextantMetrics metrics, OffsetSyncCatchUp catchUp, OffsetSyncStore history,
                            SyncHolds holds, HistorySink sink, IntervalEvidence evidence) {
        this.settings = settings;
        this.metrics = metrics;
        this.catchUp = catchUp;
        this.history = history;
        this.sink = sink;
        this.sent = new SentSyncs(history, sink);
        this.cluster = new DestinationClusterCheck(history, destination, sink, settings.instance());
        this.mirrors = new MirrorIncarnationCheck(history, destination, settings.destinationTopic(), sent,
                metrics, sink, settings.instance(), evidence);
        this.gate = new OffsetSyncGate(holds, source, destination, settings.destinationTopic(), this::newest,
                ids -> mirrors.seen(ids, settings.clock().millis()), settings.clock());
        this.incarnations = new IncarnationCheck(source, history, sent, metrics, sink);
        this.pruning = new HistoryPruning(source, history, settings.pruneIntervalMs(), metrics, sink,
                settings.clock().millis());
    }

    private OffsetSyncPoint newest(TopicPartition tp) {
        return sent.newest(tp);
    }

    /**
     * A record of MirrorMaker 2's offset-syncs topic, read at {@code offset} of its partition {@code at}.
     *
     * @throws UndecodableRecordException when it is not an offset sync (nothing is taken in)
     */
    public void record(byte[] key, byte[] value, long timestamp, TopicPartition at, long offset)
            throws UndecodableRecordException {
        if (catchUp.waiting() && catchUp.awaits(at, offset)) {
            sink.commitSoon();
        }
        OffsetSync sync = OffsetSyncDecoder.decode(key, value);
        if (settings.includeTopic().test(sync.topic())) {
            gate.offer(sync, timestamp, this::decided);
        }
    }

    /** Often (a tenth of a second): syncs held for the log ends are decided once fetched ends cover them. */
    public void decideHeld() {
        gate.drain(this::decided);
    }

    /** Every second: prunes the history when due, and checks the source and mirror topic ids; none blocks. */
    public void tick() {
        long now = settings.clock().millis();
        pruning.tick(now);
        incarnations.tick(now);
        mirrors.tick(now);
        cluster.tick(now);
    }

    private void decided(OffsetSync sync, long timestamp, OffsetSyncCheck.Result result) {
        TopicPartition tp = new TopicPartition(sync.topic(), sync.partition());
        switch (result.verdict()) {
            case ALREADY_KNOWN, WAIT_FOR_LOG_ENDS -> {
                // read again after a restart: already in the history (a waiting sync is never handed on)
            }
            case REMIRRORED -> {
                metrics.offsetSyncRemirrored();
                incarnations.skipped(new OffsetSyncPoint(sync.topic(), sync.partition(), sync.upstreamOffset(),
                        sync.downstreamOffset()));
            }
            case REWIND_AND_ACCEPT -> {
                forgetContradicted(tp, sync, timestamp, result.reason());
                store(tp, sync, timestamp);
            }
            case REJECT -> rejected(sync, timestamp, result.reason());
            case RESET_AND_ACCEPT -> {
                log.info("Offset-sync history of {} reset: {}", tp, result.reason());
                metrics.offsetSyncHistoryResets(1);
                sink.reset(sync.topic(), sync.partition(), timestamp);
                store(tp, sync, timestamp);
            }
            case ACCEPT -> store(tp, sync, timestamp);
        }
    }

    /**
     * Tombstones for the syncs below {@code sync} that it contradicts, from the store and from the newest sync this
     * intake sent (the global store may not have read it back yet), then the rewind marker: after the tombstones, so
     * a sync engine that plans on the marker translates through what is left.
     */
    private void forgetContradicted(TopicPartition tp, OffsetSync sync, long timestamp, String reason) {
        Map<Long, OffsetSyncPoint> doomed = new TreeMap<>();
        history.contradictedBy(tp.topic(), tp.partition(), sync.upstreamOffset(), sync.downstreamOffset())
                .forEach(s -> doomed.put(s.upstreamOffset(), s));
        OffsetSyncPoint last = sent.lastSent(tp);
        if (last != null && last.upstreamOffset() < sync.upstreamOffset()
                && last.downstreamOffset() >= sync.downstreamOffset()) {
            doomed.put(last.upstreamOffset(), last);
        }
        for (long upstream : doomed.keySet()) {
            sink.forget(tp.topic(), tp.partition(), upstream, timestamp);
        }
        sink.rewound(tp.topic(), tp.partition(), new MirrorRewind(sync.upstreamOffset(), sync.downstreamOffset()),
                timestamp);
        metrics.offsetSyncsContradicted(doomed.size());
        log.warn("Offset-sync history of {}: {}; forgot the {} syncs it contradicts", tp, reason, doomed.size());
    }

    private void store(TopicPartition tp, OffsetSync sync, long timestamp) {
        OffsetSyncPoint point = new OffsetSyncPoint(sync.topic(), sync.partition(), sync.upstreamOffset(),
                sync.downstreamOffset());
        sent.sent(point);
        incarnations.stored(point);
        if (!incarnations.knows(sync.topic())) {
            // the topic's first sync here: its history belongs to the incarnation the gate's fetch saw, recorded now
            // rather than at the next check, which might already see a recreated topic's new id
            gate.topicId(sync.topic()).ifPresent(id -> incarnations.seen(sync.topic(), id, timestamp));
        }
        sink.sync(point, timestamp);
    }

    /** Counted always; dead-lettered at most once a minute per source partition (anyone may flood the topic). */
    private void rejected(OffsetSync sync, long timestamp, String reason) {
        metrics.offsetSyncRejected();
        long now = settings.clock().millis();
        String partition = sync.topic() + "-" + sync.partition();
        rejections.admit(partition, now).ifPresent(more -> sink.deadLetter(
                new DeadLetterRecord(null, null, Reason.INVALID_OFFSET_SYNC,
                        List.of(new DeadLetterRecord.PartitionDetail(sync.topic(), sync.partition(),
                                sync.upstreamOffset(), sync.downstreamOffset(), null)),
                        "offset sync " + partition + " upstream " + sync.upstreamOffset() + " -> downstream "
                                + sync.downstreamOffset() + " refused: " + reason + more, null, now,
                        settings.instance()), timestamp));
    }
}
