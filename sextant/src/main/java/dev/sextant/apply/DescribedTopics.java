package dev.sextant.apply;

import dev.sextant.apply.DestinationView.PartitionPresence;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.Uuid;

/**
 * The destination topics Sextant writes to, and what their last description said: each one's partition count and
 * id. A topic is looked up the first time it is asked for and then at every refresh, so a topic that MirrorMaker 2
 * creates later is picked up without a restart.
 *
 * <p>Guarded as {@link DestinationView} says: each field holds an immutable value, replaced whole under this object's
 * monitor and read without it.
 */
final class DescribedTopics {

    private final DestinationClient client;
    /** Topics asked for and not found by the last refresh (or asked for a partition they did not have). */
    private volatile Set<String> wanted = Set.of();
    /** Every topic a refresh that succeeded looked up. */
    private volatile Set<String> lookedUp = Set.of();
    private volatile Map<String, Integer> partitionCounts = Map.of();
    /** The ids of the topics looked up, as the last description read them: a recreated topic has a new one. */
    private volatile Map<String, Uuid> ids = Map.of();

    DescribedTopics(DestinationClient client) {
        this.client = client;
    }

    /**
     * Whether the destination has this partition, as last described; a topic not described with it is looked up at
     * the next refresh.
     */
    PartitionPresence presence(String topic, int partition) {
        Integer count = partitionCounts.get(topic);
        if (count != null && partition < count) {
            return PartitionPresence.PRESENT;
        }
        boolean known = lookedUp.contains(topic);
        if (!wanted.contains(topic)) {
            want(topic);
        }
        return known ? PartitionPresence.ABSENT : PartitionPresence.UNKNOWN;
    }

    private synchronized void want(String topic) {
        Set<String> more = new HashSet<>(wanted);
        more.add(topic);
        wanted = Set.copyOf(more);
    }

    Optional<Uuid> id(String topic) {
        return Optional.ofNullable(ids.get(topic));
    }

    /** What a refresh describes: the topics asked for, and every one found before. */
    Set<String> toDescribe() {
        Set<String> topics = new HashSet<>(wanted);
        topics.addAll(partitionCounts.keySet());
        return topics;
    }

    /**
     * Describes these topics, each once (its partitions and its id: a re-seeded mirror has a new one). The ids are
     * published as soon as they are read; the counts, which answer {@link #presence}, by {@link #described}.
     */
    CompletableFuture<Map<String, Integer>> describe(Set<String> topics) {
        return client.topics(topics).thenApply(described -> {
            Map<String, Integer> counts = new HashMap<>();
            Map<String, Uuid> read = new HashMap<>();
            described.forEach((topic, d) -> {
                counts.put(topic, d.partitions());
                read.put(topic, d.id());
            });
            publishIds(Map.copyOf(read));
            return counts;
        });
    }

    private synchronized void publishIds(Map<String, Uuid> read) {
        ids = read;
    }

    /** A refresh that succeeded described {@code topics}, and found these {@code counts} (absent ones left out). */
    synchronized void described(Set<String> topics, Map<String, Integer> counts) {
        partitionCounts = Map.copyOf(counts);
        if (!lookedUp.containsAll(topics)) {
            Set<String> looked = new HashSet<>(lookedUp);
            looked.addAll(topics);
            lookedUp = Set.copyOf(looked);
        }
        Set<String> still = new HashSet<>(wanted);
        still.removeAll(counts.keySet());
        wanted = Set.copyOf(still);
    }
}
