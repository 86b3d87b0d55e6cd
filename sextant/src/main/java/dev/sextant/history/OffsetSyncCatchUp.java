package dev.sextant.history;

import dev.sextant.source.SourceOffsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this instance's offset-sync history holds every sync MirrorMaker 2 had emitted when the instance started.
 * Until it does, no group is planned: a translation from part of the history is lower than the full one (more
 * replay after a failover), and against offsets another tool wrote (MirrorMaker 2's own group sync, when switching
 * over) it looks like divergence and would be refused. MirrorMaker 2's checkpoint task waits the same way: it reads
 * the offset-syncs topic to its end before its first checkpoint.
 *
 * <pre>
 *   offset-syncs topic's ends E ──▶ the application's committed offsets there reach E (the history writer, on
 *   whichever instance, has handed every sync below E on) ──▶ the history topic's ends H ──▶ this instance's global
 *   store has read up to H ──▶ caught up, for good
 * </pre>
 *
 * <p>Approximate at the edges, on purpose: a sync the writer still holds for its log-end check
 * ({@link OffsetSyncGate}, one fetch) when H is read arrives a moment later; with exactly-once the last entry below
 * H is taken to be a commit marker. If the steps do not complete within {@link #MAX_WAIT_MS} (an unreadable group
 * offset, a partition the writer never commits), the wait ends with a warning and the sync proceeds with the history
 * read so far, as it would without this check. Thread-safe: every stream thread's flush asks, the global thread
 * reports what it read.
 */
public final class OffsetSyncCatchUp {

    /** The longest a start waits for the history before syncing with what it has. */
    static final long MAX_WAIT_MS = 120_000;
    /** Between two looks at the source while the wait goes on: each is an Admin request, and each may end the wait. */
    private static final long CHECK_INTERVAL_MS = 500;
    /**
     * Steps one check takes at most. With every answer already there the whole wait is seven (three requests, each
     * sent and then taken in, and the look at the store), so it can end in one check; the bound keeps a check short
     * whatever the answers.
     */
    private static final int MAX_STEPS_PER_CHECK = 8;
    private static final Logger log = LoggerFactory.getLogger(OffsetSyncCatchUp.class);

    private final SourceOffsets source;
    private final String offsetSyncsTopic;
    private final String historyTopic;
    private final String applicationId;
    private final boolean exactlyOnce;
    private final Clock clock;
    /** History partition -> the offset after the last record the global store has read. */
    private final Map<Integer, Long> historyRead = new ConcurrentHashMap<>();
    private volatile boolean caughtUp;
    private long startedAt = -1;
    private long nextCheckAt;
    private volatile Map<TopicPartition, Long> syncEnds;
    private boolean writerDone;
    private Map<TopicPartition, Long> historyEnds;
    /** The request in flight; its result is applied on the asking thread, under this object's lock. */
    private CompletableFuture<Runnable> request;
    private boolean failureLogged;

    /**
     * @param offsetSyncsTopic MirrorMaker 2's offset-syncs topic
     * @param historyTopic     Sextant's offset-sync history topic
     * @param applicationId    whose committed offsets on the offset-syncs topic show the writer has caught up
     * @param exactlyOnce      whether Sextant runs under exactly-once (the history's last entry is a commit marker)
     */
    public OffsetSyncCatchUp(SourceOffsets source, String offsetSyncsTopic, String historyTopic, String applicationId,
                      boolean exactlyOnce, Clock clock) {
        this.source = source;
        this.offsetSyncsTopic = offsetSyncsTopic;
        this.historyTopic = historyTopic;
        this.applicationId = applicationId;
        this.exactlyOnce = exactlyOnce;
        this.clock = clock;
    }

    /** For offset-preserving mirrors, and tests: there is no history to wait for. */
    public static OffsetSyncCatchUp notNeeded() {
        OffsetSyncCatchUp none = new OffsetSyncCatchUp(null, null, null, null, false, Clock.systemUTC());
        none.caughtUp = true;
        return none;
    }

    /** The global store read the record at {@code offset} of history partition {@code partition}. */
    public void read(int partition, long offset) {
        if (!caughtUp) {
            historyRead.merge(partition, offset + 1, Math::max);
        }
    }

    /** True while the wait goes on: a volatile read, for the per-record callers to skip everything else after it. */
    public boolean waiting() {
        return !caughtUp;
    }

    /**
     * True when the record at {@code offset} of the offset-syncs topic is the last one the wait is for (the writer
     * then asks for a commit at once). Reads, nothing more.
     */
    public boolean awaits(TopicPartition partition, long offset) {
        Map<TopicPartition, Long> ends = syncEnds;
        if (caughtUp || ends == null) {
            return false;
        }
        Long end = ends.get(partition);
        return end != null && offset + 1 == end;
    }

    /** True once the history has caught up (or the wait gave up); otherwise moves the check on, never blocking. */
    public boolean caughtUp() {
        if (caughtUp) {
            return true;
        }
        advance(clock.millis());
        return caughtUp;
    }

    private synchronized void advance(long now) {
        if (startedAt < 0) {
            startedAt = now;
            log.info("Waiting for the offset-sync history to catch up with {} before syncing groups", offsetSyncsTopic);
        }
        for (int step = 0; step < MAX_STEPS_PER_CHECK && !caughtUp; step++) {
            if (!(request != null ? takeAnswer(now) : takeStep(now))) {
                return;
            }
        }
    }

    /** Applies the answer to the request in flight; false while it is still awaited. */
    private boolean takeAnswer(long now) {
        if (!request.isDone()) {
            return false;
        }
        CompletableFuture<Runnable> done = request;
        request = null;
        try {
            done.join().run();
        } catch (CompletionException | CancellationException e) {
            if (!failureLogged) {
                failureLogged = true;
                log.warn("Could not check whether the offset-sync history has caught up yet (retrying): {}",
                        e.getCause() == null ? e.toString() : e.getCause().toString());
            }
            nextCheckAt = now + CHECK_INTERVAL_MS;
        }
        return true;
    }

    /** Starts the next step of the wait, or ends it; false when nothing more can happen in this check. */
    private boolean takeStep(long now) {
        if (now - startedAt >= MAX_WAIT_MS) {
            caughtUp = true;
            log.warn("The offset-sync history did not show it had caught up with {} within {} s; syncing groups "
                    + "with the history read so far (translations may improve as more syncs arrive)",
                    offsetSyncsTopic, Duration.ofMillis(MAX_WAIT_MS).toSeconds());
            return false;
        }
        if (now < nextCheckAt) {
            return false;
        }
        if (syncEnds == null) {
            request = source.topicEnds(offsetSyncsTopic).thenApply(ends -> () -> syncEnds = ends);
        } else if (!writerDone) {
            askWhetherTheWriterIsDone(now);
        } else if (historyEnds == null) {
            request = source.topicEnds(historyTopic).thenApply(ends -> () -> historyEnds = ends);
        } else if (storeHasRead(historyEnds)) {
            caughtUp = true;
            historyRead.clear();
            log.info("The offset-sync history caught up with {} in {} ms; syncing groups", offsetSyncsTopic,
                    now - startedAt);
        } else {
            return false; // the global thread reads on; looked at again at the next flush
        }
        return true;
    }

    /** Whether the application's committed offsets on the offset-syncs topic reach the ends read at the start. */
    private void askWhetherTheWriterIsDone(long now) {
        if (syncEnds.values().stream().allMatch(end -> end == 0)) {
            writerDone = true;
            return;
        }
        request = source.committed(applicationId, syncEnds.keySet()).thenApply(committed -> () -> {
            writerDone = syncEnds.entrySet().stream().allMatch(e -> e.getValue() == 0
                    || committed.getOrDefault(e.getKey(), -1L) >= e.getValue());
            if (!writerDone) {
                nextCheckAt = now + CHECK_INTERVAL_MS;
            }
        });
    }

    private boolean storeHasRead(Map<TopicPartition, Long> ends) {
        long markerSlack = exactlyOnce ? 1 : 0; // under exactly-once the last entry is a transaction's commit marker
        return ends.entrySet().stream().allMatch(e -> e.getValue() == 0
                || historyRead.getOrDefault(e.getKey().partition(), 0L) >= e.getValue() - markerSlack);
    }
}
