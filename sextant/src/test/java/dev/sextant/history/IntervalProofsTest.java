package dev.sextant.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.metrics.SextantMetrics;
import dev.sextant.source.KafkaRecordRanges;
import dev.sextant.source.RecordRange;
import dev.sextant.source.RecordRanges;
import dev.sextant.testing.FakeRecordRanges;
import dev.sextant.testing.LoggedExceptions;
import dev.sextant.testing.SilentBroker;
import dev.sextant.testing.TwoStops;
import dev.sextant.testkit.Await;
import dev.sextant.translate.IntervalEvidence.Verdict;
import dev.sextant.translate.OffsetSyncPoint;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class IntervalProofsTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final OffsetSyncPoint LOWER = new OffsetSyncPoint("orders", 0, 100, 1000);
    private static final OffsetSyncPoint UPPER = new OffsetSyncPoint("orders", 0, 200, 1100);

    private final FakeRecordRanges source = new FakeRecordRanges();
    private final FakeRecordRanges destination = new FakeRecordRanges();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private IntervalProofs proofs;

    private IntervalProofs proofs(int maxRecords) {
        proofs = new IntervalProofs(source, destination, topic -> "src." + topic, maxRecords,
                new SextantMetrics(registry));
        return proofs;
    }

    @AfterEach
    void close() {
        if (proofs != null) {
            proofs.close();
        }
    }

    private double counted(String verdict) {
        return registry.counter("sextant.offset.sync.intervals", "verdict", verdict).count();
    }

    @Test
    void anIntervalIsReadOnceOnEachClusterAndItsProofIsAnnounced() {
        destination.bases.put(new TopicPartition("src.orders", 0), 900L); // the mirror holds v<n> at n + 900
        IntervalProofs proofs = proofs(10_000);

        assertEquals(Verdict.UNKNOWN, proofs.verdict(LOWER, UPPER));
        Await.until(WAIT, "the interval is proven", () -> proofs.verdict(LOWER, UPPER) == Verdict.PROVEN);
        proofs.verdict(LOWER, UPPER);

        assertEquals(1, source.reads.get());
        assertEquals(1, destination.reads.get());
        assertEquals(1, proofs.proven());
        assertEquals(List.of(new SyncInterval(LOWER, UPPER)), proofs.provenSince(0).orElseThrow());
        assertEquals(List.of(), proofs.provenSince(1).orElseThrow());
        assertEquals(1.0, counted("proven"));
        assertEquals(101.0, registry.counter("sextant.offset.sync.interval.records.read", "cluster", "source")
                .count());
    }

    /**
     * Syncs arriving on many partitions at once: the intervals queued while a read is in progress are read together,
     * one stretch per partition on each cluster, not two reads each (at 64 partitions a read per interval fell
     * behind the syncs, and the commits inside the intervals not proven yet kept the bounded rule).
     */
    @Test
    void intervalsQueuedDuringAReadAreReadTogetherOneStretchPerPartition() {
        for (int p = 0; p < 3; p++) {
            destination.bases.put(new TopicPartition("src.orders", p), 900L);
        }
        source.hold = new CountDownLatch(1);
        IntervalProofs proofs = proofs(10_000);
        proofs.verdict(LOWER, UPPER); // its read waits for the hold
        Await.until(WAIT, "the first read under way", () -> source.started.get() == 1);
        List<OffsetSyncPoint[]> next = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            for (int k = 0; k < 4; k++) { // four consecutive intervals of partition p
                next.add(new OffsetSyncPoint[] {new OffsetSyncPoint("orders", p, 200 + 50 * k, 1100 + 50 * k),
                    new OffsetSyncPoint("orders", p, 250 + 50 * k, 1150 + 50 * k)});
            }
        }
        next.forEach(pair -> assertEquals(Verdict.UNKNOWN, proofs.verdict(pair[0], pair[1])));
        source.hold.countDown();

        Await.until(WAIT, "every interval proven", () -> proofs.proven() == 13);
        next.forEach(pair -> assertEquals(Verdict.PROVEN, proofs.verdict(pair[0], pair[1])));
        assertEquals(1 + 3, source.reads.get(), "the first read, then one per partition");
        assertEquals(1 + 3, destination.reads.get());
        assertEquals(101.0 + 3 * 201, registry.counter("sextant.offset.sync.interval.records.read",
                "cluster", "source").count(), "each partition's stretch read once, its shared syncs once");
    }

    /**
     * A partition with a long backlog of intervals too far apart to read together (a lagging consumer's) does not
     * hold back another partition's interval queued behind it: each batch looks past what it cannot take.
     */
    @Test
    void aPartitionsBacklogDoesNotHoldBackAnotherPartition() {
        TopicPartition other = new TopicPartition("orders", 1);
        source.hold = new CountDownLatch(1);
        IntervalProofs proofs = proofs(10_000);
        proofs.verdict(LOWER, UPPER);
        Await.until(WAIT, "the first read under way", () -> source.started.get() == 1);
        int backlog = IntervalProofs.BATCH_INTERVALS + 100;
        for (int k = 0; k < backlog; k++) { // far apart: one batch each
            long lower = 10_000 + 1_000L * k;
            proofs.verdict(new OffsetSyncPoint("orders", 0, lower, lower),
                    new OffsetSyncPoint("orders", 0, lower + 50, lower + 50));
        }
        OffsetSyncPoint otherLower = new OffsetSyncPoint("orders", 1, 100, 100);
        OffsetSyncPoint otherUpper = new OffsetSyncPoint("orders", 1, 150, 150);
        proofs.verdict(otherLower, otherUpper);
        source.hold.countDown();

        Await.until(WAIT, "every interval judged", () -> counted("proven") + counted("refuted") == backlog + 2);
        assertTrue(source.readLog.indexOf(other) <= 2, "read in the batch after the first, not after the backlog: "
                + "read " + source.readLog.indexOf(other) + "th");
    }

    /** A read denied on one topic of a batch judges that topic's intervals; the others are read again and proven. */
    @Test
    void aTopicDeniedInABatchKeepsTheOthersReadable() {
        destination.bases.put(new TopicPartition("src.orders", 0), 900L);
        destination.bases.put(new TopicPartition("src.payments", 0), 900L);
        source.hold = new CountDownLatch(1);
        IntervalProofs proofs = proofs(10_000);
        proofs.verdict(LOWER, UPPER);
        Await.until(WAIT, "the first read under way", () -> source.started.get() == 1);
        OffsetSyncPoint ordersNext = new OffsetSyncPoint("orders", 0, 300, 1200);
        OffsetSyncPoint paymentsLower = new OffsetSyncPoint("payments", 0, 100, 1000);
        OffsetSyncPoint paymentsUpper = new OffsetSyncPoint("payments", 0, 200, 1100);
        proofs.verdict(UPPER, ordersNext);
        proofs.verdict(paymentsLower, paymentsUpper);
        source.deniedTopics = Set.of("payments");
        source.hold.countDown();

        Await.until(WAIT, "every interval judged", () -> counted("proven") + counted("unverifiable") == 3.0);
        assertEquals(Verdict.PROVEN, proofs.verdict(UPPER, ordersNext));
        assertEquals(Verdict.UNKNOWN, proofs.verdict(paymentsLower, paymentsUpper));
        assertEquals(1.0, counted("unverifiable"));
    }

    @Test
    void recordsThatDifferRefuteTheInterval() {
        destination.bases.put(new TopicPartition("src.orders", 0), 901L); // shifted by one
        IntervalProofs proofs = proofs(10_000);

        proofs.verdict(LOWER, UPPER);
        Await.until(WAIT, "the interval is refuted", () -> proofs.verdict(LOWER, UPPER) == Verdict.REFUTED);
        assertEquals(0, proofs.proven());
        assertEquals(1.0, counted("refuted"));
    }

    @Test
    void anIntervalLongerThanTheLimitIsNotRead() {
        IntervalProofs proofs = proofs(50);

        proofs.verdict(LOWER, UPPER);
        Await.until(WAIT, "the interval is judged", () -> counted("unverifiable") == 1.0);
        assertEquals(Verdict.UNKNOWN, proofs.verdict(LOWER, UPPER));
        assertEquals(0, source.reads.get());
    }

    @Test
    void recordsGoneOrDeniedKeepTheBoundedRuleWithoutReadingAgain() {
        source.failure = new OffsetOutOfRangeException("deleted", Map.of());
        IntervalProofs proofs = proofs(10_000);
        proofs.verdict(LOWER, UPPER);
        Await.until(WAIT, "the interval is judged", () -> counted("unverifiable") == 1.0);

        source.failure = new TopicAuthorizationException(Set.of("orders"));
        OffsetSyncPoint next = new OffsetSyncPoint("orders", 0, 200, 1100);
        OffsetSyncPoint after = new OffsetSyncPoint("orders", 0, 300, 1200);
        proofs.verdict(next, after);
        Await.until(WAIT, "the second interval is judged", () -> counted("unverifiable") == 2.0);

        assertEquals(Verdict.UNKNOWN, proofs.verdict(LOWER, UPPER));
        assertEquals(Verdict.UNKNOWN, proofs.verdict(next, after));
        assertEquals(2, source.reads.get());
    }

    /**
     * A topic mirrored after the ACLs were printed is denied: its interval keeps the bounded rule, nothing throws,
     * and the gauge counts the topic until a read of it goes through again.
     */
    @Test
    void aDeniedTopicIsCountedUntilItIsReadAgain() {
        destination.bases.put(new TopicPartition("src.orders", 0), 900L);
        source.failure = new TopicAuthorizationException(Set.of("orders"));
        IntervalProofs proofs = proofs(10_000);
        proofs.verdict(LOWER, UPPER);
        Await.until(WAIT, "the interval is judged", () -> counted("unverifiable") == 1.0);
        assertEquals(Verdict.UNKNOWN, proofs.verdict(LOWER, UPPER));
        assertEquals(1.0, registry.get("sextant.offset.sync.interval.topics.denied").gauge().value());

        source.failure = null; // granted
        OffsetSyncPoint next = new OffsetSyncPoint("orders", 0, 300, 1200);
        proofs.verdict(UPPER, next);
        Await.until(WAIT, "the next interval is proven", () -> proofs.verdict(UPPER, next) == Verdict.PROVEN);
        assertEquals(0.0, registry.get("sextant.offset.sync.interval.topics.denied").gauge().value());
    }

    @Test
    void aReadThatFailsIsTriedAgain() {
        destination.bases.put(new TopicPartition("src.orders", 0), 900L);
        source.failure = new TimeoutException("slow");
        IntervalProofs proofs = proofs(10_000);

        proofs.verdict(LOWER, UPPER);
        Await.until(WAIT, "a first read", () -> source.reads.get() >= 1);
        source.failure = null;
        Await.until(Duration.ofMillis(IntervalProofs.RETRY_MS).plus(WAIT), "the interval is proven on a retry",
                () -> proofs.verdict(LOWER, UPPER) == Verdict.PROVEN);
        assertTrue(source.reads.get() >= 2);
    }

    /**
     * {@code sextant run} on SIGTERM: its shutdown hook and its main thread both stop the instance, while the check
     * thread waits in a read on a broker that does not answer. A Kafka consumer allows one thread in, so a reader
     * closed by either of them then threw ConcurrentModificationException. The stop must neither throw nor log an
     * exception, must not wait out the read, and must close the reader.
     */
    @Test
    void twoStopsDuringAReadAreQuietEndTheReadAndCloseTheReader() throws Exception {
        try (SilentBroker silent = new SilentBroker(); LoggedExceptions logged = LoggedExceptions.record()) {
            Map<String, Object> client = Map.of("bootstrap.servers", silent.bootstrap());
            Duration readTimeout = Duration.ofMinutes(2); // only a wakeup ends the read in time
            proofs = new IntervalProofs(new KafkaRecordRanges(client, "sextant-test-source", "none", readTimeout),
                    new KafkaRecordRanges(client, "sextant-test-destination", "none", readTimeout),
                    topic -> "src." + topic, 10_000, new SextantMetrics(registry));
            proofs.verdict(LOWER, UPPER);
            Await.until(WAIT, "the check reading on the source", () -> silent.accepted() > 0);

            long started = System.nanoTime();
            List<Throwable> thrown = TwoStops.run(proofs::close, readTimeout);
            long stopMs = (System.nanoTime() - started) / 1_000_000;

            assertEquals(List.of(), thrown, "what the stops threw");
            assertEquals(List.of(), logged.all(), "what was logged with an exception");
            assertTrue(stopMs < WAIT.toMillis(), "the read was waited out: " + stopMs + " ms");
            Await.until(WAIT, "the reader's connection closed", () -> silent.open() == 0);
        }
    }

    /** A Kafka consumer allows one thread in: the one that reads closes the readers, not the caller of close. */
    @Test
    void theReadersAreClosedOnTheThreadThatReads() {
        Set<String> readOn = ConcurrentHashMap.newKeySet();
        Set<String> closedOn = ConcurrentHashMap.newKeySet();
        RecordRanges reader = new RecordRanges() {
            @Override
            public RecordRange read(TopicPartition partition, long from, long to, int max) {
                readOn.add(Thread.currentThread().getName());
                return new RecordRange(List.of(), from);
            }

            @Override
            public void close() {
                closedOn.add(Thread.currentThread().getName());
            }
        };
        proofs = new IntervalProofs(reader, reader, topic -> "src." + topic, 10_000, new SextantMetrics(registry));
        proofs.verdict(LOWER, UPPER);
        Await.until(WAIT, "a read", () -> !readOn.isEmpty());

        proofs.close();

        assertEquals(readOn, closedOn);
    }
}
