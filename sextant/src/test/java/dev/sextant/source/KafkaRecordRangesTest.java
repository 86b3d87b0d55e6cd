package dev.sextant.source;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.sextant.testing.SilentBroker;
import dev.sextant.testkit.Await;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A read that would wait out its time on a silent broker ends at once on a wakeup from another thread. */
class KafkaRecordRangesTest {

    /** Longer than any wait below: only a wakeup ends a read in time. */
    private static final Duration READ_TIMEOUT = Duration.ofMinutes(2);
    private static final TopicPartition ORDERS = new TopicPartition("orders", 0);

    private final SilentBroker broker = new SilentBroker();
    private final KafkaRecordRanges ranges = new KafkaRecordRanges(Map.of("bootstrap.servers", broker.bootstrap()),
            "sextant-test-reader", "none", READ_TIMEOUT);

    @AfterEach
    void close() {
        ranges.close();
        broker.close();
    }

    @Test
    void aWakeupEndsAReadInProgress() {
        CompletableFuture<RecordRange> read = CompletableFuture.supplyAsync(() -> ranges.read(ORDERS, 0, 10, 10));
        Await.until(Duration.ofSeconds(30), "the read waiting on the broker", () -> broker.accepted() > 0);

        ranges.wakeup();

        ExecutionException ended = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(ExecutionException.class, read::get));
        assertInstanceOf(WakeupException.class, ended.getCause());
    }

    @Test
    void aWakeupBeforeTheFirstReadEndsThatRead() {
        ranges.wakeup(); // no consumer yet: the one created for the read must be woken too

        assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(WakeupException.class, () -> ranges.read(ORDERS, 0, 10, 10)));
    }
}
