package dev.sextant.topology;

import dev.sextant.apply.DestinationView;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.deadletter.DeadLetterThrottle;
import dev.sextant.decode.OffsetSync;
import dev.sextant.decode.OffsetSyncDecoder;
import dev.sextant.decode.UndecodableRecordException;
import dev.sextant.domain.Reason;
import dev.sextant.history.OffsetSyncCatchUp;
import dev.sextant.history.OffsetSyncCheck;
import dev.sextant.history.OffsetSyncGate;
import dev.sextant.history.SourceIncarnations;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.source.SourceOffsets;
import dev.sextant.state.OffsetSyncKeys;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.state.SyncHolds;
import dev.sextant.sync.SyncSettings;
import dev.sextant.translate.OffsetSyncPoint;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies every offset sync MirrorMaker 2 emits into Sextant's own history topic. MirrorMaker 2's topic is compacted
 * by source partition, so it only ever holds the latest sync of each; the history topic is keyed by (partition,
 * upstream offset) and keeps them all, and a global store reads it back on every instance.
 *
 * <p>Offset syncs are untrusted input: each passes {@link OffsetSyncGate} (it holds a sync until the log ends show
 * it describes the two logs) before it is written; a refused one is an {@code INVALID_OFFSET_SYNC} dead letter. When
 * the source topic was recreated (a sync below the partition's newest one while the source log no longer reaches
 * that newest one) the old history no longer describes the log: a reset marker is written first, and the global
 * store forgets the partition's history when it reads it. A sync that moves the downstream back (the mirror was
 * truncated or recreated) is written after tombstones for the older syncs it contradicts; one of records MirrorMaker 2
 * copied again after a restart is skipped and counted (see {@link OffsetSyncCheck}). The source topic ids of the topics
 * with history are checked every {@link #INCARNATION_CHECK_MS}, and every second those of topics with new syncs: a new
 * id (the topic was recreated, however long the new log) forgets the history the old incarnation left
 * ({@link SourceIncarnations}).
 */
final class OffsetSyncHistoryWriter implements Processor<byte[], byte[], Object, Object> {

    private static final Logger log = LoggerFactory.getLogger(OffsetSyncHistoryWriter.class);
    private static final long PRUNE_TICK_MS = 1_000;
    private static final long GATE_TICK_MS = 100;
    /** How often the source topic ids of the topics with history are checked (one metadata request). */
    static final long INCARNATION_CHECK_MS = 5_000;

    private final SyncSettings settings;
    private final SourceOffsets source;
    private final SextantMetrics metrics;
    private final UndecodableRecords undecodableRecords;
    private long nextPrune;
    private CompletableFuture<Map<TopicPartition, Long>> floors;
    private final Map<TopicPartition, OffsetSyncPoint> lastSync = new HashMap<>();
    private final DeadLetterThrottle rejections = new DeadLetterThrottle();
    private ProcessorContext<Object, Object> context;
    private OffsetSyncStore history;
    private OffsetSyncGate gate;
    private SourceIncarnations incarnations;
    private CompletableFuture<Map<String, Uuid>> idCheck;
    private long nextFullIdCheck;

    private final DestinationView destination;
    private final OffsetSyncCatchUp catchUp;

    OffsetSyncHistoryWriter(SyncSettings settings, SourceOffsets source, DestinationView destination,
                            SextantMetrics metrics, UndecodableRecords undecodableRecords, OffsetSyncCatchUp catchUp) {
        this.undecodableRecords = undecodableRecords;
        this.catchUp = catchUp;
        this.settings = settings;
        this.source = source;
        this.destination = destination;
        this.metrics = metrics;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        ReadOnlyKeyValueStore<Bytes, byte[]> store = context.getStateStore(OffsetSyncStore.NAME);
        this.history = OffsetSyncStore.reader(store);
        this.gate = new OffsetSyncGate(SyncHolds.of(context.getStateStore(SyncHolds.NAME)), source, destination,
                settings::destinationTopic, this::newest, settings.clock());
        this.nextPrune = settings.clock().millis() + settings.pruneIntervalMs();
        this.incarnations = new SourceIncarnations(history::incarnation);
        history.partitions().forEach(tp -> incarnations.hasHistory(tp.topic()));
        context.schedule(Duration.ofMillis(PRUNE_TICK_MS), PunctuationType.WALL_CLOCK_TIME, ts -> {
            prune();
            checkIncarnations();
        });
        context.schedule(Duration.ofMillis(GATE_TICK_MS), PunctuationType.WALL_CLOCK_TIME,
                ts -> gate.drain(this::decided));
    }

    private OffsetSyncPoint newest(TopicPartition tp) {
        return lastSync.computeIfAbsent(tp, p -> history.newest(p.topic(), p.partition()).orElse(null));
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
                        TopologyNames.HISTORY_SINK);
                pruned++;
            }
        }
        metrics.historyPruned(pruned);
        if (pruned > 0) {
            log.info("Pruned {} offset syncs below the source's log starts and the slowest groups", pruned);
        }
    }

    /** Asks the source for the topic ids without blocking, and acts on the answer once it is in. */
    private void checkIncarnations() {
        long now = settings.clock().millis();
        if (idCheck == null) {
            // every topic every few seconds; those with syncs stored since their id was last confirmed at every tick,
            // so that the syncs a recreation leaves ambiguous are only those of about a second
            boolean all = now >= nextFullIdCheck;
            if (all) {
                nextFullIdCheck = now + INCARNATION_CHECK_MS;
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
            log.debug("Cannot read the source topic ids; checked again in {} ms", INCARNATION_CHECK_MS,
                    done.handle((v, e) -> e).join());
            return;
        }
        for (SourceIncarnations.Change change : incarnations.answered(done.join())) {
            if (change.recreated()) {
                recreated(change, now);
            }
            context.forward(new Record<Object, Object>(OffsetSyncKeys.incarnationKey(change.topic()),
                    OffsetSyncKeys.incarnationValue(change.to()), now), TopologyNames.HISTORY_SINK);
        }
    }

    /**
     * The source topic was recreated: every partition's history is forgotten (reset markers, which also make the
     * sync engines look again at what they applied through it), then the syncs that may be the new incarnation's are
     * stored again.
     */
    private void recreated(SourceIncarnations.Change change, long now) {
        Set<Integer> partitions = new TreeSet<>();
        history.partitions().stream().filter(tp -> tp.topic().equals(change.topic()))
                .forEach(tp -> partitions.add(tp.partition()));
        lastSync.keySet().stream().filter(tp -> tp.topic().equals(change.topic()))
                .forEach(tp -> partitions.add(tp.partition()));
        change.keep().forEach(sync -> partitions.add(sync.partition()));
        for (int partition : partitions) {
            context.forward(new Record<Object, Object>(OffsetSyncKeys.resetMarker(change.topic(), partition),
                    new byte[0], now), TopologyNames.HISTORY_SINK);
            lastSync.remove(new TopicPartition(change.topic(), partition));
        }
        for (OffsetSyncPoint sync : change.keep()) {
            lastSync.put(new TopicPartition(sync.topic(), sync.partition()), sync);
            context.forward(new Record<Object, Object>(
                    OffsetSyncKeys.key(sync.topic(), sync.partition(), sync.upstreamOffset()),
                    OffsetSyncKeys.value(sync.downstreamOffset()), now), TopologyNames.HISTORY_SINK);
        }
        metrics.offsetSyncHistoryResets(partitions.size());
        log.warn("Source topic {} was recreated (topic id {} is now {}): the offset-sync history of its {} "
                + "partition(s) is forgotten but for the {} sync(s) read since the last check; commits on the new "
                + "incarnation translate through its own syncs only", change.topic(), change.from(), change.to(),
                partitions.size(), change.keep().size());
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        if (catchUp.waiting() && context.recordMetadata().map(m -> catchUp.awaits(
                new TopicPartition(m.topic(), m.partition()), m.offset())).orElse(false)) {
            // the last sync a starting instance waits for: its groups wait for the committed offsets to pass it, so
            // commit now rather than at the next commit interval (seconds)
            context.commit();
        }
        OffsetSync sync;
        try {
            sync = OffsetSyncDecoder.decode(record.key(), record.value());
        } catch (UndecodableRecordException e) {
            String where = TopologyNames.where(context.recordMetadata());
            undecodableRecords.report(settings.offsetSyncsTopic(), where, e, null)
                    .ifPresent(dead -> context.forward(new Record<>(null, dead, record.timestamp()),
                            TopologyNames.SYNC_DLQ_SINK));
            return;
        }
        if (!settings.includeTopic().test(sync.topic())) {
            return;
        }
        gate.offer(sync, record.timestamp(), this::decided);
    }

    private void decided(OffsetSync sync, long timestamp, OffsetSyncCheck.Result result) {
        TopicPartition tp = new TopicPartition(sync.topic(), sync.partition());
        switch (result.verdict()) {
            case ALREADY_KNOWN, WAIT_FOR_LOG_ENDS -> {
                // read again after a restart: already in the history (a waiting sync is never handed on)
            }
            case REMIRRORED -> metrics.offsetSyncRemirrored();
            case REWIND_AND_ACCEPT -> {
                forgetContradicted(tp, sync, timestamp, result.reason());
                store(tp, sync, timestamp);
            }
            case REJECT -> rejected(sync, timestamp, result.reason());
            case RESET_AND_ACCEPT -> {
                log.info("Offset-sync history of {} reset: {}", tp, result.reason());
                metrics.offsetSyncHistoryResets(1);
                context.forward(new Record<Object, Object>(OffsetSyncKeys.resetMarker(sync.topic(), sync.partition()),
                        new byte[0], timestamp), TopologyNames.HISTORY_SINK);
                store(tp, sync, timestamp);
            }
            case ACCEPT -> store(tp, sync, timestamp);
        }
    }

    /**
     * Tombstones for the syncs below {@code sync} that it contradicts, from the store and from the newest sync this
     * writer sent (the global store may not have read it back yet).
     */
    private void forgetContradicted(TopicPartition tp, OffsetSync sync, long timestamp, String reason) {
        Map<Long, OffsetSyncPoint> doomed = new TreeMap<>();
        history.contradictedBy(tp.topic(), tp.partition(), sync.upstreamOffset(), sync.downstreamOffset())
                .forEach(s -> doomed.put(s.upstreamOffset(), s));
        OffsetSyncPoint sent = lastSync.get(tp);
        if (sent != null && sent.upstreamOffset() < sync.upstreamOffset()
                && sent.downstreamOffset() >= sync.downstreamOffset()) {
            doomed.put(sent.upstreamOffset(), sent);
        }
        for (long upstream : doomed.keySet()) {
            context.forward(new Record<Object, Object>(OffsetSyncKeys.key(tp.topic(), tp.partition(), upstream), null,
                    timestamp), TopologyNames.HISTORY_SINK);
        }
        metrics.offsetSyncsContradicted(doomed.size());
        log.warn("Offset-sync history of {}: {}; forgot the {} syncs it contradicts", tp, reason, doomed.size());
    }

    private void store(TopicPartition tp, OffsetSync sync, long timestamp) {
        OffsetSyncPoint point = new OffsetSyncPoint(sync.topic(), sync.partition(), sync.upstreamOffset(),
                sync.downstreamOffset());
        lastSync.put(tp, point);
        incarnations.stored(point);
        if (!incarnations.knows(sync.topic())) {
            // the topic's first sync here: its history belongs to the incarnation the gate's fetch saw, recorded now
            // rather than at the next check, which might already see a recreated topic's new id
            gate.topicId(sync.topic()).ifPresent(id -> {
                incarnations.seen(sync.topic(), id);
                context.forward(new Record<Object, Object>(OffsetSyncKeys.incarnationKey(sync.topic()),
                        OffsetSyncKeys.incarnationValue(id), timestamp), TopologyNames.HISTORY_SINK);
            });
        }
        context.forward(new Record<Object, Object>(
                OffsetSyncKeys.key(sync.topic(), sync.partition(), sync.upstreamOffset()),
                OffsetSyncKeys.value(sync.downstreamOffset()), timestamp), TopologyNames.HISTORY_SINK);
    }

    /** Counted always; dead-lettered at most once a minute per source partition (anyone may flood the topic). */
    private void rejected(OffsetSync sync, long timestamp, String reason) {
        metrics.offsetSyncRejected();
        long now = settings.clock().millis();
        String partition = sync.topic() + "-" + sync.partition();
        rejections.admit(partition, now).ifPresent(more -> context.forward(new Record<>(null,
                new DeadLetterRecord(null, null, Reason.INVALID_OFFSET_SYNC,
                        List.of(new DeadLetterRecord.PartitionDetail(sync.topic(), sync.partition(),
                                sync.upstreamOffset(), sync.downstreamOffset(), null)),
                        "offset sync " + partition + " upstream " + sync.upstreamOffset() + " -> downstream "
                                + sync.downstreamOffset() + " refused: " + reason + more, null, now,
                        settings.instance()), timestamp), TopologyNames.SYNC_DLQ_SINK));
    }
}
