package dev.sextant.state;

import dev.sextant.domain.CoordinatorPartitions;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * Kafka's group coordinator partitioning as a Kafka Streams partitioner: a group's records live in partition
 * {@code abs(hash(group)) % n} of {@code __consumer_offsets} ({@link CoordinatorPartitions}). The one rule both the
 * topology (share positions sent to the task that owns their group) and the query router (the instance that owns a
 * group) route by. Kafka Streams hands in {@code n}, the partition count of the topic; the last one seen is kept so
 * the router can tell how many partitions there are.
 */
public final class CoordinatorPartitioner<V> implements StreamPartitioner<String, V> {

    private volatile int numPartitions = -1;

    public static int partitionFor(String group, int numPartitions) {
        return CoordinatorPartitions.partitionFor(group, numPartitions);
    }

    @Override
    public Optional<Set<Integer>> partitions(String topic, String group, V value, Headers headers,
                                             int numPartitions) {
        this.numPartitions = numPartitions;
        return Optional.of(Set.of(partitionFor(group, numPartitions)));
    }

    /** The variant without headers, abstract still but deprecated for removal; Kafka Streams calls the one above. */
    @Override
    @SuppressWarnings("removal")
    public Optional<Set<Integer>> partitions(String topic, String group, V value, int numPartitions) {
        return partitions(topic, group, value, null, numPartitions);
    }

    /** The partition count Kafka Streams passed in last, or -1 when it has not called yet. */
    public int numPartitions() {
        return numPartitions;
    }
}
