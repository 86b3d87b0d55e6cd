package dev.sextant.demo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The demo's traffic on the source cluster: a producer writing to a topic at a steady rate, a consumer group that
 * keeps up and one that falls behind. Each runs on its own thread until {@link #close()}.
 */
public final class DemoWorkload implements AutoCloseable {

    private final Map<String, Object> clientConfig;
    private final String topic;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();

    public DemoWorkload(Map<String, Object> clientConfig, String topic) {
        this.clientConfig = clientConfig;
        this.topic = topic;
    }

    /** Produces about {@code perSecond} records a second. */
    public DemoWorkload producer(int perSecond) {
        return start("demo-producer", () -> {
            Map<String, Object> props = new HashMap<>(clientConfig);
            props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                    new StringSerializer())) {
                long sent = 0;
                long startNanos = System.nanoTime();
                while (running.get()) {
                    long due = (System.nanoTime() - startNanos) * perSecond / 1_000_000_000L;
                    for (; sent < due; sent++) {
                        producer.send(new ProducerRecord<>(topic, Long.toString(sent), "order-" + sent));
                    }
                    pause(20);
                }
            }
        });
    }

    /**
     * A consumer group reading at most {@code perSecond} records a second and committing every second; a rate
     * below the producer's makes a lagging group.
     */
    public DemoWorkload consumerGroup(String group, int perSecond) {
        return start("demo-" + group, () -> {
            Map<String, Object> props = new HashMap<>(clientConfig);
            props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
            props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            props.put(ConsumerConfig.AUTO_COMMIT_INTERVAL_MS_CONFIG, 1_000);
            props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Math.max(1, perSecond / 10));
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                    new StringDeserializer())) {
                consumer.subscribe(List.of(topic));
                while (running.get()) {
                    consumer.poll(Duration.ofMillis(100));
                    pause(100); // at most max.poll.records every 100 ms
                }
            }
        });
    }

    private DemoWorkload start(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
        threads.add(thread);
        return this;
    }

    private void pause(long millis) {
        try {
            Thread.sleep(millis); // pacing of the producer, not a wait for a condition
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running.set(false);
        }
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        for (Thread thread : threads) {
            thread.join(10_000);
        }
    }
}
