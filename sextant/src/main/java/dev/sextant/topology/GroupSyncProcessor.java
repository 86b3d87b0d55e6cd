package dev.sextant.topology;

import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.decode.ConsumerOffsetsDecoder;
import dev.sextant.decode.UndecodableRecordException;
import dev.sextant.metrics.GroupStateCounts;
import dev.sextant.metrics.OldestPending;
import dev.sextant.state.CatchingUpPartitions;
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
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.internals.Topic;
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

    /** A task that read nothing for this long is no longer reading a backlog. */
    static final long INPUT_IDLE_MS = 2_000;
    /**
     * A task that read nothing for this long since it started has nothing left to catch up with (its input ended on
     * transaction markers, or held nothing). Longer than {@link #INPUT_IDLE_MS}: on a loaded machine a task taken
     * over in a rebalance went 2 s without its first records, and the query API answered "unknown group" for groups
     * it had not read yet (KillNineIT, once) instead of "retry".
     */
    static final long CATCH_UP_IDLE_MS = 5_000;
    /**
     * ... and over at least this many of its punctuations in a row: the stream thread polled its input in between
     * each and found nothing. Time alone is not enough: a stream thread busy elsewhere (restoring another task, a
     * long flush on a loaded machine) lets the clock run while this task's records wait in the consumer.
     */
    static final int IDLE_PUNCTUATIONS = 4;
    /**
     * A task whose last commit read was made longer ago than this has a backlog of commits to read: its flushes then
     * plan less, so the stream thread reads more, and commits of a partition read meanwhile are written as one.
     * Clocks of hosts differ by far less; at worst a skewed clock trims planning that then has little to do.
     */
    static final long BACKLOG_AGE_MS = 2_000;

    private final SyncSettings settings;
    private final SyncRuntime runtime;
    private final NewestSyncs newestSyncs;
    private final UndecodableRecords undecodableRecords;
    private final OldestPending oldestPending;
    private final GroupStateCounts stateCounts;
    private ProcessorContext<Object, Object> context;
    private TaskSync sync;
    private int partition;
    /** The input's last stable offset when the task started here (-1: unknown); null once caught up. */
    private CompletableFuture<Long> inputEnd;
    private long lastInputOffset = -1;
    private long lastInputAt;
    /** The input offset seen at the last punctuation, and for how many punctuations in a row it did not move. */
    private long inputAtLastPunctuation = -1;
    private int idlePunctuations;
    /** The timestamp of the last {@code __consumer_offsets} record read, and whether one was read since the flush. */
    private long lastCommitTimestamp;
    private boolean readSinceFlush;
    /** Whether the task reads a backlog: decided at a flush that follows reads, kept over flushes that follow none. */
    private boolean backlog;
    private long lastReadFlushAt;

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
        startCatchingUp();
        context.schedule(Duration.ofMillis(settings.syncIntervalMs()), PunctuationType.WALL_CLOCK_TIME, ts -> {
            checkCaughtUp();
            // commits another application's open transaction keeps this task from reading yet, confirmed committed
            for (OpenTransactionWatch.Commit found : runtime.openTransactions().drain(partition)) {
                sync.accept(found.commit(), found.logOffset());
            }
            long now = settings.clock().millis();
            if (readSinceFlush) {
                backlog = now - lastCommitTimestamp > BACKLOG_AGE_MS;
                lastReadFlushAt = now;
                readSinceFlush = false;
            } else if (now - lastReadFlushAt >= INPUT_IDLE_MS) {
                backlog = false; // nothing read for a while: whatever was behind has been read
            }
            sync.flush(backlog);
        });
    }

    /**
     * Until the task has read its input up to where it stood now (the last stable offset), a group missing from its
     * stores may only not be read yet: the query API says "retry", not "unknown" ({@link CatchingUpPartitions}).
     */
    private void startCatchingUp() {
        runtime.catchingUp().started(partition);
        lastInputAt = settings.clock().millis();
        TopicPartition input = new TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, partition);
        inputEnd = runtime.source().stableEnds(Set.of(input))
                .thenApply(ends -> ends.containsKey(input) ? ends.get(input).lastStable() : -1L);
    }

    /**
     * Caught up once a record at or past the end the task started with was read, or once nothing came for
     * {@link #CATCH_UP_IDLE_MS} and {@link #IDLE_PUNCTUATIONS} punctuations (the end was reached on markers or aborted
     * records, or there was nothing to read).
     */
    private void checkCaughtUp() {
        if (inputEnd == null) {
            return;
        }
        long end = inputEnd.isDone() ? inputEnd.handle((v, e) -> e == null ? v : -1L).join() : Long.MAX_VALUE;
        idlePunctuations = lastInputOffset == inputAtLastPunctuation ? idlePunctuations + 1 : 0;
        inputAtLastPunctuation = lastInputOffset;
        if (lastInputOffset + 1 >= end || settings.clock().millis() - lastInputAt >= CATCH_UP_IDLE_MS
                && idlePunctuations >= IDLE_PUNCTUATIONS) {
            runtime.catchingUp().caughtUp(partition);
            inputEnd = null;
        }
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        boolean sharePosition = context.recordMetadata()
                .map(m -> m.topic().equals(settings.sharePositionsTopic())).orElse(false);
        if (!sharePosition) {
            lastCommitTimestamp = record.timestamp();
            readSinceFlush = true;
        }
        if (!sharePosition && inputEnd != null) {
            lastInputOffset = context.recordMetadata().map(m -> m.offset()).orElse(lastInputOffset);
            lastInputAt = settings.clock().millis();
        }
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
            runtime.catchingUp().caughtUp(partition);
            sync.close();
        }
    }
}
