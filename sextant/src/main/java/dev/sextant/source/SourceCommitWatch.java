package dev.sextant.source;

import dev.sextant.decode.ConsumerOffsetsDecoder;
import dev.sextant.decode.ConsumerOffsetsRecord;
import dev.sextant.decode.UndecodableRecordException;
import dev.sextant.domain.CoordinatorPartitions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Watches the source's {@code __consumer_offsets} for commits of the groups being cut over, from the moment it is
 * opened ({@link CommitWatch}). Only the partitions that hold those groups are read, from their end. Not thread-safe:
 * one caller.
 */
public final class SourceCommitWatch implements CommitWatch {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Set<String> groups;
    private final Map<String, List<Commit>> seen = new HashMap<>();

    /**
     * @param partitions partitions of {@code __consumer_offsets} on the source ({@code offsets.topic.num.partitions})
     */
    SourceCommitWatch(Map<String, Object> sourceClientConfig, Set<String> groups, int partitions) {
        Map<String, Object> config = new HashMap<>(sourceClientConfig);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        this.consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.groups = Set.copyOf(groups);
        Set<Integer> wanted = new TreeSet<>();
        groups.forEach(g -> wanted.add(CoordinatorPartitions.partitionFor(g, partitions)));
        List<TopicPartition> assigned = wanted.stream()
                .map(p -> new TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, p)).toList();
        consumer.assign(assigned);
        consumer.seekToEnd(assigned);
        assigned.forEach(consumer::position); // fixes "from now" before anything else is read
    }

    @Override
    public void poll(Duration wait) {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(wait)) {
            if (record.key() == null) {
                continue;
            }
            try {
                if (ConsumerOffsetsDecoder.decode(record.key(), record.value())
                        instanceof ConsumerOffsetsRecord.OffsetCommit commit && groups.contains(commit.group())) {
                    seen.computeIfAbsent(commit.group(), g -> new ArrayList<>()).add(new Commit(commit.group(),
                            new TopicPartition(commit.topic(), commit.partition()), commit.offset(),
                            commit.commitTimestamp()));
                }
            } catch (UndecodableRecordException e) {
                // a record of a kind this release does not know: not an offset commit it could name
            }
        }
    }

    @Override
    public List<Commit> commits(String group) {
        return seen.getOrDefault(group, List.of());
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
