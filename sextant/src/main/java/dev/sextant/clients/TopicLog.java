package dev.sextant.clients;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
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
 * One topic of one cluster as a log, outside Kafka Streams: read from its start to its end as of the call, and
 * written one record at a time, durably. The one place a command reads or writes Sextant's own topics (the offset-sync
 * history, the cutovers) or reads MirrorMaker 2's offset syncs, as Kafka Connect's {@code KafkaBasedLog} is for its
 * internal topics.
 *
 * <p>Invariants: a read hands over every record below the end offsets taken when it started, in each partition's
 * order, skipping nothing and reading nothing of an open transaction ({@code read_committed}), and ends within the
 * timeout or throws; a write returns only once every in-sync replica has it, through an idempotent producer (a retried
 * send is written once); no group is joined, so a read leaves nothing on the cluster.
 */
public final class TopicLog implements AutoCloseable {

    /** The most records one poll hands over: a read to the end takes many. */
    private static final int MAX_POLL_RECORDS = 10_000;
    private static final Duration POLL = Duration.ofMillis(200);
    /** Kafka's default {@code linger.ms} (4.x), when the client settings do not set one. */
    private static final long DEFAULT_LINGER_MS = 5;

    private final Map<String, Object> clientConfig;
    private final String topic;
    private final String cluster;
    private final Duration timeout;
    private KafkaProducer<byte[], byte[]> producer;

    /**
     * @param clientConfig the cluster's client settings
     * @param cluster      names the cluster in errors ("the source cluster")
     * @param timeout      the longest one read or write waits
     */
    public TopicLog(Map<String, Object> clientConfig, String topic, String cluster, Duration timeout) {
        this.clientConfig = Map.copyOf(clientConfig);
        this.topic = topic;
        this.cluster = cluster;
        this.timeout = timeout;
    }

    public String topic() {
        return topic;
    }

    /** The cluster, as errors name it. */
    public String cluster() {
        return cluster;
    }

    /**
     * Hands every record from the start of the topic to its end, as the end stands now, to {@code sink} (key and
     * value, either may be null).
     *
     * @return false, having read nothing, when the cluster has no such topic
     * @throws IllegalStateException when the topic cannot be read to its end within the timeout
     */
    public boolean readToEnd(BiConsumer<byte[], byte[]> sink) {
        Map<String, Object> props = new HashMap<>(clientConfig);
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, MAX_POLL_RECORDS);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
            if (infos == null || infos.isEmpty()) {
                return false;
            }
            List<TopicPartition> partitions = infos.stream().map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, timeout);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp, timeout) < ends.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read topic " + topic + " on " + cluster
                            + " to its end within " + timeout.toSeconds() + " s");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    sink.accept(record.key(), record.value());
                }
            }
        }
        return true;
    }

    /**
     * Appends one record (a null value is a tombstone); returns once the cluster acknowledged it.
     *
     * @throws IllegalStateException when it is not acknowledged within the timeout, or refused
     */
    public void write(byte[] key, byte[] value) {
        try {
            producer().send(new ProducerRecord<>(topic, key, value)).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime; // an authorization error keeps its type: the command names the ACL
            }
            throw new IllegalStateException("cannot write to " + topic + " on " + cluster + ": "
                    + e.getCause().getMessage(), e);
        } catch (TimeoutException e) {
            throw new IllegalStateException(cluster + " did not acknowledge the write to " + topic + " within "
                    + timeout.toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private KafkaProducer<byte[], byte[]> producer() {
        if (producer == null) {
            producer = new KafkaProducer<>(producerConfig(), new ByteArraySerializer(), new ByteArraySerializer());
        }
        return producer;
    }

    /** The producer's settings: durable ({@code acks=all}, idempotent), each send bounded by the timeout. */
    Map<String, Object> producerConfig() {
        Map<String, Object> config = new HashMap<>(clientConfig);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        int timeoutMs = (int) Math.min(Integer.MAX_VALUE / 2, timeout.toMillis());
        int requestMs = Math.min(timeoutMs, 30_000);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, requestMs);
        // delivery.timeout.ms must cover linger.ms + request.timeout.ms, or the producer refuses the settings
        long lingerMs = Long.parseLong(String.valueOf(config.getOrDefault(ProducerConfig.LINGER_MS_CONFIG,
                DEFAULT_LINGER_MS)));
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) Math.max(timeoutMs, requestMs + lingerMs));
        return config;
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
    }
}
