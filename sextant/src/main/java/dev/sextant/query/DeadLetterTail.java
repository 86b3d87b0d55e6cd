package dev.sextant.query;

import dev.sextant.deadletter.DeadLetterReader;
import dev.sextant.deadletter.DeadLetterRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The newest dead-letter records, kept in memory for {@code GET /v1/conflicts} by one background consumer that reads
 * the topic once from the beginning and then follows it. A request never touches Kafka, so a burst of requests
 * costs no broker work and cannot exhaust connections.
 *
 * <pre>
 *   dead-letter topic ──(one consumer, assigned, no group)──▶ newest {capacity} records ──▶ recent(group, limit)
 * </pre>
 *
 * <p>Invariants: at most {@code capacity} records are kept, the newest by detection time, and at start at most
 * {@code capacity} per partition are read (from that far before the end), so neither grows with the topic; until
 * the first read has reached the end offsets seen at start, {@link #recent} answers 503 (a partial list would look
 * like "no conflicts"); when the topic cannot be read, the tail retries every 5 s and {@link #recent} answers 503
 * with the reason, keeping what it had.
 * The filter by group applies to the kept records only: a group whose last conflict is older than the newest
 * {@code capacity} records of all groups shows none.
 */
public final class DeadLetterTail implements ConflictSource, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterTail.class);
    private static final Duration RETRY = Duration.ofSeconds(5);

    private final Map<String, Object> clientConfig;
    private final String topic;
    private final int capacity;
    /** The newest records by detection time, oldest at the head: partitions are read interleaved. */
    private final PriorityQueue<DeadLetterRecord> kept = new PriorityQueue<>(
            Comparator.comparingLong(DeadLetterRecord::detectedAt));
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Thread thread;
    private volatile DeadLetterReader reader;
    private volatile boolean caughtUp;
    private volatile String problem;

    /** Starts following {@code topic}; {@code clientConfig} is a source-cluster consumer's (no group is used). */
    public DeadLetterTail(Map<String, Object> clientConfig, String topic, int capacity) {
        this.clientConfig = Map.copyOf(clientConfig);
        this.topic = topic;
        this.capacity = capacity;
        this.thread = new Thread(this::follow, "sextant-dead-letter-tail");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public List<DeadLetterRecord> recent(String group, int limit) {
        if (!caughtUp) {
            String why = problem;
            throw QueryException.unavailable(why == null
                    ? "still reading the dead-letter topic " + topic + "; retry"
                    : "cannot read the dead-letter topic " + topic + " (" + why + "); retry", null);
        }
        List<DeadLetterRecord> matching = new ArrayList<>();
        synchronized (kept) {
            for (DeadLetterRecord record : kept) {
                if (group == null || group.equals(record.group())) {
                    matching.add(record);
                }
            }
        }
        matching.sort(Comparator.comparingLong(DeadLetterRecord::detectedAt));
        return List.copyOf(matching.subList(Math.max(0, matching.size() - limit), matching.size()));
    }

    /** True once the first read reached the end of the topic. */
    public boolean caughtUp() {
        return caughtUp;
    }

    private void follow() {
        while (closed.getCount() > 0) {
            try (DeadLetterReader r = new DeadLetterReader(clientConfig, topic)) {
                reader = r;
                if (closed.getCount() == 0) {
                    return;
                }
                // only the newest records can be kept: the rest of a large topic is neither read nor held
                r.startAtMostBeforeEnd(capacity);
                synchronized (kept) {
                    kept.clear();
                }
                r.readToEnd(Duration.ofMinutes(5), record -> {
                    synchronized (kept) {
                        keep(record);
                    }
                });
                caughtUp = true;
                problem = null;
                while (closed.getCount() > 0) {
                    List<DeadLetterRecord> more = r.poll(Duration.ofSeconds(1));
                    synchronized (kept) {
                        more.forEach(this::keep);
                    }
                }
            } catch (WakeupException e) {
                return;
            } catch (RuntimeException e) {
                if (!String.valueOf(e.getMessage()).equals(problem)) {
                    log.warn("Cannot read the dead-letter topic {} for /v1/conflicts; retrying every {} s: {}", topic,
                            RETRY.toSeconds(), e.toString());
                }
                problem = String.valueOf(e.getMessage());
            } finally {
                reader = null;
            }
            try {
                if (closed.await(RETRY.toMillis(), TimeUnit.MILLISECONDS)) {
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void keep(DeadLetterRecord record) {
        kept.add(record);
        if (kept.size() > capacity) {
            kept.poll();
        }
    }

    @Override
    public void close() {
        closed.countDown();
        DeadLetterReader r = reader;
        if (r != null) {
            r.wakeup();
        }
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
