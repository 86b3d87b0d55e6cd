package dev.sextant.demo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The demo's traffic on the source cluster: a producer writing numbered records (a record's value is its offset in
 * its partition, so a consumer on the mirror can tell exactly which source record it reads), consumer groups
 * reading at a chosen pace, and a share group. Each runs on its own thread until {@link #close()}.
 */
public final class DemoWorkload implements AutoCloseable {

    private final Map<String, Object> clientConfig;
    private final String topic;
    private final int partitions;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();
    private final Map<Integer, SortedSet<Long>> shareAcknowledged = new ConcurrentHashMap<>();

    public DemoWorkload(Map<String, Object> clientConfig, String topic, int partitions) {
        this.clientConfig = clientConfig;
        this.topic = topic;
        this.partitions = partitions;
    }

    /** Produces about {@code perSecond} numbered records a second, spread evenly over the partitions. */
    public DemoWorkload producer(int perSecond) {
        return start("demo-producer", () -> {
            Map<String, Object> props = new HashMap<>(clientConfig);
            props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
            props.put(ProducerConfig.ACKS_CONFIG, "all");
            props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                    new StringSerializer())) {
                long sent = 0;
                long startNanos = System.nanoTime();
                while (running.get()) {
                    long due = (System.nanoTime() - startNanos) * perSecond / 1_000_000_000L;
                    for (; sent < due; sent++) {
                        int partition = (int) (sent % partitions);
                        producer.send(new ProducerRecord<>(topic, partition, null, Long.toString(sent / partitions)));
                    }
                    pause(20);
                }
                producer.flush();
            }
        });
    }

    /**
     * A consumer group reading at most {@code perSecond} records a second and committing every second; a rate
     * below the producer's makes a lagging group. It commits what it read when the workload stops.
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
                consumer.commitSync();
            }
        });
    }

    /**
     * A share group acknowledging (ACCEPT) at most {@code perSecond} records a second; the group must start at the
     * earliest offset (group config {@code share.auto.offset.reset=earliest}).
     */
    public DemoWorkload shareGroup(String group, int perSecond) {
        return start("demo-" + group, () -> {
            Map<String, Object> props = new HashMap<>(clientConfig);
            props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
            props.put("share.acknowledgement.mode", "explicit");
            props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Math.max(1, perSecond / 10));
            try (KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(props,
                    new StringDeserializer(), new StringDeserializer())) {
                consumer.subscribe(List.of(topic));
                while (running.get()) {
                    for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
                        consumer.acknowledge(r, AcknowledgeType.ACCEPT);
                        shareAcknowledged.computeIfAbsent(r.partition(), p -> new TreeSet<>()).add(r.offset());
                    }
                    consumer.commitSync();
                    pause(100);
                }
            }
        });
    }

    /**
     * Per partition, the first offset the share group has not acknowledged: everything below was acknowledged, so
     * the effective share start offset. Valid after {@link #close()}.
     */
    public Map<Integer, Long> shareAcknowledgedPrefix() {
        Map<Integer, Long> prefix = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            long next = 0;
            for (long offset : shareAcknowledged.getOrDefault(p, new TreeSet<>())) {
                if (offset != next) {
                    break;
                }
                next++;
            }
            prefix.put(p, next);
        }
        return prefix;
    }

    public Set<Integer> partitions() {
        Set<Integer> all = new TreeSet<>();
        for (int p = 0; p < partitions; p++) {
            all.add(p);
        }
        return all;
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
            Thread.sleep(millis); // pacing of the workload, not a wait for a condition
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running.set(false);
        }
    }

    /** Stops every thread; consumer groups commit what they read, the share group acknowledges what it got. */
    @Override
    public void close() throws InterruptedException {
        running.set(false);
        for (Thread thread : threads) {
            thread.join(15_000);
        }
    }
}
