package dev.sextant.topology;

import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.decode.ConsumerOffsetsDecoder;
import dev.sextant.decode.UndecodableRecordException;
import dev.sextant.metrics.GroupStateCounts;
import dev.sextant.metrics.OldestPending;
import dev.sextant.state.GroupStore;
import dev.sextant.state.NewestSyncs;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.state.PositionStore;
import dev.sextant.state.SharePosition;
import dev.sextant.sync.OpenTransactionWatch;
import dev.sextant.sync.SyncRuntime;
import dev.sextant.sync.SyncSettings;
import dev.sextant.sync.TaskSync;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Reads {@code __consumer_offsets} and Sextant's share-positions topic (one task per partition of both, so every
 * record of a group reaches the same task in order), decodes them and hands them to the task's {@link TaskSync};
 * every {@code sync.interval.ms} it lets the sync flush.
 *
 * <p>Records it cannot decode are counted and become {@code UNDECODABLE} dead-letter records; it never throws on
 * input.
 */
final class GroupSyncProcessor implements Processor<byte[], byte[], Object, Object> {

    private final SyncSettings settings;
    private final SyncRuntime runtime;
    private final NewestSyncs newestSyncs;
    private final UndecodableRecords undecodableRecords;
    private final OldestPending oldestPending;
    private final GroupStateCounts stateCounts;
    private ProcessorContext<Object, Object> context;
    private TaskSync sync;
    private int partition;

    GroupSyncProcessor(SyncSettings settings, SyncRuntime runtime, NewestSyncs newestSyncs,
                       UndecodableRecords undecodableRecords, OldestPending oldestPending,
                       GroupStateCounts stateCounts) {
        this.settings = settings;
        this.runtime = runtime;
        this.newestSyncs = newestSyncs;
        this.undecodableRecords = undecodableRecords;
        this.oldestPending = oldestPending;
        this.stateCounts = stateCounts;
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
        sync = new TaskSync(settings, runtime, PositionStore.of(positionStore), GroupStore.of(groupStore), history,
                oldestPending, stateCounts, this::deadLetter);
        sync.open();
        partition = context.taskId().partition();
        runtime.openTransactions().register(partition);
        context.schedule(Duration.ofMillis(settings.syncIntervalMs()), PunctuationType.WALL_CLOCK_TIME, ts -> {
            // commits another application's open transaction keeps this task from reading yet, confirmed committed
            for (OpenTransactionWatch.Commit found : runtime.openTransactions().drain(partition)) {
                sync.accept(found.commit(), found.logOffset());
            }
            sync.flush();
        });
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        boolean sharePosition = context.recordMetadata()
                .map(m -> m.topic().equals(settings.sharePositionsTopic())).orElse(false);
        try {
            if (sharePosition) {
                String group = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
                sync.sharePosition(group, SharePosition.fromBytes(group, record.value()),
                        context.recordMetadata().map(m -> m.offset()).orElse(-1L));
            } else {
                sync.accept(ConsumerOffsetsDecoder.decode(record.key(), record.value()),
                        context.recordMetadata().map(m -> m.offset()).orElse(-1L));
            }
        } catch (UndecodableRecordException e) {
            String topic = context.recordMetadata().map(m -> m.topic()).orElse("?");
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
            runtime.openTransactions().unregister(partition);
            sync.close();
        }
    }
}
