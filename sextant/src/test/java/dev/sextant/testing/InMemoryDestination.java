package dev.sextant.testing;

import dev.sextant.apply.DestinationClient;
import dev.sextant.apply.DestinationFeatures;
import dev.sextant.apply.DestinationGroup;
import dev.sextant.apply.DestinationTopic;
import dev.sextant.apply.ShareStart;
import dev.sextant.apply.WriteLease;
import dev.sextant.apply.WriteLeaseExpiredException;
import dev.sextant.domain.GroupKind;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownMemberIdException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * A destination cluster in memory for topology unit tests, answering as the broker does (verified against a real
 * 4.4 broker in the integration tests): an active group refuses writes with UnknownMemberIdException, a share group
 * refuses consumer offsets with GroupIdNotFoundException, a missing topic fails just its partitions.
 */
public final class InMemoryDestination implements DestinationClient {

    public final Map<String, Integer> topics = new ConcurrentHashMap<>();
    /** Each topic's id, made when first asked for: {@link #recreate} gives it a new one. */
    private final Map<String, Uuid> topicIds = new ConcurrentHashMap<>();
    public final Map<String, DestinationGroup> groups = new ConcurrentHashMap<>();
    public final Map<String, Map<TopicPartition, OffsetAndMetadata>> offsets = new ConcurrentHashMap<>();
    public final AtomicInteger alterCalls = new AtomicInteger();
    public final AtomicInteger listOffsetCalls = new AtomicInteger();
    public volatile boolean unreachable;
    /** The cluster's id: a test replaces the cluster by changing it. */
    public volatile String clusterId = "in-memory-cluster";
    /** While set, reading the cluster id fails (the rest answers): a broker still coming up. */
    public volatile boolean clusterIdFails;
    /** While set, reading the cluster id fails with it (an AuthorizationException: a principal not allowed to). */
    public volatile RuntimeException clusterIdRefusal;
    /** The brokers' offsets.retention.minutes in ms; -1 by default, as a client that cannot read it. */
    public volatile long offsetsRetentionMs = -1;
    /** What the cluster reports: by default a 4.4 cluster with streams groups. */
    public volatile DestinationFeatures features = new DestinationFeatures(1, 33);
    public final AtomicInteger listGroupsCalls = new AtomicInteger();
    /** Runs inside every {@link #listGroups()} (a test advances its clock here: the listing's cost). */
    public volatile Runnable onListGroups = () -> { };

    public void topic(String name, int partitions) {
        topics.put(name, partitions);
    }

    /** The topic's id as the cluster answers it now (made when first asked for). */
    public Uuid topicId(String name) {
        return topicIds.computeIfAbsent(name, x -> Uuid.randomUuid());
    }

    /** Answers {@code id} for the topic from now on: an answer asked before a change, arriving after it. */
    public void answerTopicId(String name, Uuid id) {
        topicIds.put(name, id);
    }

    /** The topic deleted and created again: a new id, and no offsets committed on it. */
    public void recreate(String name) {
        topicIds.put(name, Uuid.randomUuid());
        offsets.values().forEach(group -> group.keySet().removeIf(tp -> tp.topic().equals(name)));
    }

    @Override
    public CompletableFuture<DestinationFeatures> features() {
        return unreachable ? CompletableFuture.failedFuture(new TimeoutException("destination unreachable"))
                : CompletableFuture.completedFuture(features);
    }

    @Override
    public CompletableFuture<Long> offsetsRetentionMs() {
        return unreachable ? CompletableFuture.failedFuture(new TimeoutException("destination unreachable"))
                : CompletableFuture.completedFuture(offsetsRetentionMs);
    }

    @Override
    public CompletableFuture<String> clusterId() {
        if (clusterIdRefusal != null) {
            return CompletableFuture.failedFuture(clusterIdRefusal);
        }
        return unreachable || clusterIdFails
                ? CompletableFuture.failedFuture(new TimeoutException("destination unreachable"))
                : CompletableFuture.completedFuture(clusterId);
    }


    public void activeConsumerGroup(String group) {
        groups.put(group, new DestinationGroup(group, GroupKind.CONSUMER, "consumer", true, "STABLE"));
    }

    public void emptyConsumerGroup(String group) {
        groups.put(group, new DestinationGroup(group, GroupKind.CONSUMER, "classic", false, "EMPTY"));
    }

    public void shareGroup(String group) {
        groups.put(group, new DestinationGroup(group, GroupKind.SHARE, "share", false, "EMPTY"));
    }

    public Long committed(String group, String topic, int partition) {
        OffsetAndMetadata om = offsets.getOrDefault(group, Map.of()).get(new TopicPartition(topic, partition));
        return om == null ? null : om.offset();
    }

    public String metadata(String group, String topic, int partition) {
        OffsetAndMetadata om = offsets.getOrDefault(group, Map.of()).get(new TopicPartition(topic, partition));
        return om == null ? null : om.metadata();
    }

    @Override
    public CompletableFuture<Map<String, DestinationGroup>> listGroups() {
        listGroupsCalls.incrementAndGet();
        onListGroups.run();
        if (unreachable) {
            return CompletableFuture.failedFuture(new TimeoutException("destination unreachable"));
        }
        return CompletableFuture.completedFuture(Map.copyOf(groups));
    }

    @Override
    public CompletableFuture<Map<String, DestinationTopic>> topics(Set<String> wanted) {
        if (unreachable) {
            return CompletableFuture.failedFuture(new TimeoutException("destination unreachable"));
        }
        Map<String, DestinationTopic> out = new HashMap<>();
        wanted.forEach(t -> {
            if (topics.containsKey(t)) {
                out.put(t, new DestinationTopic(topics.get(t), topicIds.computeIfAbsent(t, x -> Uuid.randomUuid())));
            }
        });
        return CompletableFuture.completedFuture(out);
    }

    /**
     * Log end offsets the destination reports; partitions not set here report {@link #MIRROR_END}, a mirror that has
     * caught up with any offset a test commits.
     */
    public final Map<TopicPartition, Long> ends = new ConcurrentHashMap<>();
    public static final long MIRROR_END = 1_000_000_000L;

    /** Log start offsets the destination reports; partitions of existing topics not set here report 0. */
    public final Map<TopicPartition, Long> starts = new ConcurrentHashMap<>();

    @Override
    public CompletableFuture<Map<TopicPartition, Long>> startOffsets(Set<TopicPartition> partitions) {
        if (unreachable) {
            return CompletableFuture.failedFuture(new TimeoutException("destination unreachable"));
        }
        Map<TopicPartition, Long> out = new HashMap<>();
        partitions.stream().filter(tp -> topics.getOrDefault(tp.topic(), 0) > tp.partition())
                .forEach(tp -> out.put(tp, starts.getOrDefault(tp, 0L)));
        return CompletableFuture.completedFuture(out);
    }

    @Override
    public CompletableFuture<Map<TopicPartition, Long>> endOffsets(Set<TopicPartition> partitions) {
        if (unreachable) {
            return CompletableFuture.failedFuture(new TimeoutException("destination unreachable"));
        }
        Map<TopicPartition, Long> out = new HashMap<>();
        partitions.forEach(tp -> out.put(tp, ends.getOrDefault(tp, MIRROR_END)));
        return CompletableFuture.completedFuture(out);
    }

    @Override
    public Map<String, CompletableFuture<Map<TopicPartition, OffsetAndMetadata>>> consumerGroupOffsets(
            Set<String> groups) {
        listOffsetCalls.incrementAndGet();
        Map<String, CompletableFuture<Map<TopicPartition, OffsetAndMetadata>>> out = new HashMap<>();
        groups.forEach(group -> out.put(group, unreachable
                ? CompletableFuture.failedFuture(new TimeoutException("destination unreachable"))
                : CompletableFuture.completedFuture(Map.copyOf(offsets.getOrDefault(group, Map.of())))));
        return out;
    }

    @Override
    public Map<String, CompletableFuture<Map<TopicPartition, OffsetAndMetadata>>> auditGroupOffsets(
            Map<String, Set<TopicPartition>> partitionsByGroup) {
        listOffsetCalls.incrementAndGet();
        Map<String, CompletableFuture<Map<TopicPartition, OffsetAndMetadata>>> out = new HashMap<>();
        partitionsByGroup.forEach((group, tps) -> {
            if (unreachable) {
                out.put(group, CompletableFuture.failedFuture(new TimeoutException("destination unreachable")));
                return;
            }
            Map<TopicPartition, OffsetAndMetadata> current = new HashMap<>();
            tps.forEach(tp -> {
                OffsetAndMetadata om = offsets.getOrDefault(group, Map.of()).get(tp);
                if (om != null) {
                    current.put(tp, om);
                }
            });
            out.put(group, CompletableFuture.completedFuture(current));
        });
        return out;
    }

    @Override
    public CompletableFuture<Map<TopicPartition, Throwable>> alterConsumerGroupOffsets(
            String group, Map<TopicPartition, OffsetAndMetadata> wanted, WriteLease lease) {
        if (!lease.valid()) {
            return CompletableFuture.failedFuture(new WriteLeaseExpiredException()); // not sent
        }
        alterCalls.incrementAndGet();
        if (holdWrites) {
            CompletableFuture<Map<TopicPartition, Throwable>> answer = new CompletableFuture<>();
            heldWrites.add(() -> write(group, wanted).whenComplete((result, err) -> {
                if (err != null) {
                    answer.completeExceptionally(err);
                } else {
                    answer.complete(result);
                }
            }));
            return answer;
        }
        return write(group, wanted);
    }

    /** While set, consumer-group writes are neither applied nor answered until {@link #releaseWrites()}. */
    public volatile boolean holdWrites;
    private final Queue<Runnable> heldWrites = new ConcurrentLinkedQueue<>();

    /** Consumer-group writes held and not released yet. */
    public int heldWrites() {
        return heldWrites.size();
    }

    /** Applies and answers the writes held so far (no longer holding the next ones is up to the caller). */
    public void releaseWrites() {
        Runnable write;
        while ((write = heldWrites.poll()) != null) {
            write.run();
        }
    }

    private CompletableFuture<Map<TopicPartition, Throwable>> write(String group,
                                                                    Map<TopicPartition, OffsetAndMetadata> wanted) {
        if (unreachable) {
            return CompletableFuture.failedFuture(new TimeoutException("destination unreachable"));
        }
        DestinationGroup existing = groups.get(group);
        if (existing != null && existing.type() != GroupKind.CONSUMER) {
            return CompletableFuture.failedFuture(new GroupIdNotFoundException("The group id does not exist."));
        }
        if (existing != null && existing.active()) {
            return CompletableFuture.failedFuture(new UnknownMemberIdException("unknown member"));
        }
        Map<TopicPartition, Throwable> result = new HashMap<>();
        wanted.forEach((tp, om) -> {
            Integer count = topics.get(tp.topic());
            if (count == null || tp.partition() >= count) {
                result.put(tp, new UnknownTopicOrPartitionException("unknown " + tp));
            } else {
                offsets.computeIfAbsent(group, g -> new ConcurrentHashMap<>()).put(tp, om);
                result.put(tp, null);
            }
        });
        groups.putIfAbsent(group, new DestinationGroup(group, GroupKind.CONSUMER, "classic", false, "EMPTY"));
        return CompletableFuture.completedFuture(result);
    }

    /** Share-partition start offsets of share groups. */
    public final Map<String, Map<TopicPartition, Long>> shareOffsets = new ConcurrentHashMap<>();
    public final AtomicInteger shareAlterCalls = new AtomicInteger();

    public void activeShareGroup(String group) {
        groups.put(group, new DestinationGroup(group, GroupKind.SHARE, "share", true, "STABLE"));
    }

    public Long startOffset(String group, String topic, int partition) {
        return shareOffsets.getOrDefault(group, Map.of()).get(new TopicPartition(topic, partition));
    }

    /**
     * Records above the start offset delivered completely on the destination (acknowledged by a share consumer
     * there), by group and partition: the lag reported beside a start offset leaves them out; a write of the start
     * offset clears them.
     */
    public final Map<String, Map<TopicPartition, Long>> shareDelivered = new ConcurrentHashMap<>();

    @Override
    public Map<String, CompletableFuture<Map<TopicPartition, ShareStart>>> shareGroupStarts(
            Map<String, Set<TopicPartition>> partitionsByGroup) {
        Map<String, CompletableFuture<Map<TopicPartition, ShareStart>>> out = new HashMap<>();
        auditShareGroupOffsets(partitionsByGroup).forEach((group, read) -> out.put(group, read.thenApply(starts -> {
            Map<TopicPartition, ShareStart> there = new HashMap<>();
            starts.forEach((tp, start) -> there.put(tp, new ShareStart(start, ends.getOrDefault(tp, MIRROR_END)
                    - start - shareDelivered.getOrDefault(group, Map.of()).getOrDefault(tp, 0L))));
            return there;
        })));
        return out;
    }

    @Override
    public Map<String, CompletableFuture<Map<TopicPartition, Long>>> auditShareGroupOffsets(
            Map<String, Set<TopicPartition>> partitionsByGroup) {
        Map<String, CompletableFuture<Map<TopicPartition, Long>>> out = new HashMap<>();
        partitionsByGroup.forEach((group, partitions) -> {
            Map<TopicPartition, Long> there = new HashMap<>(shareOffsets.getOrDefault(group, Map.of()));
            if (partitions != null) { // null: every partition of the group
                there.keySet().retainAll(partitions);
            }
            out.put(group, CompletableFuture.completedFuture(there));
        });
        return out;
    }

    @Override
    public CompletableFuture<Map<TopicPartition, Throwable>> alterShareGroupOffsets(
            String group, Map<TopicPartition, Long> wanted, WriteLease lease) {
        if (!lease.valid()) {
            return CompletableFuture.failedFuture(new WriteLeaseExpiredException()); // not sent
        }
        shareAlterCalls.incrementAndGet();
        if (unreachable) {
            return CompletableFuture.failedFuture(new TimeoutException("destination unreachable"));
        }
        DestinationGroup existing = groups.get(group);
        if (existing != null && existing.type() != GroupKind.SHARE) {
            return CompletableFuture.failedFuture(
                    new GroupIdNotFoundException("Group " + group + " is not a share group."));
        }
        if (existing != null && existing.active()) {
            return CompletableFuture.failedFuture(
                    new GroupNotEmptyException("The group is not empty."));
        }
        Map<TopicPartition, Throwable> result = new HashMap<>();
        wanted.forEach((tp, offset) -> {
            Integer count = topics.get(tp.topic());
            if (count == null || tp.partition() >= count) {
                result.put(tp, new UnknownTopicOrPartitionException("unknown " + tp));
            } else {
                shareOffsets.computeIfAbsent(group, g -> new ConcurrentHashMap<>()).put(tp, offset);
                shareDelivered.computeIfPresent(group, (g, delivered) -> {
                    Map<TopicPartition, Long> left = new HashMap<>(delivered);
                    left.remove(tp);
                    return left;
                });
                result.put(tp, null);
            }
        });
        groups.putIfAbsent(group, new DestinationGroup(group, GroupKind.SHARE, "share", false, "EMPTY"));
        return CompletableFuture.completedFuture(result);
    }

    @Override
    public void close() {
    }
}
