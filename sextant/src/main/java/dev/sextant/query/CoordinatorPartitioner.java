package dev.sextant.query;

import dev.sextant.domain.CoordinatorPartitions;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * Kafka's group coordinator partitioning: a group's records live in partition {@code abs(hash(group)) % n} of
 * {@code __consumer_offsets}. Kafka Streams hands in {@code n}, the partition count of the store's source topic;
 * the last one seen is kept so the routing can tell how many partitions there are.
 */
final class CoordinatorPartitioner implements StreamPartitioner<String, Object> {

    private volatile int numPartitions = -1;

    static int partitionFor(String group, int numPartitions) {
        return CoordinatorPartitions.partitionFor(group, numPartitions);
    }

    @Override
    public Optional<Set<Integer>> partitions(String topic, String group, Object value, Headers headers,
                                             int numPartitions) {
        this.numPartitions = numPartitions;
        return Optional.of(Set.of(partitionFor(group, numPartitions)));
    }

    /** The variant without headers, abstract still but deprecated for removal; Kafka Streams calls the one above. */
    @Override
    @SuppressWarnings("removal")
    public Optional<Set<Integer>> partitions(String topic, String group, Object value, int numPartitions) {
        return partitions(topic, group, value, null, numPartitions);
    }

    /** The partition count Kafka Streams passed in last, or -1 when it has not called yet. */
    int numPartitions() {
        return numPartitions;
    }
}
