package dev.sextant.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class FreshReadTest {

    private static final TopicPartition P0 = new TopicPartition("source.orders", 0);
    private static final TopicPartition P1 = new TopicPartition("source.orders", 1);
    private static final Map<TopicPartition, OffsetAndMetadata> READ = Map.of(P0,
            new OffsetAndMetadata(100, "sextant/app t=1 src=110"));

    private final AtomicInteger reads = new AtomicInteger();
    private final AtomicInteger sends = new AtomicInteger();

    private CompletableFuture<String> send(long waitedMs, Map<TopicPartition, OffsetAndMetadata> now) {
        return FreshRead.send(waitedMs, "billing", READ, () -> {
            reads.incrementAndGet();
            return CompletableFuture.completedFuture(now);
        }, () -> {
            sends.incrementAndGet();
            return CompletableFuture.completedFuture("sent");
        });
    }

    @Test
    void aWriteThatDidNotWaitIsSentWithoutAnotherRead() {
        assertEquals("sent", send(FreshRead.RECHECK_AFTER_MS - 1, Map.of()).join());
        assertEquals(0, reads.get());
    }

    @Test
    void aWriteThatWaitedIsSentWhenTheGroupDidNotChange() {
        assertEquals("sent", send(30_000, Map.copyOf(READ)).join());
        assertEquals(1, reads.get());
        assertEquals(1, sends.get());
    }

    @Test
    void aWriteThatWaitedIsNotSentWhenSomeoneCommittedMeanwhile() {
        // a failed-over consumer committed partition 1, which the write does not touch: the group is theirs now
        Map<TopicPartition, OffsetAndMetadata> now = Map.of(P0, READ.get(P0), P1, new OffsetAndMetadata(7));
        Throwable err = send(30_000, now).handle((ok, e) -> e).join();
        assertInstanceOf(DestinationChangedException.class, err.getCause() == null ? err : err.getCause());
        assertEquals(0, sends.get(), "nothing sent");
    }
}
