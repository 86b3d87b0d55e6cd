package dev.sextant.topology;

import dev.sextant.apply.DestinationView;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.decode.UndecodableRecordException;
import dev.sextant.domain.MirrorRewind;
import dev.sextant.history.HistorySink;
import dev.sextant.history.OffsetSyncCatchUp;
import dev.sextant.history.OffsetSyncIntake;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.source.SourceOffsets;
import dev.sextant.state.OffsetSyncKeys;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.state.SyncHolds;
import dev.sextant.sync.SyncSettings;
import dev.sextant.translate.IntervalEvidence;
import dev.sextant.translate.OffsetSyncPoint;
import java.time.Duration;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The Kafka Streams shell of the offset-sync intake ({@link OffsetSyncIntake}): hands it every record of MirrorMaker
 * 2's offset-syncs topic, lets it decide held syncs and prune and check incarnations on its punctuations, and writes
 * what it decides to Sextant's history topic (syncs, tombstones, reset and incarnation markers) and dead letters to
 * the dead-letter topic. Records it cannot decode are counted and dead-lettered; it never throws on input.
 */
final class OffsetSyncHistoryWriter implements Processor<byte[], byte[], Object, Object>, HistorySink {

    private static final long TICK_MS = 1_000;
    private static final long GATE_TICK_MS = 100;

    private final SyncSettings settings;
    private final SourceOffsets source;
    private final DestinationView destination;
    private final SextantMetrics metrics;
    private final UndecodableRecords undecodableRecords;
    private final OffsetSyncCatchUp catchUp;
    private final IntervalEvidence evidence;
    private ProcessorContext<Object, Object> context;
    private OffsetSyncIntake intake;

    /** @param evidence reads the records at a sync on both clusters (the intake checks unrecorded mirrors with it) */
    OffsetSyncHistoryWriter(SyncSettings settings, SourceOffsets source, DestinationView destination,
                            SextantMetrics metrics, UndecodableRecords undecodableRecords, OffsetSyncCatchUp catchUp,
                            IntervalEvidence evidence) {
        this.evidence = evidence;
        this.settings = settings;
        this.source = source;
        this.destination = destination;
        this.metrics = metrics;
        this.undecodableRecords = undecodableRecords;
        this.catchUp = catchUp;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        ReadOnlyKeyValueStore<Bytes, byte[]> store = context.getStateStore(OffsetSyncStore.NAME);
        intake = new OffsetSyncIntake(new OffsetSyncIntake.Settings(settings::destinationTopic,
                settings.includeTopic(), settings.pruneIntervalMs(), settings.instance(), settings.clock()),
                source, destination, metrics, catchUp, OffsetSyncStore.reader(store),
                SyncHolds.of(context.getStateStore(SyncHolds.NAME)), this, evidence);
        context.schedule(Duration.ofMillis(TICK_MS), PunctuationType.WALL_CLOCK_TIME, ts -> intake.tick());
        context.schedule(Duration.ofMillis(GATE_TICK_MS), PunctuationType.WALL_CLOCK_TIME, ts -> intake.decideHeld());
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        TopicPartition at = context.recordMetadata().map(m -> new TopicPartition(m.topic(), m.partition()))
                .orElse(new TopicPartition(settings.offsetSyncsTopic(), -1));
        long offset = context.recordMetadata().map(m -> m.offset()).orElse(-1L);
        try {
            intake.record(record.key(), record.value(), record.timestamp(), at, offset);
        } catch (UndecodableRecordException e) {
            undecodableRecords.report(settings.offsetSyncsTopic(), TopologyNames.where(context.recordMetadata()), e,
                    null).ifPresent(dead -> deadLetter(dead, record.timestamp()));
        }
    }

    @Override
    public void sync(OffsetSyncPoint sync, long timestamp) {
        history(OffsetSyncKeys.key(sync.topic(), sync.partition(), sync.upstreamOffset()),
                OffsetSyncKeys.value(sync.downstreamOffset()), timestamp);
    }

    @Override
    public void forget(String topic, int partition, long upstreamOffset, long timestamp) {
        history(OffsetSyncKeys.key(topic, partition, upstreamOffset), null, timestamp);
    }

    @Override
    public void reset(String topic, int partition, long timestamp) {
        history(OffsetSyncKeys.resetMarker(topic, partition), new byte[0], timestamp);
    }

    @Override
    public void rewound(String topic, int partition, MirrorRewind rewind, long timestamp) {
        history(OffsetSyncKeys.rewindKey(topic, partition), OffsetSyncKeys.rewindValue(rewind), timestamp);
    }

    @Override
    public void incarnation(String topic, Uuid id, long timestamp) {
        history(OffsetSyncKeys.incarnationKey(topic), OffsetSyncKeys.incarnationValue(id), timestamp);
    }

    @Override
    public void mirrorIncarnation(String topic, Uuid id, long timestamp) {
        history(OffsetSyncKeys.mirrorIncarnationKey(topic), OffsetSyncKeys.incarnationValue(id), timestamp);
    }

    @Override
    public void destinationCluster(String clusterId, long timestamp) {
        history(OffsetSyncKeys.destinationClusterKey(), OffsetSyncKeys.clusterValue(clusterId), timestamp);
    }

    @Override
    public void deadLetter(DeadLetterRecord record, long timestamp) {
        context.forward(new Record<>(null, record, timestamp), TopologyNames.SYNC_DLQ_SINK);
    }

    @Override
    public void commitSoon() {
        context.commit();
    }

    private void history(Bytes key, byte[] value, long timestamp) {
        context.forward(new Record<Object, Object>(key, value, timestamp), TopologyNames.HISTORY_SINK);
    }
}
