package dev.sextant.testing;

import dev.sextant.source.SourceOffsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * A source that knows no partition: prune floors and log ends are empty (as is everything {@link SourceOffsets}
 * answers by default), and closing does nothing. A test overrides what it wants the source to say.
 */
public class QuietSourceOffsets implements SourceOffsets {

    @Override
    public CompletableFuture<Map<TopicPartition, Long>> pruneFloors(Set<TopicPartition> partitions) {
        return CompletableFuture.completedFuture(Map.of());
    }

    @Override
    public CompletableFuture<Map<TopicPartition, Long>> logEnds(Set<TopicPartition> partitions) {
        return CompletableFuture.completedFuture(Map.of());
    }

    @Override
    public void close() {
    }
}
