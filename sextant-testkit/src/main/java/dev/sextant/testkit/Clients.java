package dev.sextant.testkit;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
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
        produceNumbered(cluster, topic, partitions, perPartition, Integer.MAX_VALUE);
    }

    /**
     * As {@link #produceNumbered(LocalKafkaBroker, String, int, int)}, at most {@code perSecond} records a second.
     * MirrorMaker 2 emits an offset sync every {@code offset.lag.max} records only while it keeps up: with more than
     * 10 syncs in flight it delays them, so a burst leaves wider gaps between syncs than {@code offset.lag.max}.
     */
    public static void produceNumbered(LocalKafkaBroker cluster, String topic, int partitions, int perPartition,
                                       int perSecond) {
        Map<String, Object> props = new HashMap<>(cluster.clientProperties());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        // one batch in flight: on a topic just created, the first batch to a partition can meet NOT_LEADER_OR_FOLLOWER
        // while the next is on its way, and an idempotent producer then retries the next one for ever with
        // OUT_OF_ORDER_SEQUENCE_NUMBER (seen in CI: a shared cluster's start hung 3 minutes on it)
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        long start = System.nanoTime();
        long sent = 0;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < perPartition; i++) {
                for (int p = 0; p < partitions; p++) {
                    producer.send(new ProducerRecord<>(topic, p, null, Integer.toString(i)));
                    sent++;
                }
                long due = (System.nanoTime() - start) / 1_000_000L * perSecond / 1000L;
                if (sent > due + 50) {
                    producer.flush();
                    pace(sent, perSecond, start);
                }
            }
            producer.flush();
        }
    }

    /** Produces records {@code first .. first+count-1} (values = their offsets) to every partition of a fresh topic. */
    public static void produceNumberedFrom(LocalKafkaBroker cluster, String topic, int partitions, int first,
                                           int count) {
        Map<String, Object> props = new HashMap<>(cluster.clientProperties());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        // one batch in flight: on a topic just created, the first batch to a partition can meet NOT_LEADER_OR_FOLLOWER
        // while the next is on its way, and an idempotent producer then retries the next one for ever with
        // OUT_OF_ORDER_SEQUENCE_NUMBER (seen in CI: a shared cluster's start hung 3 minutes on it)
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            for (int i = first; i < first + count; i++) {
                for (int p = 0; p < partitions; p++) {
                    producer.send(new ProducerRecord<>(topic, p, null, Integer.toString(i)));
                }
            }
            producer.flush();
        }
    }

    private static void pace(long sent, int perSecond, long startNanos) {
        long wakeAt = startNanos + sent * 1_000_000_000L / perSecond;
        long wait = wakeAt - System.nanoTime();
        if (wait > 0) {
            try {
                Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L)); // rate pacing, not a wait for a condition
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Upstream offsets of MirrorMaker 2's offset syncs for one source partition, as found on its topic. */
    public static List<Long> mirrorMakerSyncs(LocalKafkaBroker source, String topic, int partition) {
        return mirrorMakerSyncPairs(source, topic, partition).stream().map(pair -> pair[0]).toList();
    }

    /**
     * MirrorMaker 2's offset syncs for one source partition, as found on its topic, in the order written: each
     * {@code {upstream, downstream}}.
     */
    public static List<long[]> mirrorMakerSyncPairs(LocalKafkaBroker source, String topic, int partition) {
        return mirrorMakerSyncPairs(source, "mm2-offset-syncs.destination.internal", topic, partition);
    }

    /**
     * As {@link #mirrorMakerSyncPairs(LocalKafkaBroker, String, int)}, from the offset-syncs topic {@code syncTopic}
     * (the flow the other way, {@link LocalMirrorMaker.Options#reverse()}, writes
     * {@code mm2-offset-syncs.source.internal} on the cluster it mirrors from).
     */
    public static List<long[]> mirrorMakerSyncPairs(LocalKafkaBroker source, String syncTopic, String topic,
                                                    int partition) {
        Map<String, Object> props = new HashMap<>(source.clientProperties());
        List<long[]> pairs = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props,
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            TopicPartition tp = new TopicPartition(syncTopic, 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            while (consumer.position(tp) < end) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    // MirrorMaker 2's OffsetSync layout, read here independently of Sextant's decoder:
                    // key = int16 topic length, topic UTF-8, int32 partition; value = int64 upstream, int64 downstream
                    try {
                        ByteBuffer key = ByteBuffer.wrap(r.key());
                        byte[] name = new byte[key.getShort()];
                        key.get(name);
                        if (new String(name, StandardCharsets.UTF_8).equals(topic)
                                && key.getInt() == partition) {
                            ByteBuffer value = ByteBuffer.wrap(r.value());
                            pairs.add(new long[] {value.getLong(), value.getLong()});
                        }
                    } catch (RuntimeException e) {
                        // not an offset sync MirrorMaker 2 wrote (a test may put poison there): not one of its syncs
                    }
                }
            }
        }
        return pairs;
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
        } catch (ExecutionException | TimeoutException e) {
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

    /** Sets the group config share.auto.offset.reset=earliest, so a new share group starts at the log start. */
    public static void shareFromEarliest(LocalClusters clusters, LocalKafkaBroker cluster, String group) {
        try (Admin admin = clusters.admin(cluster)) {
            var resource = new ConfigResource(
                    ConfigResource.Type.GROUP, group);
            var op = new AlterConfigOp(new ConfigEntry(
                    "share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET);
            admin.incrementalAlterConfigs(Map.of(resource, List.of(op))).all().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot configure share group " + group, e);
        }
    }

    /**
     * A share consumer in {@code group} receives and acknowledges (ACCEPT) records of {@code topic} until it has
     * acknowledged at least {@code atLeast}, then commits and closes. Returns the acknowledged offsets per partition.
     */
    public static Map<Integer, SortedSet<Long>> consumeShare(LocalKafkaBroker cluster, String group,
                                                                       String topic, int atLeast) {
        Map<String, Object> props = new HashMap<>(cluster.clientProperties());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put("share.acknowledgement.mode", "explicit");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 200);
        Map<Integer, SortedSet<Long>> acked = new HashMap<>();
        int total = 0;
        try (var consumer = new KafkaShareConsumer<String, String>(props,
                new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (total < atLeast) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("share group " + group + " received only " + total + " records");
                }
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    consumer.acknowledge(r, AcknowledgeType.ACCEPT);
                    acked.computeIfAbsent(r.partition(), p -> new TreeSet<>()).add(r.offset());
                    total++;
                }
                consumer.commitSync();
            }
        }
        return acked;
    }

    /** The first offset not in {@code acked} (the contiguous acknowledged prefix from 0). */
    public static long contiguousPrefix(SortedSet<Long> acked) {
        long next = 0;
        for (long offset : acked) {
            if (offset != next) {
                break;
            }
            next++;
        }
        return next;
    }

    /** Share-partition start offsets of a share group, by partition of {@code topic}. */
    public static Map<Integer, Long> shareStartOffsets(LocalClusters clusters, LocalKafkaBroker cluster, String group,
                                                       String topic) {
        try (Admin admin = clusters.admin(cluster)) {
            Map<Integer, Long> out = new HashMap<>();
            admin.listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec()))
                    .partitionsToOffsetInfo(group).get(30, TimeUnit.SECONDS).forEach((tp, info) -> {
                        if (info != null && tp.topic().equals(topic)) {
                            out.put(tp.partition(), info.startOffset());
                        }
                    });
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot list share offsets of " + group, e);
        }
    }
}
