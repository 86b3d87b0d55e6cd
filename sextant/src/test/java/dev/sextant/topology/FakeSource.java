package dev.sextant.topology;

import dev.sextant.source.SourceOffsets;
import dev.sextant.source.SourceTopicNames;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * The source cluster as the topology's checks read it, in memory: its log starts and ends, prune floors, topic ids
 * and names. A test sets what it needs; the source answers nothing else.
 */
final class FakeSource implements SourceOffsets, SourceTopicNames {

    /** The prune floors, answered whatever partitions are asked for. */
    final Map<TopicPartition, Long> floors = new ConcurrentHashMap<>();
    /** Topic names by id, as the source's Admin API answers them. */
    final Map<Uuid, String> names = new ConcurrentHashMap<>();
    /** The log ends as the offset-sync check sees them (0 if not set). */
    final Map<TopicPartition, Long> ends = new ConcurrentHashMap<>();
    /** Topics the source does not have: no log end for them. */
    final Set<String> missingTopics = ConcurrentHashMap.newKeySet();
    /** Log starts the test knows; the source answers none for other partitions. */
    final Map<TopicPartition, Long> starts = new ConcurrentHashMap<>();
    /** The topic ids by name, as the incarnation check sees them. */
    final Map<String, Uuid> ids = new ConcurrentHashMap<>();

    @Override
    public Optional<String> name(Uuid id) {
        return Optional.ofNullable(names.get(id));
    }

    @Override
    public CompletableFuture<Map<String, Uuid>> topicIds(Set<String> topics) {
        Map<String, Uuid> out = new HashMap<>();
        topics.stream().filter(ids::containsKey).forEach(t -> out.put(t, ids.get(t)));
        return CompletableFuture.completedFuture(out);
    }

    @Override
    public CompletableFuture<Map<TopicPartition, Long>> logStarts(Set<TopicPartition> partitions) {
        Map<TopicPartition, Long> out = new HashMap<>();
        partitions.stream().filter(starts::containsKey).forEach(tp -> out.put(tp, starts.get(tp)));
        return CompletableFuture.completedFuture(out);
    }

    @Override
    public CompletableFuture<Map<TopicPartition, Long>> pruneFloors(Set<TopicPartition> partitions) {
        return CompletableFuture.completedFuture(Map.copyOf(floors));
    }

    @Override
    public CompletableFuture<Map<TopicPartition, Long>> logEnds(Set<TopicPartition> partitions) {
        Map<TopicPartition, Long> out = new HashMap<>();
        partitions.forEach(tp -> {
            if (!missingTopics.contains(tp.topic())) {
                out.put(tp, ends.getOrDefault(tp, 0L));
            }
        });
        return CompletableFuture.completedFuture(out);
    }

    @Override
    public void close() {
    }
}
