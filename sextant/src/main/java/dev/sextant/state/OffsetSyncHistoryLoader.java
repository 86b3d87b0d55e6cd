package dev.sextant.state;

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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds Sextant's offset-sync history from its history topic ({@code <application.id>-offset-sync-history} on its
 * source; for failback, the forward Sextant's, read on the destination) without Kafka Streams: reads the topic from
 * the start to its end and replays it in order, as the global store's updater does: a sync is stored, a tombstone
 * deletes one, a reset marker forgets the partition's history.
 */
public final class OffsetSyncHistoryLoader {

    private static final Logger log = LoggerFactory.getLogger(OffsetSyncHistoryLoader.class);

    private OffsetSyncHistoryLoader() {
    }

    /**
     * @param clientConfig source cluster client settings
     * @throws IllegalStateException when the topic does not exist or cannot be read to its end within the timeout
     */
    public static InMemorySyncHistory load(Map<String, Object> clientConfig, String topic, Duration timeout) {
        InMemorySyncHistory history = new InMemorySyncHistory();
        long skipped = 0;
        Map<String, Object> props = new HashMap<>(clientConfig);
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
            if (infos == null || infos.isEmpty()) {
                throw new IllegalStateException("the offset-sync history topic " + topic + " does not exist on "
                        + "the cluster read (" + clientConfig.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG) + "): has "
                        + "Sextant run there with this application.id?");
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
                    try {
                        HistoryRecords.replay(record.key() == null ? null : Bytes.wrap(record.key()), record.value(),
                                history);
                    } catch (IllegalArgumentException e) {
                        skipped++; // as the global store does: not a record Sextant writes
                    }
                }
            }
        }
        if (skipped > 0) {
            log.warn("Skipped {} record(s) of {} that Sextant does not write", skipped, topic);
        }
        return history;
    }
}
