package dev.sextant.source;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads stretches of partitions of one cluster ({@code read_uncommitted}: aborted records and records of open
 * transactions included) with one plain consumer: no group, it assigns and seeks and commits nothing; created on
 * first use. Not thread-safe, like the consumer: one caller thread, except for {@link #wakeup}.
 */
public final class KafkaRecordRanges implements RecordRanges {

    /**
     * Per fetch: a read wants a stretch of about a hundred records, and a full-size fetch (1 MiB a partition) both
     * allocated that much per read and, at or above half a G1 region, went straight into the old generation.
     */
    static final int FETCH_BYTES = 128 * 1024;
    /** At most this long a fetch waits at the broker for records (Kafka's default is 500 ms). */
    static final int FETCH_WAIT_MS = 50;

    private final Map<String, Object> config;
    private final Duration timeout;
    /** Created by the reading thread; guarded by {@code this} only so that {@link #wakeup} can reach it. */
    private KafkaConsumer<byte[], byte[]> consumer;
    /** A wakeup that came before the consumer: the consumer's first read ends at once. */
    private boolean wakeupPending;

    /**
     * @param clientConfig the cluster's client settings (bootstrap, security)
     * @param clientId     names the reader in the broker's logs and quotas
     * @param reset        {@code auto.offset.reset}: where a read starting below the log start goes; {@code none}
     *                     makes it throw
     *                     {@link org.apache.kafka.clients.consumer.OffsetOutOfRangeException}
     * @param timeout      the most time one read may take
     */
    public KafkaRecordRanges(Map<String, Object> clientConfig, String clientId, String reset,
                             Duration timeout) {
        this.config = new HashMap<>(clientConfig);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.EXCLUDE_INTERNAL_TOPICS_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, reset);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        // a record larger than this still comes whole: the first batch of a fetch always does
        config.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, FETCH_BYTES);
        config.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, FETCH_BYTES);
        // the fetch a poll sends ahead for a partition read to its end waits this long at the broker for records,
        // and holds back the next read's fetch to that broker until it returns (one fetch in flight per broker)
        config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, FETCH_WAIT_MS);
        this.timeout = timeout;
    }

    /** Short of {@code to} when the time allowed ran out or {@code max} was reached. */
    @Override
    public RecordRange read(TopicPartition partition, long from, long to, int max) {
        return readAll(Map.of(partition, new Stretch(from, to, max))).get(partition);
    }

    /**
     * Every stretch with one consumer assigned to all their partitions, so one fetch brings records of many
     * partitions of a broker; a partition whose stretch is read is paused, so no fetch asks for more of it. Each
     * range is short of its end when the time allowed ran out or its {@code max} was reached.
     */
    @Override
    public Map<TopicPartition, RecordRange> readAll(Map<TopicPartition, Stretch> stretches) {
        Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> read = new HashMap<>();
        Map<TopicPartition, Long> reached = new HashMap<>();
        Set<TopicPartition> open = new HashSet<>();
        stretches.forEach((tp, s) -> {
            read.put(tp, new ArrayList<>());
            reached.put(tp, Math.max(s.from(), s.to()));
            if (s.from() < s.to() && s.max() > 0) {
                reached.put(tp, s.from());
                open.add(tp);
            }
        });
        if (!open.isEmpty()) {
            KafkaConsumer<byte[], byte[]> reader = consumer();
            reader.assign(open);
            reader.resume(reader.paused());
            open.forEach(tp -> reader.seek(tp, stretches.get(tp).from()));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!open.isEmpty() && System.nanoTime() < deadline) {
                ConsumerRecords<byte[], byte[]> polled = reader.poll(Duration.ofMillis(200));
                for (TopicPartition tp : polled.partitions()) {
                    Stretch s = stretches.get(tp);
                    List<ConsumerRecord<byte[], byte[]>> out = read.get(tp);
                    for (ConsumerRecord<byte[], byte[]> record : polled.records(tp)) {
                        if (record.offset() < s.to() && out.size() < s.max()) {
                            out.add(record);
                        }
                    }
                }
                for (Iterator<TopicPartition> it = open.iterator(); it.hasNext(); ) {
                    TopicPartition tp = it.next();
                    Stretch s = stretches.get(tp);
                    List<ConsumerRecord<byte[], byte[]>> out = read.get(tp);
                    long at = out.size() < s.max() ? reader.position(tp) : out.get(out.size() - 1).offset() + 1;
                    reached.put(tp, at);
                    if (at >= s.to() || out.size() >= s.max()) {
                        reader.pause(List.of(tp));
                        it.remove();
                    }
                }
            }
        }
        Map<TopicPartition, RecordRange> ranges = new HashMap<>();
        read.forEach((tp, records) -> ranges.put(tp, new RecordRange(records, reached.get(tp))));
        return ranges;
    }

    private synchronized KafkaConsumer<byte[], byte[]> consumer() {
        if (consumer == null) {
            consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
            if (wakeupPending) {
                consumer.wakeup();
                wakeupPending = false;
            }
        }
        return consumer;
    }

    @Override
    public synchronized void wakeup() {
        if (consumer != null) {
            consumer.wakeup();
        } else {
            wakeupPending = true;
        }
    }

    @Override
    public void close() {
        KafkaConsumer<byte[], byte[]> created;
        synchronized (this) {
            created = consumer;
        }
        if (created != null) {
            created.close(Duration.ofSeconds(5)); // not under the lock: a wakeup meanwhile must not wait for it
        }
    }
}
