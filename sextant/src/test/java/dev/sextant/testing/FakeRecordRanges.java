package dev.sextant.testing;

import dev.sextant.source.RecordRange;
import dev.sextant.source.RecordRanges;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicAuthorizationException;

/**
 * A cluster whose partitions hold a record at every offset, valued {@code "v<offset - base>"} with a base per
 * partition (0 unless set): a mirror copied one for one has the source's values at offsets shifted by its base.
 */
public final class FakeRecordRanges implements RecordRanges {

    public final Map<TopicPartition, Long> bases = new ConcurrentHashMap<>();
    public final AtomicInteger reads = new AtomicInteger();
    /** Thrown by every read while set. */
    public volatile RuntimeException failure;
    /** Every read waits for it: a test holds reads back to see what happens before they end. */
    public volatile CountDownLatch hold = new CountDownLatch(0);
    /** The partition of every read, in the order they began. */
    public final List<TopicPartition> readLog = Collections.synchronizedList(new ArrayList<>());
    /** Reads begun, counted before they wait for {@link #hold}. */
    public final AtomicInteger started = new AtomicInteger();
    /** Topics whose reads are denied, as a broker without a Read ACL does. */
    public volatile Set<String> deniedTopics = Set.of();

    @Override
    public RecordRange read(TopicPartition partition, long from, long to, int max) {
        started.incrementAndGet();
        readLog.add(partition);
        try {
            hold.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        reads.incrementAndGet();
        RuntimeException fail = failure;
        if (fail != null) {
            throw fail;
        }
        if (deniedTopics.contains(partition.topic())) {
            throw new TopicAuthorizationException(Set.of(partition.topic()));
        }
        long base = bases.getOrDefault(partition, 0L);
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        for (long offset = from; offset < to && out.size() < max; offset++) {
            out.add(new ConsumerRecord<>(partition.topic(), partition.partition(), offset, null,
                    ("v" + (offset - base)).getBytes(StandardCharsets.UTF_8)));
        }
        return new RecordRange(out, out.isEmpty() ? from : out.get(out.size() - 1).offset() + 1);
    }

    @Override
    public void close() {
    }
}
