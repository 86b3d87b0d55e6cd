package dev.sextant;

import java.util.HashSet;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.ThreadMetadata;

/**
 * The partitions of the commits topic this instance's active tasks read now, from Kafka Streams' metadata: the groups
 * {@code source.offsets.read=admin} polls here ({@link dev.sextant.source.AdminCommitPoller}). Empty before the
 * client exists or while it cannot say (then nothing is polled until it can).
 */
final class LocalCommitPartitions implements Supplier<Set<Integer>> {

    private final Supplier<KafkaStreams> streams;
    private final String commitsTopic;

    LocalCommitPartitions(Supplier<KafkaStreams> streams, String commitsTopic) {
        this.streams = streams;
        this.commitsTopic = commitsTopic;
    }

    @Override
    public Set<Integer> get() {
        KafkaStreams client = streams.get();
        if (client == null) {
            return Set.of();
        }
        Set<Integer> owned = new HashSet<>();
        try {
            for (ThreadMetadata thread : client.metadataForLocalThreads()) {
                thread.activeTasks().forEach(task -> {
                    for (TopicPartition tp : task.topicPartitions()) {
                        if (tp.topic().equals(commitsTopic)) {
                            owned.add(tp.partition());
                        }
                    }
                });
            }
        } catch (RuntimeException e) {
            return Set.of(); // not running (yet, or any more): no task is read here
        }
        return owned;
    }
}
