package dev.sextant.topology;

import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.decode.UndecodableRecordException;
import dev.sextant.state.GroupStore;
import dev.sextant.state.NewestSyncs;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.state.PositionStore;
import dev.sextant.sync.SyncGauges;
import dev.sextant.sync.SyncRuntime;
import dev.sextant.sync.SyncSettings;
import dev.sextant.sync.TaskSync;
import java.time.Duration;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The Kafka Streams shell of one task's sync: reads {@code __consumer_offsets} and Sextant's share-positions topic
 * (one task per partition of both, so every record of a group reaches the same task in order), hands each record to
 * the task's {@link TaskSync}, and lets it flush every {@code sync.interval.ms}.
 *
 * <p>Records it cannot decode are counted and become {@code UNDECODABLE} dead-letter records; it never throws on
 * input.
 */
final class GroupSyncProcessor implements Processor<byte[], byte[], Object, Object> {

    private final SyncSettings settings;
    private final SyncRuntime runtime;
    private final NewestSyncs newestSyncs;
    private final UndecodableRecords undecodableRecords;
    private final SyncGauges gauges;
    private ProcessorContext<Object, Object> context;
    private TaskSync sync;

    GroupSyncProcessor(SyncSettings settings, SyncRuntime runtime, NewestSyncs newestSyncs,
                       UndecodableRecords undecodableRecords, SyncGauges gauges) {
        this.settings = settings;
        this.runtime = runtime;
        this.newestSyncs = newestSyncs;
        this.undecodableRecords = undecodableRecords;
        this.gauges = gauges;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        KeyValueStore<Bytes, byte[]> positionStore = context.getStateStore(PositionStore.NAME);
        KeyValueStore<String, byte[]> groupStore = context.getStateStore(GroupStore.NAME);
        OffsetSyncStore history = null;
        if (!settings.identityTranslation()) {
            ReadOnlyKeyValueStore<Bytes, byte[]> historyStore = context.getStateStore(OffsetSyncStore.NAME);
            history = OffsetSyncStore.reader(historyStore, newestSyncs);
        }
        sync = new TaskSync(settings, runtime, context.taskId().partition(), new TaskSync.Stores(
                PositionStore.of(positionStore), GroupStore.of(groupStore), history), gauges, this::deadLetter);
        sync.open();
        context.schedule(Duration.ofMillis(settings.syncIntervalMs()), PunctuationType.WALL_CLOCK_TIME,
                ts -> sync.flush());
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        String topic = context.recordMetadata().map(m -> m.topic()).orElse("?");
        long offset = context.recordMetadata().map(m -> m.offset()).orElse(-1L);
        try {
            if (topic.equals(settings.sharePositionsTopic())) {
                sync.sharePosition(record.key(), record.value(), offset);
            } else {
                sync.consumerOffsets(record.key(), record.value(), offset, record.timestamp());
            }
        } catch (UndecodableRecordException e) {
            undecodableRecords.report(topic, TopologyNames.where(context.recordMetadata()), e, null)
                    .ifPresent(this::deadLetter);
        }
    }

    private void deadLetter(DeadLetterRecord record) {
        context.forward(new Record<>(record.group(), record, settings.clock().millis()), TopologyNames.DLQ_SINK);
    }

    @Override
    public void close() {
        if (sync != null) {
            sync.close();
        }
    }
}
