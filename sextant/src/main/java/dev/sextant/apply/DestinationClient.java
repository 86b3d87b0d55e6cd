package dev.sextant.apply;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * The Admin calls Sextant makes on the destination cluster, all asynchronous so a stream thread never waits on
 * the network. {@link AdminDestinationClient} is the real one; tests substitute an in-memory cluster.
 */
public interface DestinationClient extends AutoCloseable {

    /** Every group of every type, with its type and state. */
    CompletableFuture<Map<String, DestinationGroup>> listGroups();

    /** The destination cluster's id: a cluster rebuilt at the same address, or another one, has another. */
    CompletableFuture<String> clusterId();

    /**
     * The features the destination reports (streams groups, the brokers' release); by default none known, so that a
     * client that cannot read them never lets a Kafka Streams group be written.
     */
    default CompletableFuture<DestinationFeatures> features() {
        return CompletableFuture.completedFuture(DestinationFeatures.UNKNOWN);
    }

    /** The named topics that exist, each described once (absent ones are left out). */
    CompletableFuture<Map<String, DestinationTopic>> topics(Set<String> topics);

    /** The ids of the named topics that exist (absent ones are left out): a recreated topic has a new one. */
    default CompletableFuture<Map<String, Uuid>> topicIds(Set<String> topics) {
        return topics(topics).thenApply(found -> map(found, DestinationTopic::id));
    }

    /** Partition counts of the named topics that exist (absent ones are left out). */
    default CompletableFuture<Map<String, Integer>> partitionCounts(Set<String> topics) {
        return topics(topics).thenApply(found -> map(found, DestinationTopic::partitions));
    }

    private static <T> Map<String, T> map(Map<String, DestinationTopic> found, Function<DestinationTopic, T> of) {
        Map<String, T> out = new HashMap<>();
        found.forEach((topic, description) -> out.put(topic, of.apply(description)));
        return out;
    }

    /** Log start offsets of the given partitions (absent ones are left out); by default none known. */
    default CompletableFuture<Map<TopicPartition, Long>> startOffsets(Set<TopicPartition> partitions) {
        return CompletableFuture.completedFuture(Map.of());
    }

    /** Log end offsets of the given partitions (absent ones are left out). */
    CompletableFuture<Map<TopicPartition, Long>> endOffsets(Set<TopicPartition> partitions);

    /**
     * Every committed offset of several consumer groups, all their partitions, in one batched request per
     * coordinator: the read before a write, which must see offsets others committed on partitions the write does not
     * touch (a destination group is owned as a whole). Partitions without a committed offset are absent.
     */
    Map<String, CompletableFuture<Map<TopicPartition, OffsetAndMetadata>>> consumerGroupOffsets(Set<String> groups);

    /**
     * Committed offsets of the given partitions of several groups, for the takeover audit, which asks for every
     * applied partition of a task at once: a client may send it apart, so that the reads before each write never
     * wait behind it. Partitions without a committed offset are absent from a group's map.
     */
    Map<String, CompletableFuture<Map<TopicPartition, OffsetAndMetadata>>> auditGroupOffsets(
            Map<String, Set<TopicPartition>> partitionsByGroup);

    /**
     * As {@link #alterConsumerGroupOffsets(String, Map, WriteLease)}, planned from {@code readBefore} (every committed
     * offset of the group, as read before the write): a client that makes a write wait may read the group again when
     * its turn comes, and fail it with {@link DestinationChangedException} when the offsets changed meanwhile
     * ({@link FreshRead}). By default the write is sent as planned.
     */
    default CompletableFuture<Map<TopicPartition, Throwable>> alterConsumerGroupOffsets(
            String group, Map<TopicPartition, OffsetAndMetadata> offsets, WriteLease lease,
            Map<TopicPartition, OffsetAndMetadata> readBefore) {
        return alterConsumerGroupOffsets(group, offsets, lease);
    }

    /**
     * Every share-partition start offset of several share groups, in one batched request per coordinator (a command's
     * read of what the destination holds). Partitions without a start offset are absent; by default every group's
     * map is empty.
     */
    default Map<String, CompletableFuture<Map<TopicPartition, Long>>> shareGroupOffsets(Set<String> groups) {
        Map<String, Set<TopicPartition>> whole = new HashMap<>();
        groups.forEach(g -> whole.put(g, null));
        return auditShareGroupOffsets(whole);
    }

    /**
     * Share-partition start offsets of the given partitions of several share groups, each with the lag the
     * destination reports beside it ({@link ShareStart}): the read before a write, which tells a start offset Sextant
     * left from one a share consumer moved there. Partitions without a start offset are absent from a group's map; by
     * default the lag is not known.
     */
    default Map<String, CompletableFuture<Map<TopicPartition, ShareStart>>> shareGroupStarts(
            Map<String, Set<TopicPartition>> partitionsByGroup) {
        Map<String, CompletableFuture<Map<TopicPartition, ShareStart>>> out = new HashMap<>();
        auditShareGroupOffsets(partitionsByGroup).forEach((group, read) -> out.put(group, read.thenApply(starts -> {
            Map<TopicPartition, ShareStart> known = new HashMap<>();
            starts.forEach((tp, start) -> known.put(tp, new ShareStart(start, -1)));
            return known;
        })));
        return out;
    }

    /**
     * Share-partition start offsets of the given partitions of several share groups, for the takeover audit
     * (a null set: every partition of the group).
     * Partitions without a start offset are absent from a group's map; by default (a client that cannot read them)
     * every group's map is empty.
     */
    default Map<String, CompletableFuture<Map<TopicPartition, Long>>> auditShareGroupOffsets(
            Map<String, Set<TopicPartition>> partitionsByGroup) {
        Map<String, CompletableFuture<Map<TopicPartition, Long>>> out = new HashMap<>();
        partitionsByGroup.keySet().forEach(g -> out.put(g, CompletableFuture.completedFuture(Map.of())));
        return out;
    }

    /**
     * Writes consumer-group offsets, if {@code lease} is still valid when they are sent: a client may hold a write
     * back until the destination has absorbed earlier ones. The future fails with {@link WriteLeaseExpiredException}
     * when nothing was sent, and for a group-level error (the group is active or of another type); otherwise it maps
     * each partition to its error, or to null when written. The caller keeps at most one write per group in flight.
     */
    CompletableFuture<Map<TopicPartition, Throwable>> alterConsumerGroupOffsets(
            String group, Map<TopicPartition, OffsetAndMetadata> offsets, WriteLease lease);

    /** Writes share-partition start offsets; lease and errors as for {@link #alterConsumerGroupOffsets}. */
    CompletableFuture<Map<TopicPartition, Throwable>> alterShareGroupOffsets(
            String group, Map<TopicPartition, Long> offsets, WriteLease lease);

    /**
     * The destination brokers' {@code offsets.retention.minutes}, in ms, as one broker's config says: how long the
     * offsets of a group without members stay after they were committed. Fails, or gives -1, when it cannot be read
     * (no DescribeConfigs permission on the cluster).
     */
    default CompletableFuture<Long> offsetsRetentionMs() {
        return CompletableFuture.completedFuture(-1L);
    }

    @Override
    void close();
}
