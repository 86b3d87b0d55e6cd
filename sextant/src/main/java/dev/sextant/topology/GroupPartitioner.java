package dev.sextant.topology;

import dev.sextant.domain.CoordinatorPartitions;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * Partitions by group id exactly as Kafka's group coordinator places a group in {@code __consumer_offsets}, so a
 * record routed with it reaches the task that already owns the group. Interactive queries use it to find that task.
 */
final class GroupPartitioner<V> implements StreamPartitioner<String, V> {

    @Override
    public Optional<Set<Integer>> partitions(String topic, String group, V value, int numPartitions) {
        return Optional.of(Set.of(CoordinatorPartitions.partitionFor(group, numPartitions)));
    }
}
