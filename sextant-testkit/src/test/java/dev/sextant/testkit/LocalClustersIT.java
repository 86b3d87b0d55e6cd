package dev.sextant.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real thing: two KRaft clusters and MirrorMaker 2 from {@link LocalClustersExtension}. Checks that records
 * are mirrored, and that a classic consumer group and a share group leave the records Sextant reads in
 * {@code __consumer_offsets} and {@code __share_group_state}.
 */
@ExtendWith(LocalClustersExtension.class)
class LocalClustersIT {

    private static final String TOPIC = OrdersTopic.NAME;
    private static final int RECORDS = OrdersTopic.PARTITIONS * OrdersTopic.PER_PARTITION;
    private static final String CLASSIC_GROUP = "it-classic-orders";
    private static final String SHARE_GROUP = "it-share-orders";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @BeforeAll
    static void produceOrders(LocalClusters clusters) {
        OrdersTopic.ensure(clusters);
        Map<Integer, Long> ends = clusters.endOffsets(clusters.source(), TOPIC);
        assertEquals((long) RECORDS, ends.values().stream().mapToLong(Long::longValue).sum(), "produced records");
    }

    @Test
    void mirrorMakerCopiesOrdersToDestination(LocalClusters clusters) {
        Map<Integer, Long> sourceEnds = clusters.endOffsets(clusters.source(), TOPIC);

        clusters.awaitMirrored(TOPIC, sourceEnds, TIMEOUT);

        assertEquals(sourceEnds, clusters.endOffsets(clusters.destination(), "source." + TOPIC));
    }

    @Test
    void classicGroupCommitsAreInConsumerOffsetsTopic(LocalClusters clusters) {
        consumeWithClassicGroup(clusters.source());

        awaitRawRecord(clusters.source(), "__consumer_offsets",
                key -> keyType(key) == 1 && CLASSIC_GROUP.equals(groupOf(key)),
                "an OffsetCommit record (key type 1) of group " + CLASSIC_GROUP);
    }

    @Test
    void shareGroupStateIsInShareGroupStateTopic(LocalClusters clusters) throws Exception {
        try (Admin admin = clusters.admin(clusters.source())) {
            // share groups start at the latest offset unless told otherwise; must be set before the first poll
            ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, SHARE_GROUP);
            AlterConfigOp earliest = new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"),
                    AlterConfigOp.OpType.SET);
            admin.incrementalAlterConfigs(Map.of(group, List.of(earliest))).all().get();
        }
        consumeWithShareGroup(clusters.source());

        byte[] groupName = SHARE_GROUP.getBytes(StandardCharsets.UTF_8);
        awaitRawRecord(clusters.source(), "__share_group_state",
                key -> (keyType(key) == 0 || keyType(key) == 1) && contains(key, groupName),
                "a ShareSnapshot/ShareUpdate record (key type 0/1) of share group " + SHARE_GROUP);
    }

    @Test
    void describeNamesEveryProcess(LocalClusters clusters) {
        String description = clusters.describe();

        assertTrue(description.contains(clusters.source().bootstrapServers()), description);
        assertTrue(description.contains(clusters.destination().bootstrapServers()), description);
        assertTrue(description.contains(Long.toString(clusters.mirrorMaker().orElseThrow().pid())), description);
        assertTrue(clusters.source().isAlive() && clusters.destination().isAlive());
    }

    private static void consumeWithClassicGroup(LocalKafkaBroker cluster) {
        Properties props = new Properties();
        props.putAll(cluster.clientProperties());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, CLASSIC_GROUP);
        props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        int consumed = 0;
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
            consumer.subscribe(List.of(TOPIC));
            while (consumed < RECORDS) {
                assertTrue(System.nanoTime() < deadline, "classic group consumed only " + consumed);
                consumed += consumer.poll(Duration.ofMillis(500)).count();
            }
            consumer.commitSync();
        }
        assertEquals(RECORDS, consumed);
    }

    private static void consumeWithShareGroup(LocalKafkaBroker cluster) {
        Properties props = new Properties();
        props.putAll(cluster.clientProperties());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, SHARE_GROUP);
        props.put("share.acknowledgement.mode", "explicit");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        Set<String> delivered = new HashSet<>();
        try (KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(props)) {
            consumer.subscribe(List.of(TOPIC));
            while (delivered.size() < RECORDS) {
                assertTrue(System.nanoTime() < deadline, "share group received only " + delivered.size());
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(500));
                for (ConsumerRecord<String, String> record : records) {
                    consumer.acknowledge(record, AcknowledgeType.ACCEPT);
                    delivered.add(record.partition() + "@" + record.offset());
                }
                consumer.commitSync();
            }
        }
        assertEquals(RECORDS, delivered.size());
    }

    /** Re-reads the whole topic until a record's key matches, or fails after {@link #TIMEOUT}. */
    private static void awaitRawRecord(LocalKafkaBroker cluster, String topic, Predicate<byte[]> keyMatches,
                                       String what) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            List<ConsumerRecord<byte[], byte[]>> records = readAll(cluster, topic, deadline);
            if (records.stream().anyMatch(r -> r.key() != null && keyMatches.test(r.key()))) {
                return;
            }
            assertTrue(System.nanoTime() < deadline,
                    "no " + what + " among " + records.size() + " records of " + topic);
        }
    }

    /** Every record of {@code topic} from the beginning to the current (last stable) end offsets. */
    private static List<ConsumerRecord<byte[], byte[]>> readAll(LocalKafkaBroker cluster, String topic,
                                                                long deadline) {
        Properties props = new Properties();
        props.putAll(cluster.clientProperties());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (PartitionInfo info : consumer.partitionsFor(topic, Duration.ofSeconds(10))) {
                partitions.add(new TopicPartition(topic, info.partition()));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            while (!partitions.stream().allMatch(tp -> consumer.position(tp) >= ends.get(tp))) {
                assertTrue(System.nanoTime() < deadline, "could not read " + topic + " up to " + ends);
                consumer.poll(Duration.ofMillis(200)).forEach(all::add);
            }
        }
        return all;
    }

    /** The record type of a coordinator record key: its first int16. */
    private static short keyType(byte[] key) {
        return key.length >= 2 ? ByteBuffer.wrap(key).getShort(0) : -1;
    }

    /** The group id of an OffsetCommit key: int16 type, then int16 length and UTF-8 bytes. */
    private static String groupOf(byte[] key) {
        ByteBuffer buffer = ByteBuffer.wrap(key);
        buffer.getShort();
        short length = buffer.getShort();
        byte[] group = new byte[length];
        buffer.get(group);
        return new String(group, StandardCharsets.UTF_8);
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
