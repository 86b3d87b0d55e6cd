package dev.sextant.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Two brokers added to a one-node cluster, and a partition on them truncated by an unclean leader election: the
 * replica that led, started again, gives up the records only it had.
 */
class AddedBrokerIT {

    private static final String TOPIC = "truncated";

    @Test
    void anUncleanElectionTruncatesTheReplicaThatLed() throws Exception {
        try (LocalKafkaBroker cluster = LocalKafkaBroker.builder("cluster").start();
             AddedBroker two = AddedBroker.start(cluster, 2);
             AddedBroker three = AddedBroker.start(cluster, 3);
             Admin admin = Admin.create(cluster.clientProperties())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(2, 3)))
                    .configs(Map.of("min.insync.replicas", "1")))).all().get(30, TimeUnit.SECONDS);
            produce(cluster, 0, 10);
            three.stop();
            produce(cluster, 10, 5); // only node 2 has these
            two.stop();
            three.startAgain();
            admin.electLeaders(ElectionType.UNCLEAN, Set.of(new TopicPartition(TOPIC, 0))).all()
                    .get(30, TimeUnit.SECONDS);
            Await.until(Duration.ofSeconds(30), "node 3 leading", () -> leader(admin) == 3);
            produce(cluster, 100, 3);
            two.startAgain();
            Await.until(Duration.ofSeconds(30), "node 2 back in the ISR", () -> isr(admin).size() == 2);
            List<Integer> expected = List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 100, 101, 102);
            assertEquals(expected, read(cluster), "node 3's log, records 10 to 14 lost");
            // node 2 leading again (its preferred replica) serves node 3's log: it truncated its own
            admin.electLeaders(ElectionType.PREFERRED, Set.of(new TopicPartition(TOPIC, 0))).all()
                    .get(30, TimeUnit.SECONDS);
            Await.until(Duration.ofSeconds(30), "node 2 leading", () -> leader(admin) == 2);
            assertEquals(expected, read(cluster), "node 2's log after it came back");
        }
    }

    private static void produce(LocalKafkaBroker cluster, int first, int count) {
        Map<String, Object> props = new HashMap<>(cluster.clientProperties());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            for (int i = first; i < first + count; i++) {
                producer.send(new ProducerRecord<>(TOPIC, 0, null, Integer.toString(i)));
            }
            producer.flush();
        }
    }

    private static int leader(Admin admin) {
        return describe(admin).flatMap(d -> Optional.ofNullable(d.partitions().get(0).leader())).map(n -> n.id())
                .orElse(-1);
    }

    private static List<Integer> isr(Admin admin) {
        return describe(admin).map(d -> d.partitions().get(0).isr().stream().map(n -> n.id()).toList())
                .orElse(List.of());
    }

    private static Optional<TopicDescription> describe(Admin admin) {
        try {
            return Optional.of(admin.describeTopics(List.of(TOPIC)).allTopicNames().get(10, TimeUnit.SECONDS)
                    .get(TOPIC));
        } catch (Exception e) {
            return Optional.empty(); // asked again
        }
    }

    private static List<Integer> read(LocalKafkaBroker cluster) {
        Map<String, Object> props = new HashMap<>(cluster.clientProperties());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<Integer> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            TopicPartition tp = new TopicPartition(TOPIC, 0);
            consumer.assign(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (consumer.position(tp) < end && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    values.add(Integer.parseInt(r.value()));
                }
            }
        }
        return values;
    }
}
