package dev.sextant.source;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * {@link UncommittedRecords} with one plain consumer (no group: it assigns and seeks, and commits nothing), created on
 * first use. Not thread-safe, like the consumer: one caller thread.
 */
public final class KafkaUncommittedRecords implements UncommittedRecords {

    /** The most time one read may take: a read is retried at the next round, never waited on for long. */
    static final Duration READ_TIMEOUT = Duration.ofSeconds(5);

    private final Map<String, Object> config;
    private KafkaConsumer<byte[], byte[]> consumer;

    /** @param clientConfig the source cluster's client settings (bootstrap, security) */
    public KafkaUncommittedRecords(Map<String, Object> clientConfig) {
        this.config = new HashMap<>(clientConfig);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.EXCLUDE_INTERNAL_TOPICS_CONFIG, false);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "sextant-uncommitted-reader");
    }

    @Override
    public List<ConsumerRecord<byte[], byte[]>> read(TopicPartition partition, long from, long to, int max) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        if (from >= to || max <= 0) {
            return out;
        }
        KafkaConsumer<byte[], byte[]> reader = consumer();
        reader.assign(List.of(partition));
        reader.seek(partition, from);
        long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
        while (out.size() < max && reader.position(partition) < to && System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> record : reader.poll(Duration.ofMillis(200))) {
                if (record.offset() < to && out.size() < max) {
                    out.add(record);
                }
            }
        }
        return out;
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        if (consumer == null) {
            consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        }
        return consumer;
    }

    @Override
    public void close() {
        if (consumer != null) {
            consumer.close(Duration.ofSeconds(5));
        }
    }
}
