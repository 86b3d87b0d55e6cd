package dev.sextant.sync;

import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.decode.ConsumerOffsetsDecoder;
import dev.sextant.decode.UndecodableRecordException;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.source.OpenTransactionWatch;
import dev.sextant.state.GroupStore;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStore;
import dev.sextant.state.SharePosition;
import dev.sextant.translate.IdentityTranslator;
import dev.sextant.translate.OffsetSyncPoint;
import dev.sextant.translate.OffsetSyncTranslator;
import dev.sextant.translate.OffsetTranslator;
import dev.sextant.translate.SyncHistory;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * One task's sync, the one entry point of this package for the Kafka Streams processor that owns the task: the
 * task's records of {@code __consumer_offsets} and share positions go in ({@link CommitIntake}), and at every flush
 * ({@link #flush()}, every {@code sync.interval.ms}) what changed is written to the destination
 * ({@link GroupSyncFlusher}). Nothing here knows Kafka Streams.
 *
 * <p>Invariants: every call comes from the task's stream thread; the group registry and the positions change only
 * here and in the flush.
 */
public final class TaskSync {

    /** The stores one task keeps: its positions and groups, and the offset-sync history (null with identity). */
    public record Stores(PositionStore positions, GroupStore groups, OffsetSyncStore history) {
    }

    private final SyncRuntime runtime;
    private final SextantMetrics metrics;
    private final GroupStore groups;
    private final GroupSyncFlusher flusher;
    private final CommitIntake intake;
    private final TaskInput input;
    private final int partition;
    /** {@code source.offsets.read=admin}: the commits' places are not in {@code __consumer_offsets}. */
    private final boolean commitsFromAdmin;

    /**
     * @param partition   the task's partition of {@code __consumer_offsets} (and of Sextant's share positions)
     * @param gauges      the instance-wide gauges the task adds its figures to
     * @param deadLetters where the task's dead-letter records go
     */
    public TaskSync(SyncSettings settings, SyncRuntime runtime, int partition, Stores stores, SyncGauges gauges,
                    Consumer<DeadLetterRecord> deadLetters) {
        this.runtime = runtime;
        this.metrics = runtime.metrics();
        this.partition = partition;
        this.commitsFromAdmin = settings.commitsFromAdmin();
        this.groups = stores.groups();
        IncludedNames groupNames = new IncludedNames(settings.includeGroup());
        IncludedNames topicNames = new IncludedNames(settings.includeTopic());
        IndexedPositions positions = new IndexedPositions(stores.positions(), key -> new PositionKey(
                groupNames.canonical(key.group()), topicNames.canonical(key.topic()), key.partition()));
        OffsetSyncStore history = stores.history();
        // failback: the source's mirrors of the destination's topics translate through the forward flow's syncs,
        // inverted; a bounded position improves on a newer sync of the history it was translated through
        SyncHistory translated = history == null || runtime.returned() == null ? history
                : new HomewardHistory(history, runtime.returned(), settings::fromDestination);
        OffsetTranslator translator = history == null ? new IdentityTranslator()
                : new OffsetSyncTranslator(translated, runtime.evidence());
        BoundedPositions bounded = new BoundedPositions(history == null ? null : tp ->
                translated.newest(tp.topic(), tp.partition()).map(OffsetSyncPoint::upstreamOffset).orElse(null));
        PendingGroups pending = new PendingGroups();
        this.flusher = new GroupSyncFlusher(settings, runtime, positions, groups, pending, history, translator,
                bounded, gauges, deadLetters);
        this.intake = new CommitIntake(settings, runtime, groupNames, topicNames, positions, groups, pending,
                new CutoverHold(runtime.cutovers(), settings, metrics, deadLetters));
        this.input = new TaskInput(settings, runtime, partition);
    }

    /**
     * Takes up the task's stored state (after a start or a rebalance): what is still to write is pending again; the
     * task catches up with its input, and reads past other applications' open transactions.
     */
    public void open() {
        flusher.recover();
        metrics.groupsTrackedDelta(groups.size());
        runtime.openTransactions().register(partition);
        input.start();
    }

    /**
     * A record of {@code __consumer_offsets}, read at {@code logOffset} of the task's partition (-1: not known): one
     * partition holds a group, so the log orders the group's commits (the coordinator's clock does not).
     *
     * @throws UndecodableRecordException when it cannot be decoded (nothing is taken in; it counts as read)
     */
    public void consumerOffsets(byte[] key, byte[] value, long logOffset, long timestamp)
            throws UndecodableRecordException {
        input.read(logOffset, timestamp);
        // read through the Admin API, a commit's place in Sextant's own topic is no place in __consumer_offsets:
        // such commits (and the marks written for them) are ordered by the time the poll saw them
        intake.accept(ConsumerOffsetsDecoder.decode(key, value), commitsFromAdmin ? -1 : logOffset);
    }

    /**
     * A share partition's start offset from Sextant's share-positions topic, read at {@code logOffset} (-1: not
     * known).
     *
     * @throws UndecodableRecordException when it cannot be decoded
     */
    public void sharePosition(byte[] key, byte[] value, long logOffset) throws UndecodableRecordException {
        String group = key == null ? null : new String(key, StandardCharsets.UTF_8);
        intake.sharePosition(group, SharePosition.fromBytes(group, value), logOffset);
    }

    /**
     * Every {@code sync.interval.ms}: takes the commits found past other applications' open transactions, then
     * writes what changed since the last flush. While the task reads a backlog of commits, each group is planned at
     * most every {@link Backoffs#BACKLOG_GROUP_INTERVAL_MS}, so reading catches up sooner and a group's commits read
     * meanwhile go out as one write.
     */
    public void flush() {
        boolean backlog = input.atFlush();
        for (OpenTransactionWatch.Commit found : runtime.openTransactions().drain(partition)) {
            intake.accept(found.commit(), found.logOffset());
        }
        flusher.flush(backlog);
    }

    /** The task is closed (revoked, or the instance stops): nothing it planned is sent any more. */
    public void close() {
        runtime.openTransactions().unregister(partition);
        input.stop();
        metrics.groupsTrackedDelta(-groups.size());
        flusher.close();
    }
}
