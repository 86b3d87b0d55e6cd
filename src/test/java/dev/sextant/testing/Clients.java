package dev.sextant.testing;

import dev.sextant.local.LocalClusters;
import dev.sextant.local.LocalKafkaBroker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Small, real client operations the integration tests share. */
public final class Clients {

    private Clients() {
    }

    /**
     * Produces {@code perPartition} records to every partition; the value of each record is its offset in a fresh
     * topic, so a consumer on the mirror can tell exactly which source record it reads.
     */
    public static void produceNumbered(LocalKafkaBroker cluster, String topic, int partitions, int perPartition) {
        Map<String, Object> props = new HashMap<>(cluster.clientProperties());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < perPartition; i++) {
                for (int p = 0; p < partitions; p++) {
                    producer.send(new ProducerRecord<>(topic, p, null, Integer.toString(i)));
                }
            }
            producer.flush();
        }
    }

    /** Commits offsets for {@code group} as a consumer that read up to them (a "simple", assign-mode group). */
    public static void commit(LocalKafkaBroker cluster, String group, String topic, Map<Integer, Long> offsets) {
        Map<String, Object> props = new HashMap<>(cluster.clientProperties());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
            offsets.forEach((p, o) -> commit.put(new TopicPartition(topic, p), new OffsetAndMetadata(o)));
            consumer.commitSync(commit);
        }
    }

    /** Committed offsets of a consumer group, by partition of {@code topic}; empty when none. */
    public static Map<Integer, OffsetAndMetadata> committed(LocalClusters clusters, LocalKafkaBroker cluster,
                                                            String group, String topic) {
        try (Admin admin = clusters.admin(cluster)) {
            Map<Integer, OffsetAndMetadata> out = new HashMap<>();
            admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS)
                    .forEach((tp, om) -> {
                        if (om != null && tp.topic().equals(topic)) {
                            out.put(tp.partition(), om);
                        }
                    });
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("cannot read offsets of " + group, e);
        }
    }

    /**
     * Resumes {@code group} on {@code topic} from its committed offsets (auto.offset.reset=none: no committed
     * offset is an error) and reads every partition to its end. Returns the values read, per partition, in order.
     */
    public static Map<Integer, List<Integer>> resumeAndReadToEnd(LocalKafkaBroker cluster, String group, String topic,
                                                                 Map<Integer, Long> endOffsets) {
        Map<String, Object> props = new HashMap<>(cluster.clientProperties());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        Map<Integer, List<Integer>> values = new HashMap<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> tps = new ArrayList<>();
            endOffsets.keySet().forEach(p -> {
                tps.add(new TopicPartition(topic, p));
                values.put(p, new ArrayList<>());
            });
            consumer.assign(tps);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (tps.stream().anyMatch(tp -> consumer.position(tp) < endOffsets.get(tp.partition()))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("could not read " + topic + " to its end");
                }
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    values.get(r.partition()).add(Integer.parseInt(r.value()));
                }
            }
        }
        return values;
    }
}
