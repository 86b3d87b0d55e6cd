package dev.sextant.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.decode.ConsumerOffsetsRecord;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.testing.CoordinatorRecords;
import dev.sextant.testing.LoggedExceptions;
import dev.sextant.testing.MutableClock;
import dev.sextant.testing.QuietSourceOffsets;
import dev.sextant.testing.SilentBroker;
import dev.sextant.testing.TwoStops;
import dev.sextant.testkit.Await;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;

class OpenTransactionWatchTest {

    private static final TopicPartition COORDINATOR = new TopicPartition("__consumer_offsets", 3);
    private static final TopicPartition ORDERS = new TopicPartition("orders", 0);

    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-03T10:00:00Z"));
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    /** The stretch past the open transaction, as read_uncommitted reads it. */
    private final List<ConsumerRecord<byte[], byte[]>> log = new ArrayList<>();
    /** What the coordinator holds committed, by group. */
    private final Map<String, Map<TopicPartition, Long>> committed = new HashMap<>();
    private final long stable = 10;

    private final SourceOffsets source = new QuietSourceOffsets() {
        @Override
        public CompletableFuture<Map<TopicPartition, StableEnd>> stableEnds(Set<TopicPartition> partitions) {
            long end = log.isEmpty() ? stable : log.get(log.size() - 1).offset() + 1;
            return CompletableFuture.completedFuture(Map.of(COORDINATOR, new StableEnd(stable, end)));
        }

        @Override
        public CompletableFuture<Map<String, Map<TopicPartition, Long>>> committed(Set<String> groups) {
            return CompletableFuture.completedFuture(Map.copyOf(committed));
        }
    };

    private final UncommittedRecords reader = new UncommittedRecords() {
        @Override
        public List<ConsumerRecord<byte[], byte[]>> read(TopicPartition partition, long from, long to, int max) {
            return log.stream().filter(r -> r.offset() >= from && r.offset() < to).limit(max).toList();
        }

        @Override
        public void close() {
        }
    };

    private final OpenTransactionWatch watch = new OpenTransactionWatch(source, reader,
            new SextantMetrics(registry), clock);

    private void commitRecord(String group, long offset) {
        KeyValue<byte[], byte[]> kv = CoordinatorRecords.offsetCommit(group, ORDERS.topic(), ORDERS.partition(),
                offset, clock.millis());
        long at = log.isEmpty() ? stable : log.get(log.size() - 1).offset() + 1;
        log.add(new ConsumerRecord<>(COORDINATOR.topic(), COORDINATOR.partition(), at, kv.key, kv.value));
    }

    private List<Long> drained() {
        return watch.drain(COORDINATOR.partition()).stream().map(c -> c.commit().offset()).toList();
    }

    @Test
    void onlyWhatTheCoordinatorConfirmsIsTakenPastAnOpenTransaction() throws Exception {
        watch.register(COORDINATOR.partition());
        commitRecord("stuck-app", 500); // transactional, still open: the coordinator keeps 300 committed
        commitRecord("other", 600);     // a plain commit behind it: applied by the coordinator at once
        commitRecord("aborted-app", 700); // aborted: never committed
        committed.put("stuck-app", Map.of(ORDERS, 300L));
        committed.put("other", Map.of(ORDERS, 600L));
        committed.put("aborted-app", Map.of(ORDERS, 650L));

        watch.round();
        assertEquals(List.of(), drained(), "not held back long enough yet");
        clock.advance(Duration.ofMillis(StalledPartition.STALL_MS));
        watch.round();
        List<OpenTransactionWatch.Commit> found = watch.drain(COORDINATOR.partition());
        assertEquals(1, found.size());
        ConsumerOffsetsRecord.OffsetCommit commit = found.get(0).commit();
        assertEquals("other", commit.group());
        assertEquals(600L, commit.offset());
        assertEquals(11L, found.get(0).logOffset(), "its place in the log, for the task's ordering");
        assertEquals(1.0, registry.get("sextant.commits.past.open.transactions").counter().count());
        assertEquals(1.0, registry.get("sextant.coordinator.partitions.held").gauge().value());

        commitRecord("other", 610);
        committed.put("other", Map.of(ORDERS, 610L));
        clock.advance(Duration.ofMillis(500));
        watch.round();
        assertEquals(List.of(610L), drained(), "only what is new past the last read");
    }

    @Test
    void aPartitionNoTaskReadsIsNotWatched() throws Exception {
        commitRecord("other", 600);
        committed.put("other", Map.of(ORDERS, 600L));
        watch.round();
        clock.advance(Duration.ofMillis(StalledPartition.STALL_MS));
        watch.round();
        assertEquals(List.of(), drained());
    }

    /**
     * As in {@code sextant run} on SIGTERM, two threads stop the watch while its round reads past a transaction from
     * a broker that does not answer: the reader is a Kafka consumer, which allows one thread in. Neither stop may
     * throw or log an exception, nor wait out the read, and the reader must be closed.
     */
    @Test
    void twoStopsDuringARoundsReadAreQuietEndTheReadAndCloseTheReader() throws Exception {
        SourceOffsets stalled = new QuietSourceOffsets() {
            @Override
            public CompletableFuture<Map<TopicPartition, StableEnd>> stableEnds(Set<TopicPartition> partitions) {
                return CompletableFuture.completedFuture(Map.of(COORDINATOR, new StableEnd(stable, stable + 10)));
            }
        };
        try (SilentBroker silent = new SilentBroker(); LoggedExceptions logged = LoggedExceptions.record()) {
            OpenTransactionWatch running = new OpenTransactionWatch(stalled,
                    new KafkaUncommittedRecords(Map.of("bootstrap.servers", silent.bootstrap())),
                    new SextantMetrics(registry), Clock.systemUTC());
            running.register(COORDINATOR.partition());
            running.start();
            Await.until(Duration.ofSeconds(30), "a round reading past the transaction", () -> silent.accepted() > 0);

            long started = System.nanoTime();
            List<Throwable> thrown = TwoStops.run(running::close, Duration.ofSeconds(30));
            long stopMs = (System.nanoTime() - started) / 1_000_000;

            assertEquals(List.of(), thrown, "what the stops threw");
            assertEquals(List.of(), logged.all(), "what was logged with an exception");
            assertTrue(stopMs < KafkaUncommittedRecords.READ_TIMEOUT.toMillis(), "the read was waited out: " + stopMs
                    + " ms");
            Await.until(Duration.ofSeconds(10), "the reader's connection closed", () -> silent.open() == 0);
        }
    }
}
