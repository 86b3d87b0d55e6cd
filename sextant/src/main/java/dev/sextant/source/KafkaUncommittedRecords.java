package dev.sextant.source;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * {@link UncommittedRecords} with one plain consumer (no group: it assigns and seeks, and commits nothing), created on
 * first use. Not thread-safe, like the consumer: one caller thread.
 */
public final class KafkaUncommittedRecords implements UncommittedRecords {

    /** The most time one read may take: a read is retried at the next round, never waited on for long. */
    static final Duration READ_TIMEOUT = Duration.ofSeconds(5);

    private final KafkaRecordRanges ranges;

    /** @param clientConfig the source cluster's client settings (bootstrap, security) */
    public KafkaUncommittedRecords(Map<String, Object> clientConfig) {
        this.ranges = new KafkaRecordRanges(clientConfig, "sextant-uncommitted-reader", "latest",
                READ_TIMEOUT);
    }

    @Override
    public List<ConsumerRecord<byte[], byte[]>> read(TopicPartition partition, long from, long to, int max) {
        return ranges.read(partition, from, to, max).records();
    }

    @Override
    public void close() {
        ranges.close();
    }
}
