package dev.sextant.apply;

import dev.sextant.domain.LogRange;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * Where each known destination partition's log lies, both ends as the last refresh read them: a write is planned
 * inside it ({@link TranslatedPosition#within}). Both ends are read in the same round and replaced at once, so a
 * start never stands for a log the end no longer describes (a recreated topic).
 *
 * <p>Guarded as {@link DestinationView} says: each field holds an immutable value, replaced whole under this object's
 * monitor and read without it.
 */
final class PartitionLogs {

    private final DestinationClient client;
    private volatile Map<TopicPartition, LogRange> logs = Map.of();

    PartitionLogs(DestinationClient client) {
        this.client = client;
    }

    /** The partition's log as last read; {@link LogRange#UNKNOWN} when it was not. */
    LogRange of(String topic, int partition) {
        return logs.getOrDefault(new TopicPartition(topic, partition), LogRange.UNKNOWN);
    }

    /** Reads both ends of every partition of these topics ({@code counts}: partitions per topic), then keeps them. */
    CompletableFuture<Void> read(Map<String, Integer> counts) {
        Set<TopicPartition> partitions = new HashSet<>();
        counts.forEach((topic, n) -> {
            for (int p = 0; p < n; p++) {
                partitions.add(new TopicPartition(topic, p));
            }
        });
        // both ends in one round, one request each: a start is only used beside the end read with it
        return client.endOffsets(partitions).thenCombine(client.startOffsets(partitions), (ends, starts) -> {
            Map<TopicPartition, LogRange> read = new HashMap<>();
            ends.forEach((tp, end) -> read.put(tp, new LogRange(starts.getOrDefault(tp, -1L), end)));
            publish(Collections.unmodifiableMap(read));
            return null;
        });
    }

    private synchronized void publish(Map<TopicPartition, LogRange> read) {
        logs = read;
    }
}
