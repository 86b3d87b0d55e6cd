package dev.sextant.deadletter;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads the dead-letter topic from the beginning without joining a group (it assigns every partition), so reading it
 * leaves no trace on the cluster. Records that are not dead-letter JSON are skipped.
 */
public final class DeadLetterReader implements AutoCloseable {

    private final KafkaConsumer<String, DeadLetterRecord> consumer;
    private final Set<TopicPartition> partitions;

    public DeadLetterReader(Map<String, Object> clientConfig, String topic) {
        Map<String, Object> props = new HashMap<>(clientConfig);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        DeadLetterSerde serde = new DeadLetterSerde();
        this.consumer = new KafkaConsumer<>(props, new StringDeserializer(), (t, data) -> {
            try {
                return serde.deserializer().deserialize(t, data);
            } catch (RuntimeException e) {
                return null;
            }
        });
        this.partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                .map(p -> new TopicPartition(topic, p.partition())).collect(Collectors.toSet());
        if (partitions.isEmpty()) {
            throw new IllegalStateException("Dead-letter topic " + topic + " does not exist on the source cluster");
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** Everything written so far, oldest first. */
    public List<DeadLetterRecord> readToEnd(Duration timeout) {
        List<DeadLetterRecord> out = new ArrayList<>();
        readToEnd(timeout, out::add);
        out.sort(Comparator.comparingLong(DeadLetterRecord::detectedAt));
        return out;
    }

    /** Hands every record up to the end offsets as of now to {@code sink}, in the order they are read. */
    public void readToEnd(Duration timeout, Consumer<DeadLetterRecord> sink) {
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Timed out reading the dead-letter topic");
            }
            poll(Duration.ofMillis(200)).forEach(sink);
        }
    }

    /**
     * Starts each partition at most {@code records} before its end instead of at its beginning: the newest
     * {@code records} of the topic are among them, whatever the topic holds.
     */
    public void startAtMostBeforeEnd(int records) {
        Map<TopicPartition, Long> begin = consumer.beginningOffsets(partitions);
        consumer.endOffsets(partitions).forEach((tp, end) -> consumer.seek(tp, Math.max(begin.get(tp),
                end - records)));
    }

    public List<DeadLetterRecord> poll(Duration timeout) {
        List<DeadLetterRecord> out = new ArrayList<>();
        for (ConsumerRecord<String, DeadLetterRecord> record : consumer.poll(timeout)) {
            if (record.value() != null) {
                out.add(record.value());
            }
        }
        return out;
    }

    /** Makes a {@link #poll} or {@link #readToEnd} blocked in another thread throw {@code WakeupException}. */
    public void wakeup() {
        consumer.wakeup();
    }

    @Override
    public void close() {
        consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
    }
}
