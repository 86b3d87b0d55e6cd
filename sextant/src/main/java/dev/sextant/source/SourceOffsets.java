package dev.sextant.source;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * What the source cluster says about its logs: how far back anyone can still read (for pruning the offset-sync
 * history) and how far they reach (for checking offset syncs).
 */
public interface SourceOffsets extends AutoCloseable {

    /**
     * Per partition, the lowest offset a translation may still be asked for: the lower of the partition's log start
     * offset and the lowest offset any synced group committed on it. A partition whose topic is gone is left out.
     */
    CompletableFuture<Map<TopicPartition, Long>> pruneFloors(Set<TopicPartition> partitions);

    /**
     * Per partition, its log start offset (the first record still there); a partition that does not exist is left
     * out. By default (sources that cannot tell) empty.
     */
    default CompletableFuture<Map<TopicPartition, Long>> logStarts(Set<TopicPartition> partitions) {
        return CompletableFuture.completedFuture(Map.of());
    }

    /** Per partition, its log end offset; a partition that does not exist is left out. */
    CompletableFuture<Map<TopicPartition, Long>> logEnds(Set<TopicPartition> partitions);

    /**
     * Every partition of the topic with its end: the last stable offset, so a transaction still open is not waited
     * for. Empty when the topic does not exist. By default (sources that hold no such topics) empty.
     */
    default CompletableFuture<Map<TopicPartition, Long>> topicEnds(String topic) {
        return CompletableFuture.completedFuture(Map.of());
    }

    /**
     * The consumer group's committed offsets on these partitions; a partition it never committed is left out. By
     * default (sources without groups) empty.
     */
    default CompletableFuture<Map<TopicPartition, Long>> committed(String group, Set<TopicPartition> partitions) {
        return CompletableFuture.completedFuture(Map.of());
    }

    /**
     * Per partition, its last stable offset (how far a {@code read_committed} reader gets: an open transaction holds
     * it back) and its high watermark; a partition that does not exist is left out. By default (sources that cannot
     * tell) empty.
     */
    default CompletableFuture<Map<TopicPartition, StableEnd>> stableEnds(Set<TopicPartition> partitions) {
        return CompletableFuture.completedFuture(Map.of());
    }

    /** A partition's last stable offset and high watermark ({@code lastStable <= highWatermark}). */
    record StableEnd(long lastStable, long highWatermark) {
    }

    /**
     * The committed offsets of each consumer group, as its coordinator holds them: transactional offsets of a
     * transaction still open (or aborted) are not among them. A group without offsets is left out. By default
     * (sources without groups) empty.
     */
    default CompletableFuture<Map<String, Map<TopicPartition, Long>>> committed(Set<String> groups) {
        return CompletableFuture.completedFuture(Map.of());
    }

    /**
     * Each topic's id, which tells one incarnation of a name from the next (a topic deleted and created again gets a
     * new one); a topic that does not exist is left out. By default (sources that cannot tell) empty.
     */
    default CompletableFuture<Map<String, Uuid>> topicIds(Set<String> topics) {
        return CompletableFuture.completedFuture(Map.of());
    }

    @Override
    void close();
}
