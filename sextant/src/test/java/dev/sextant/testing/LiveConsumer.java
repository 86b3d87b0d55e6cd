package dev.sextant.testing;

import dev.sextant.testkit.LocalKafkaBroker;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A consumer subscribed to one topic on its own thread, until closed: a member of its group there. It starts at the
 * log end where its group has no offset, and commits what it read after every poll that returned records.
 */
public final class LiveConsumer implements AutoCloseable {

    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicBoolean assigned = new AtomicBoolean();
    private final AtomicLong commits = new AtomicLong();
    private final Thread thread;

    public LiveConsumer(LocalKafkaBroker cluster, String group, String topic) {
        Map<String, Object> props = new HashMap<>(cluster.clientProperties());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        thread = new Thread(() -> {
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                    new StringDeserializer())) {
                consumer.subscribe(List.of(topic));
                while (running.get()) {
                    if (!consumer.poll(Duration.ofMillis(200)).isEmpty()) {
                        consumer.commitSync();
                        commits.incrementAndGet();
                    }
                    assigned.set(!consumer.assignment().isEmpty());
                }
            }
        }, "live-" + group + "-" + topic);
        thread.start();
    }

    /** True once it was assigned partitions: it is a member of its group. */
    public boolean joined() {
        return assigned.get();
    }

    /** How many times it committed. */
    public long commits() {
        return commits.get();
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join(30_000);
    }
}
