package dev.sextant.history;

import dev.sextant.metrics.SextantMetrics;
import dev.sextant.source.RecordRanges;
import dev.sextant.translate.IntervalEvidence;
import dev.sextant.translate.OffsetSyncPoint;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Proves intervals between offset syncs against the records ({@link IntervalCheck}), so translation may interpolate
 * inside them. One per instance, on its own thread: {@link #verdict} answers from what is known and, for an interval
 * not checked yet, queues one check and answers {@link Verdict#UNKNOWN}. A check reads the interval once on each
 * cluster, so its cost follows the syncs (one read per interval however many groups commit inside it), not the
 * groups or their commits; an interval longer than {@code maxRecords} is not read and keeps the bounded rule. The
 * intervals queued meanwhile are read together ({@link IntervalBatch}: one stretch per partition, all partitions in one
 * fetch), so the checks keep up when syncs arrive on many partitions at once.
 *
 * <p>Outcomes: proven and refuted intervals are kept (the newest {@link #KEPT_VERDICTS}); one that cannot be read
 * (its records deleted, the read denied) is kept as unknown; a read that failed or ran out of time is tried again
 * after {@link #RETRY_MS}. Tasks learn of new proofs through {@link #provenSince}, to re-plan the bounded positions
 * a proof can make exact.
 *
 * <p>The readers are Kafka consumers, which allow one thread in: only the check thread reads, and {@link #close}
 * has that thread close them too, as its last task, after waking up the read in progress.
 */
public final class IntervalProofs implements IntervalEvidence, AutoCloseable {

    /** Verdicts kept; older ones are asked again if a translation needs them. */
    static final int KEPT_VERDICTS = 100_000;
    /** Proofs a task that fell behind can still catch up on; one that fell further re-plans all its partitions. */
    static final int KEPT_PROOFS = 100_000;
    static final long RETRY_MS = 5_000;
    /** Intervals one batch takes from the queue: read together, one stretch per partition on each cluster. */
    static final int BATCH_INTERVALS = 1_024;
    /** How deep into the queue a batch looks for intervals it can read. */
    static final int BATCH_SCAN = 16 * BATCH_INTERVALS;
    /**
     * How long {@link #close} waits for the check thread to close the readers: a woken read ends at once, and each
     * reader's close is bounded (five seconds) even with its cluster gone.
     */
    static final long CLOSE_WAIT_MS = 15_000;
    private static final Logger log = LoggerFactory.getLogger(IntervalProofs.class);

    private final RecordRanges source;
    private final RecordRanges destination;
    private final UnaryOperator<String> mirrorTopic;
    private final int maxRecords;
    private final SextantMetrics metrics;
    private final Map<SyncInterval, Verdict> verdicts = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<SyncInterval, Verdict> eldest) {
            return size() > KEPT_VERDICTS;
        }
    };
    /** Asked and not judged yet: waiting in {@code ready}, being read, or waiting to be tried again. */
    private final Set<SyncInterval> queued = ConcurrentHashMap.newKeySet();
    /** Intervals waiting for the check thread, oldest first; guarded by itself. */
    private final ArrayDeque<SyncInterval> ready = new ArrayDeque<>();
    /** A batch is being checked or its task is queued; guarded by {@code ready}. */
    private boolean checking;
    /**
     * Topics whose read was denied and not allowed since: logged once each, counted by a gauge (the ACLs from
     * {@code config acls} grant Read on the topics mirrored when it ran, so a topic mirrored later lands here).
     */
    private final Set<String> denied = ConcurrentHashMap.newKeySet();
    /** Proven intervals in the order proven; {@code provenCount} counts every one ever, the list keeps the newest. */
    private final List<SyncInterval> proofs = new ArrayList<>();
    private long provenCount;
    private final ScheduledThreadPoolExecutor thread;
    /** Set once by the first {@link #close}: no check reads any more. */
    private final AtomicBoolean closing = new AtomicBoolean();
    /** Done when the check thread closed the readers; failed with what their close threw. */
    private final CompletableFuture<Void> readersClosed = new CompletableFuture<>();

    /**
     * Checks on a thread of its own; {@link #verdict} never waits.
     *
     * @param mirrorTopic the mirror's name of a source topic (the replication policy)
     * @param maxRecords  the longest interval read, in upstream offsets
     */
    public IntervalProofs(RecordRanges source, RecordRanges destination, UnaryOperator<String> mirrorTopic,
                          int maxRecords, SextantMetrics metrics) {
        this(source, destination, mirrorTopic, maxRecords, metrics, false);
    }

    private IntervalProofs(RecordRanges source, RecordRanges destination, UnaryOperator<String> mirrorTopic,
                           int maxRecords, SextantMetrics metrics, boolean onCallerThread) {
        this.source = source;
        this.destination = destination;
        this.mirrorTopic = mirrorTopic;
        this.maxRecords = maxRecords;
        this.metrics = metrics;
        this.thread = onCallerThread ? null : new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "sextant-interval-proofs");
            t.setDaemon(true);
            return t;
        });
        if (!onCallerThread) {
            // retries waiting when the instance stops are dropped, so the readers' close is the thread's last task
            thread.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
            metrics.intervalsQueued(() -> queued.size());
            metrics.intervalTopicsDenied(() -> denied.size());
        }
    }

    /**
     * Checks on the caller's thread: {@link #verdict} reads the interval before it answers (once per interval),
     * and a read that fails or runs out of time answers {@link Verdict#UNKNOWN}. For one-off commands (the
     * failover command), never for the stream threads.
     */
    public static IntervalProofs onCallerThread(RecordRanges source, RecordRanges destination,
                                                UnaryOperator<String> mirrorTopic, int maxRecords,
                                                SextantMetrics metrics) {
        return new IntervalProofs(source, destination, mirrorTopic, maxRecords, metrics, true);
    }

    @Override
    public Verdict verdict(OffsetSyncPoint lower, OffsetSyncPoint upper) {
        SyncInterval interval = new SyncInterval(lower, upper);
        Verdict known;
        boolean first = false;
        synchronized (verdicts) { // with record(): a verdict kept just now is seen here, never checked twice
            known = verdicts.get(interval);
            if (known == null && thread != null) {
                first = queued.add(interval);
            }
        }
        if (known != null) {
            return known;
        }
        if (thread == null) {
            IntervalBatch alone = new IntervalBatch(maxRecords);
            boolean read = alone.offer(interval) == IntervalBatch.Offer.TAKEN;
            checkQuietly(read ? List.of() : List.of(interval), alone);
            synchronized (verdicts) {
                return verdicts.getOrDefault(interval, Verdict.UNKNOWN);
            }
        }
        if (first) {
            enqueue(List.of(interval));
        }
        return Verdict.UNKNOWN;
    }

    /** Queues intervals for the check thread, which reads those queued together at once ({@link #checkNext}). */
    private void enqueue(Collection<SyncInterval> intervals) {
        boolean start;
        synchronized (ready) {
            ready.addAll(intervals);
            start = !checking;
            checking = true;
        }
        if (start) {
            runOnCheckThread(this::checkNext);
        }
    }

    private void retryLater(Collection<SyncInterval> intervals) {
        if (thread == null || intervals.isEmpty()) {
            return; // on the caller's thread: no retry, the answer is unknown
        }
        List<SyncInterval> later = List.copyOf(intervals);
        try {
            thread.schedule(() -> enqueue(later), RETRY_MS, TimeUnit.MILLISECONDS);
        } catch (RuntimeException closed) {
            queued.removeAll(later);
        }
    }

    private void runOnCheckThread(Runnable task) {
        try {
            thread.execute(task);
        } catch (RuntimeException closed) {
            synchronized (ready) {
                queued.removeAll(ready);
                ready.clear();
            }
        }
    }

    /**
     * One batch: queued intervals, oldest first, that {@link IntervalBatch} reads together, up to
     * {@link #BATCH_INTERVALS}, looking at most {@link #BATCH_SCAN} deep; those it cannot take keep their place, so
     * a partition with a long backlog (a lagging consumer's intervals) does not hold back the others. Then the next
     * batch, as a task of its own, so retries due meanwhile are queued between batches.
     */
    private void checkNext() {
        IntervalBatch batch = new IntervalBatch(maxRecords);
        List<SyncInterval> tooLong = new ArrayList<>();
        synchronized (ready) {
            Iterator<SyncInterval> it = ready.iterator();
            for (int seen = 0; it.hasNext() && seen < BATCH_SCAN && batch.size() < BATCH_INTERVALS; seen++) {
                SyncInterval interval = it.next();
                IntervalBatch.Offer offer = batch.offer(interval);
                if (offer != IntervalBatch.Offer.LATER) {
                    it.remove();
                }
                if (offer == IntervalBatch.Offer.TOO_LONG) {
                    tooLong.add(interval);
                }
            }
        }
        List<SyncInterval> again = checkQuietly(tooLong, batch);
        boolean more;
        synchronized (ready) {
            for (int i = again.size() - 1; i >= 0; i--) {
                ready.addFirst(again.get(i));
            }
            more = !ready.isEmpty();
            checking = more;
        }
        if (more) {
            runOnCheckThread(this::checkNext);
        }
    }

    /**
     * Intervals proven since the caller last saw {@code seen} proofs ({@link #proven()} then); empty when the caller
     * fell so far behind that the kept proofs no longer reach back: it should then re-plan every bounded position.
     */
    public synchronized Optional<List<SyncInterval>> provenSince(long seen) {
        long missed = provenCount - seen;
        if (missed > proofs.size()) {
            return Optional.empty();
        }
        return Optional.of(List.copyOf(proofs.subList(proofs.size() - (int) missed, proofs.size())));
    }

    /** Proofs so far, ever. */
    public synchronized long proven() {
        return provenCount;
    }

    /**
     * Judges the intervals too long to read and reads the batch; returns the intervals of the batch to read again at
     * once (a failure named other partitions).
     */
    private List<SyncInterval> checkQuietly(List<SyncInterval> tooLong, IntervalBatch batch) {
        if (closing.get()) {
            return List.of(); // queued before the stop: the readers close after it
        }
        tooLong.forEach(interval -> record(interval, Verdict.UNKNOWN)); // keeps the bounded rule
        List<SyncInterval> reading = batch.taken();
        try {
            IntervalBatch.Outcome read = batch.read(source, destination, mirrorTopic, metrics);
            read.topics().forEach(this::readable); // before the verdicts: whoever sees one sees the grant too
            read.judged().forEach(this::record);
            retryLater(read.late());
        } catch (TopicAuthorizationException refused) {
            if (denied.addAll(refused.unauthorizedTopics())) {
                log.warn("Reading {} to prove intervals between offset syncs was denied: grant Read on them (on the "
                        + "source cluster for source topics, the destination for mirrors; 'sextant config acls' "
                        + "lists the topics mirrored now, or with --all-topics-read every topic), or set "
                        + "translation.interpolation=unverified or off. Until then commits between their syncs keep "
                        + "the bounded rule.", refused.unauthorizedTopics());
            }
            return unreadable(reading, IntervalBatch.onTopics(refused.unauthorizedTopics(), mirrorTopic), null);
        } catch (OffsetOutOfRangeException gone) {
            return unreadable(reading,
                    IntervalBatch.onPartitions(gone.offsetOutOfRangePartitions().keySet(), mirrorTopic), gone);
        } catch (AuthorizationException gone) {
            log.info("Offset syncs of {} intervals: the records cannot be read ({}); they keep the bounded rule",
                    reading.size(), gone.toString());
            reading.forEach(interval -> record(interval, null));
        } catch (KafkaException | IllegalStateException e) {
            if (closing.get()) {
                return List.of(); // the read was woken up by the stop (WakeupException): nothing to try again
            }
            log.debug("Offset syncs of {} intervals: the records could not be read, trying again in {} ms",
                    reading.size(), RETRY_MS, e);
            retryLater(reading);
        }
        return List.of();
    }

    /**
     * After a read failed for some of the batch's partitions: the intervals {@code hit} names keep the bounded rule;
     * the others are read again at once. If the failure named none of them, they keep the bounded rule too, so a
     * failure that names no partition cannot make the same batch read forever.
     */
    private List<SyncInterval> unreadable(List<SyncInterval> reading, Predicate<SyncInterval> hit, Exception gone) {
        List<SyncInterval> others = reading.stream().filter(hit.negate()).toList();
        List<SyncInterval> judged = others.size() == reading.size() ? reading
                : reading.stream().filter(hit).toList();
        for (SyncInterval interval : judged) {
            if (gone != null) {
                log.info("Offset syncs {} -> {}: the records cannot be read ({}); the interval keeps the bounded "
                        + "rule", interval.lower(), interval.upper(), gone.toString());
            }
            record(interval, null);
        }
        return judged == reading ? List.of() : others;
    }

    /** Both clusters let the topic's records be read: a denial logged before was granted since. */
    private void readable(String sourceTopic) {
        if (denied.isEmpty()) {
            return;
        }
        boolean wasDenied = denied.remove(sourceTopic);
        wasDenied |= denied.remove(mirrorTopic.apply(sourceTopic));
        if (wasDenied) {
            log.info("Reading {} to prove intervals between offset syncs is allowed now", sourceTopic);
        }
    }

    /** Keeps the outcome ({@code null}: unreadable, kept as unknown) and counts it. */
    private void record(SyncInterval interval, Verdict verdict) {
        Verdict kept = verdict == null ? Verdict.UNKNOWN : verdict;
        synchronized (verdicts) {
            verdicts.put(interval, kept);
            queued.remove(interval);
        }
        metrics.intervalChecked(verdict == null || verdict == Verdict.UNKNOWN ? "unverifiable"
                : verdict.name().toLowerCase(Locale.ROOT));
        if (kept == Verdict.PROVEN) {
            synchronized (this) {
                proofs.add(interval);
                provenCount++;
                if (proofs.size() > KEPT_PROOFS) {
                    proofs.subList(0, proofs.size() - KEPT_PROOFS / 2).clear();
                }
            }
        } else if (kept == Verdict.REFUTED) {
            log.info("Offset syncs {} -> {}: the records inside differ between the clusters (a skipped record and a "
                    + "duplicate, or a rewritten mirror); the interval keeps the bounded rule",
                    interval.lower(), interval.upper());
        }
    }

    /**
     * Stops the checks and closes the readers on the check thread, once they can no longer be in use; returns when
     * they are closed, or after {@link #CLOSE_WAIT_MS}. Any thread, any number of times: a second caller (a shutdown
     * hook beside the main thread) waits for the same close.
     */
    @Override
    public void close() {
        if (thread == null) {
            closeReaders(); // the caller's thread is the one that read
            return;
        }
        if (closing.compareAndSet(false, true)) {
            // the check in progress ends at its read; those queued behind it return at once, before the close
            source.wakeup();
            destination.wakeup();
            thread.execute(() -> {
                try {
                    closeReaders();
                    readersClosed.complete(null);
                } catch (RuntimeException e) {
                    readersClosed.completeExceptionally(e);
                }
            });
            thread.shutdown();
        }
        try {
            readersClosed.get(CLOSE_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            // closing them here could meet the check thread inside a consumer: they close when it gets there
            log.warn("The interval proofs' readers were not closed within {} ms of the stop; the check thread "
                    + "closes them when its read ends", CLOSE_WAIT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void closeReaders() {
        try {
            source.close();
        } finally {
            destination.close();
        }
    }
}
