package dev.sextant.failover;

import dev.sextant.state.OffsetSyncKeys;
import dev.sextant.state.OffsetSyncPoint;
import dev.sextant.state.OffsetSyncStore;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.Bytes;

/**
 * Rebuilds Sextant's offset-sync history from its history topic ({@code <application.id>-offset-sync-history} on the
 * source) without Kafka Streams: reads the topic from the start to its end and replays it in order, as the global
 * store's updater does: a sync is stored, a tombstone deletes one, a reset marker forgets the partition's history.
 */
public final class OffsetSyncHistoryLoader {

    private OffsetSyncHistoryLoader() {
    }

    /** The loaded history, and how many syncs it holds. */
    public record History(OffsetSyncStore store, long size) {
    }

    /**
     * @param clientConfig source cluster client settings
     * @throws IllegalStateException when the topic does not exist or cannot be read to its end within the timeout
     */
    public static History load(Map<String, Object> clientConfig, String topic, Duration timeout) {
        SortedKeyValueStore store = new SortedKeyValueStore("offset-sync-history");
        OffsetSyncStore history = OffsetSyncStore.writer(store);
        Map<String, Object> props = new HashMap<>(clientConfig);
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
            if (infos == null || infos.isEmpty()) {
                throw new IllegalStateException("the offset-sync history topic " + topic + " does not exist on the "
                        + "source cluster: has Sextant run there with this application.id?");
            }
            Set<TopicPartition> partitions = infos.stream().map(p -> new TopicPartition(topic, p.partition()))
                    .collect(Collectors.toSet());
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp, timeout) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read the offset-sync history topic " + topic
                            + " to its end within " + timeout.toSeconds() + " s");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    replay(history, record.key(), record.value());
                }
            }
        }
        return new History(OffsetSyncStore.reader(store), store.approximateNumEntries());
    }

    /** One record of the history topic, with the global store's rules. */
    static void replay(OffsetSyncStore history, byte[] rawKey, byte[] value) {
        if (rawKey == null) {
            return;
        }
        OffsetSyncPoint point = OffsetSyncKeys.decode(Bytes.wrap(rawKey), value);
        if (point.upstreamOffset() == OffsetSyncKeys.RESET) {
            history.deletePartition(point.topic(), point.partition());
        } else if (value == null) {
            history.delete(point.topic(), point.partition(), point.upstreamOffset());
        } else {
            history.put(point);
        }
    }
}
