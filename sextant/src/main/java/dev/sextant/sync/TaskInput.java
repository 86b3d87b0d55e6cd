package dev.sextant.sync;

import dev.sextant.state.CatchingUpPartitions;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * How far one task has read its partition of the commits it reads ({@code __consumer_offsets}, or Sextant's own
 * topic with {@code source.offsets.read=admin}), for two decisions:
 *
 * <ul>
 *   <li><em>caught up</em>: until the task has read its input up to where it stood when the task started here (the
 *       last stable offset), a group missing from its stores may only not be read yet, so the query API says
 *       "retry", not "unknown" ({@link CatchingUpPartitions});</li>
 *   <li><em>backlog</em>: a task whose last commit read was made a while ago reads commits made a while ago, so its
 *       flushes plan each group at most every {@link Backoffs#BACKLOG_GROUP_INTERVAL_MS} and the stream thread reads
 *       more.</li>
 * </ul>
 *
 * <p>Share positions are not this input: they come from Sextant's own topic. Runs on the task's stream thread.
 */
final class TaskInput {

    /** A task that read nothing for this long is no longer reading a backlog. */
    static final long INPUT_IDLE_MS = 2_000;
    /**
     * A task that read nothing for this long since it started has nothing left to catch up with (its input ended on
     * transaction markers, or held nothing). Longer than {@link #INPUT_IDLE_MS}: on a loaded machine a task taken
     * over in a rebalance can go that long without its first records, and "unknown group" for a group it has not
     * read yet would be wrong where "retry" is right.
     */
    static final long CATCH_UP_IDLE_MS = 5_000;
    /**
     * ... and over at least this many of its flushes in a row: the stream thread polled its input in between each and
     * found nothing. Time alone is not enough: a stream thread busy elsewhere (restoring another task, a long flush
     * on a loaded machine) lets the clock run while this task's records wait in the consumer.
     */
    static final int IDLE_FLUSHES = 4;
    /**
     * A task that has read nothing since it started although its input was committed below the end stands idle this
     * long before it counts as caught up: only transaction markers or aborted records can be left to read then, and
     * a stream thread starved on a loaded machine (a rebalance, restores) must not make a group not read yet
     * "unknown" instead of "retry".
     */
    static final long CATCH_UP_UNREAD_MS = 60_000;
    /**
     * A task whose last commit read was made longer ago than this reads a backlog. Clocks of hosts differ by far
     * less; at worst a skewed clock trims planning that then has little to do.
     */
    static final long BACKLOG_AGE_MS = 2_000;

    private final SyncSettings settings;
    private final SyncRuntime runtime;
    private final int partition;
    /** The input's last stable offset when the task started here (-1: unknown); null once caught up. */
    private CompletableFuture<Long> inputEnd;
    /** Where the task's input was committed when it started here (-1: never, or not known). */
    private CompletableFuture<Long> inputCommitted;
    private long lastInputOffset = -1;
    private long lastInputAt;
    /** The input offset seen at the last flush, and for how many flushes in a row it did not move. */
    private long inputAtLastFlush = -1;
    private int idleFlushes;
    /** The timestamp of the last record read, and whether one was read since the last flush. */
    private long lastCommitTimestamp;
    private boolean readSinceFlush;
    /** Whether the task reads a backlog: decided at a flush that follows reads, kept over flushes that follow none. */
    private boolean backlog;
    private long lastReadFlushAt;

    TaskInput(SyncSettings settings, SyncRuntime runtime, int partition) {
        this.settings = settings;
        this.runtime = runtime;
        this.partition = partition;
    }

    /** The task starts here: it catches up with its input as it stands now. */
    void start() {
        runtime.catchingUp().started(partition);
        lastInputAt = settings.clock().millis();
        TopicPartition input = new TopicPartition(settings.commitsTopic(), partition);
        inputEnd = runtime.source().stableEnds(Set.of(input))
                .thenApply(ends -> ends.containsKey(input) ? ends.get(input).lastStable() : -1L);
        inputCommitted = runtime.source().committed(settings.applicationId(), Set.of(input))
                .thenApply(committed -> committed.getOrDefault(input, -1L)).exceptionally(e -> -1L);
    }

    /** A record of the input was read, at {@code logOffset} (-1: not known), made at {@code timestamp}. */
    void read(long logOffset, long timestamp) {
        lastCommitTimestamp = timestamp;
        readSinceFlush = true;
        if (inputEnd != null) {
            lastInputOffset = logOffset >= 0 ? logOffset : lastInputOffset;
            lastInputAt = settings.clock().millis();
        }
    }

    /**
     * At a flush: whether the task caught up ({@link #CATCH_UP_IDLE_MS}), and whether it reads a backlog now.
     *
     * @return true while the task reads a backlog
     */
    boolean atFlush() {
        checkCaughtUp();
        long now = settings.clock().millis();
        if (readSinceFlush) {
            backlog = now - lastCommitTimestamp > BACKLOG_AGE_MS;
            lastReadFlushAt = now;
            readSinceFlush = false;
        } else if (now - lastReadFlushAt >= INPUT_IDLE_MS) {
            backlog = false; // nothing read for a while: whatever was behind has been read
        }
        return backlog;
    }

    /**
     * Caught up once a record at or past the end the task started with was read, or at once when its input was
     * committed at that end (nothing to read); otherwise once nothing came for {@link #CATCH_UP_IDLE_MS} and
     * {@link #IDLE_FLUSHES} flushes after it read something (the end was reached on markers or aborted records), and
     * for {@link #CATCH_UP_UNREAD_MS} when it read nothing although its input was committed below the end.
     */
    private void checkCaughtUp() {
        if (inputEnd == null) {
            return;
        }
        long end = inputEnd.isDone() ? inputEnd.handle((v, e) -> e == null ? v : -1L).join() : Long.MAX_VALUE;
        long committed = inputCommitted.isDone() ? inputCommitted.join() : -2; // -2: not answered yet
        idleFlushes = lastInputOffset == inputAtLastFlush ? idleFlushes + 1 : 0;
        inputAtLastFlush = lastInputOffset;
        long idleMs = settings.clock().millis() - lastInputAt;
        boolean idle = idleFlushes >= IDLE_FLUSHES;
        // read nothing although the input was committed below the end: the records are still to come
        boolean unread = lastInputOffset < 0 && committed != -1 && (committed < 0 || committed < end);
        if (lastInputOffset + 1 >= end || committed >= 0 && committed >= end
                || idle && idleMs >= (unread ? CATCH_UP_UNREAD_MS : CATCH_UP_IDLE_MS)) {
            runtime.catchingUp().caughtUp(partition);
            inputEnd = null;
        }
    }

    /** The task leaves this instance: whatever it had not read is no longer this instance's to say. */
    void stop() {
        runtime.catchingUp().caughtUp(partition);
    }
}
