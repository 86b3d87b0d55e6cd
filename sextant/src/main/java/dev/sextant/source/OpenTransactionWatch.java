package dev.sextant.source;

import dev.sextant.decode.ConsumerOffsetsDecoder;
import dev.sextant.decode.ConsumerOffsetsRecord;
import dev.sextant.decode.UndecodableRecordException;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.source.SourceOffsets.StableEnd;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps every group syncing while another application's transaction holds a partition of {@code __consumer_offsets}
 * back ({@link StalledPartition}). For a held-back partition it reads the stretch past the open transaction
 * ({@code read_uncommitted}) and takes from it only the commits the group coordinator confirms: a commit is handed to
 * the partition's task when its group's committed offset, read through the Admin API, is the offset the record
 * carries. The coordinator applies a plain commit at once and a transactional one only when its transaction commits,
 * so an open transaction's offsets are not taken (the group keeps its committed ones), and an aborted one's never.
 * Each commit keeps its place in the log: when the transaction ends and the task reads the stretch itself, the same
 * commits change nothing and older ones do not move a position back (the sync engine's rule).
 *
 * <p>One per instance, on its own thread, one round every {@link #ROUND_MS}: one ListOffsets request for the last
 * stable offsets and one for the high watermarks of the partitions this instance's tasks read, and for a held-back
 * partition one read of the new stretch and one batched OffsetFetch for its groups. Tasks {@link #register} their
 * partition and {@link #drain} what was found for it on their own thread. A commit past the open transaction reaches
 * its task about {@link StalledPartition#STALL_MS} plus one or two rounds after it was made.
 *
 * <p>The reader is a Kafka consumer, which allows one thread in: the round's thread reads, and closes it at the stop.
 */
public final class OpenTransactionWatch implements AutoCloseable {

    static final long ROUND_MS = 500;
    /** The most records one round reads of one partition; the rest are read in the next rounds. */
    static final int MAX_RECORDS = 50_000;
    private static final long TIMEOUT_MS = 5_000;
    /** How long {@link #close} waits for the round's thread to close the reader (a bounded close of five seconds). */
    private static final long CLOSE_WAIT_MS = 10_000;
    private static final String TOPIC = "__consumer_offsets";
    private static final Logger log = LoggerFactory.getLogger(OpenTransactionWatch.class);

    /** A commit found past an open transaction, at {@code logOffset} of its partition. */
    public record Commit(ConsumerOffsetsRecord.OffsetCommit commit, long logOffset) {
    }

    private final SourceOffsets source;
    private final UncommittedRecords records;
    private final SextantMetrics metrics;
    private final Clock clock;
    private final Set<Integer> partitions = ConcurrentHashMap.newKeySet();
    private final Map<Integer, ConcurrentLinkedQueue<Commit>> found = new ConcurrentHashMap<>();
    /** The round's thread only. */
    private final Map<Integer, StalledPartition> stalls = new HashMap<>();
    private ScheduledExecutorService thread;
    private ScheduledFuture<?> rounds;
    /** The reader's close on the round's thread, once {@link #close} began. */
    private Future<?> readerClosed;

    /**
     * @param source  the source's offsets (null: the watch never looks, as with identity tests or tools)
     * @param records reads past open transactions
     */
    public OpenTransactionWatch(SourceOffsets source, UncommittedRecords records, SextantMetrics metrics,
                                Clock clock) {
        this.source = source;
        this.records = records;
        this.metrics = metrics;
        this.clock = clock;
    }

    /** A watch that never looks: every task goes by what it reads itself. */
    public static OpenTransactionWatch none() {
        return new OpenTransactionWatch(null, UncommittedRecords.NONE, null, Clock.systemUTC());
    }

    /** Starts the rounds on the watch's own thread. */
    public void start() {
        if (source == null) {
            return;
        }
        thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sextant-open-transactions");
            t.setDaemon(true);
            return t;
        });
        rounds = thread.scheduleWithFixedDelay(this::roundQuietly, ROUND_MS, ROUND_MS, TimeUnit.MILLISECONDS);
    }

    /** A task reads this partition of {@code __consumer_offsets}: it is watched. */
    public void register(int partition) {
        partitions.add(partition);
    }

    /** The task was closed: the partition is no longer watched here, and what was found for it is dropped. */
    public void unregister(int partition) {
        partitions.remove(partition);
        found.remove(partition);
    }

    /** The commits found past an open transaction on the partition since the last call, oldest first. */
    public List<Commit> drain(int partition) {
        ConcurrentLinkedQueue<Commit> queue = found.get(partition);
        List<Commit> out = new ArrayList<>();
        if (queue != null) {
            for (Commit c = queue.poll(); c != null; c = queue.poll()) {
                out.add(c);
            }
        }
        return out;
    }

    private void roundQuietly() {
        try {
            round();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | ExecutionException | TimeoutException e) {
            log.debug("Cannot look for open transactions on {} now; next round in {} ms", TOPIC, ROUND_MS, e);
        }
    }

    /** One round, on the calling thread: the watch's, or a test's. */
    void round() throws InterruptedException, ExecutionException, TimeoutException {
        if (source == null) {
            return;
        }
        Set<Integer> watched = Set.copyOf(partitions);
        stalls.keySet().retainAll(watched);
        if (watched.isEmpty()) {
            return;
        }
        Set<TopicPartition> tps = watched.stream().map(p -> new TopicPartition(TOPIC, p)).collect(Collectors.toSet());
        Map<TopicPartition, StableEnd> ends = source.stableEnds(tps).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        long now = clock.millis();
        int held = 0;
        for (Map.Entry<TopicPartition, StableEnd> e : ends.entrySet()) {
            StalledPartition stall = stalls.computeIfAbsent(e.getKey().partition(), p -> new StalledPartition());
            Optional<StalledPartition.Stretch> stretch = stall.observe(e.getValue().lastStable(),
                    e.getValue().highWatermark(), now);
            if (stall.stalled(now)) {
                held++;
            }
            if (stretch.isPresent()) {
                readPast(e.getKey(), stall, stretch.get());
            }
        }
        if (metrics != null) {
            metrics.partitionsHeldByTransactions(held);
        }
    }

    /** Reads the stretch and hands on the commits the coordinator confirms. */
    private void readPast(TopicPartition tp, StalledPartition stall, StalledPartition.Stretch stretch)
            throws InterruptedException, ExecutionException, TimeoutException {
        List<ConsumerRecord<byte[], byte[]>> read = records.read(tp, stretch.from(), stretch.to(), MAX_RECORDS);
        if (read.isEmpty()) {
            return;
        }
        Map<String, Map<TopicPartition, List<Commit>>> byGroup = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : read) {
            try {
                if (ConsumerOffsetsDecoder.decode(record.key(), record.value())
                        instanceof ConsumerOffsetsRecord.OffsetCommit commit) {
                    byGroup.computeIfAbsent(commit.group(), g -> new HashMap<>())
                            .computeIfAbsent(new TopicPartition(commit.topic(), commit.partition()),
                                    p -> new ArrayList<>())
                            .add(new Commit(commit, record.offset()));
                }
            } catch (UndecodableRecordException e) {
                // the task reports it when it reads the record itself
            }
        }
        Map<String, Map<TopicPartition, Long>> committed = byGroup.isEmpty() ? Map.of()
                : source.committed(byGroup.keySet()).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        List<Commit> confirmed = confirmed(byGroup, committed);
        if (!confirmed.isEmpty()) {
            found.computeIfAbsent(tp.partition(), p -> new ConcurrentLinkedQueue<>()).addAll(confirmed);
            if (metrics != null) {
                metrics.commitsPastOpenTransactions(confirmed.size());
            }
        }
        stall.readUpTo(read.get(read.size() - 1).offset() + 1);
    }

    /**
     * Per group and partition, the newest commit in the stretch whose offset is the one the coordinator holds
     * committed; none where it holds another (a transaction still open, an aborted one, or a newer commit not read
     * yet), in log order.
     */
    static List<Commit> confirmed(Map<String, Map<TopicPartition, List<Commit>>> byGroup,
                                  Map<String, Map<TopicPartition, Long>> committed) {
        List<Commit> out = new ArrayList<>();
        byGroup.forEach((group, byPartition) -> byPartition.forEach((tp, commits) -> {
            Long offset = committed.getOrDefault(group, Map.of()).get(tp);
            for (int i = commits.size() - 1; offset != null && i >= 0; i--) {
                if (commits.get(i).commit().offset() == offset) {
                    out.add(commits.get(i));
                    break;
                }
            }
        }));
        out.sort((a, b) -> Long.compare(a.logOffset(), b.logOffset()));
        return out;
    }

    /**
     * Ends the rounds and closes the reader on the round's thread, after the round in progress; returns when it is
     * closed, or after {@link #CLOSE_WAIT_MS}. Any thread, any number of times: a second caller waits for the same
     * close.
     */
    @Override
    public void close() {
        Future<?> closed;
        synchronized (this) {
            if (thread == null) {
                records.close(); // never started: no other thread read
                return;
            }
            if (readerClosed == null) {
                // the round in progress is interrupted (its Admin waits and its read end) and none follows; the
                // interrupt ends with that round, so the reader's close after it runs on a thread not interrupted
                rounds.cancel(true);
                readerClosed = thread.submit(records::close);
                thread.shutdown();
            }
            closed = readerClosed;
        }
        try {
            closed.get(CLOSE_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            log.warn("The reader past open transactions was not closed within {} ms of the stop; the watch's thread "
                    + "closes it when its round ends", CLOSE_WAIT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
