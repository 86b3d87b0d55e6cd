package dev.sextant.cutover;

import dev.sextant.state.CutoverRecord;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Sextant's cutovers topic on the source cluster ({@code <application.id>-cutovers}, compacted, created by the running
 * Sextant): the durable record of which groups are cut over, that every instance reads into its global store. Read
 * whole, written one group at a time and acknowledged by every in-sync replica before a write returns.
 */
final class CutoverLedger implements AutoCloseable {

    private final Map<String, Object> clientConfig;
    private final String topic;
    private final Duration timeout;
    private KafkaProducer<byte[], byte[]> producer;

    CutoverLedger(Map<String, Object> sourceClientConfig, String topic, Duration timeout) {
        this.clientConfig = sourceClientConfig;
        this.topic = topic;
        this.timeout = timeout;
    }

    /**
     * Every group cut over now, by group.
     *
     * @throws IllegalStateException when the topic does not exist (no Sextant of this release ran yet)
     */
    Map<String, CutoverRecord> read() {
        Map<String, Object> config = new HashMap<>(clientConfig);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        Map<String, CutoverRecord> cut = new TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<PartitionInfo> partitions = consumer.partitionsFor(topic, timeout);
            if (partitions == null || partitions.isEmpty()) {
                throw new IllegalStateException("topic " + topic + " does not exist on the source cluster: start "
                        + "Sextant (this release creates it), then run the cutover");
            }
            List<TopicPartition> assigned = partitions.stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(assigned);
            consumer.seekToBeginning(assigned);
            Map<TopicPartition, Long> ends = consumer.endOffsets(assigned, timeout);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (assigned.stream().anyMatch(tp -> consumer.position(tp, timeout) < ends.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read topic " + topic + " to its end within "
                            + timeout.toSeconds() + " s");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.key() == null) {
                        continue;
                    }
                    String group = new String(record.key(), StandardCharsets.UTF_8);
                    if (record.value() == null) {
                        cut.remove(group);
                        continue;
                    }
                    try {
                        cut.put(group, CutoverRecord.fromBytes(record.value()));
                    } catch (IllegalArgumentException e) {
                        // not a record this release reads: the running Sextant skips it too
                    }
                }
            }
        }
        return cut;
    }

    /** Records the group as cut over; returns once the brokers acknowledged it. */
    void record(CutoverRecord cut) {
        send(new ProducerRecord<>(topic, CutoverRecord.key(cut.group()), cut.toBytes()));
    }

    /** Gives the group back to the sync (a tombstone); returns once the brokers acknowledged it. */
    void withdraw(String group) {
        send(new ProducerRecord<>(topic, CutoverRecord.key(group), null));
    }

    private void send(ProducerRecord<byte[], byte[]> record) {
        try {
            producer().send(record).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException("cannot write to " + topic + ": " + e.getCause().getMessage(), e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the source cluster did not acknowledge the write to " + topic
                    + " within " + timeout.toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private KafkaProducer<byte[], byte[]> producer() {
        if (producer == null) {
            Map<String, Object> config = new HashMap<>(clientConfig);
            config.put(ProducerConfig.ACKS_CONFIG, "all");
            config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) Math.max(30_000, timeout.toMillis()));
            config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 30_000);
            producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
        }
        return producer;
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
    }
}
