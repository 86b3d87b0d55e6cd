package dev.sextant.source;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicCollection;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.errors.UnsupportedVersionException;

/**
 * {@link SourceOffsets} over the Admin API: one ListOffsets request for the log starts and one batched
 * OffsetFetch per coordinator for every synced consumer group, once per pruning round; a few more requests while
 * an instance starts ({@link #topicEnds}, {@link #committed}: whether its offset-sync history has caught up).
 */
public final class AdminSourceOffsets implements SourceOffsets {

    /** Groups asked for their offsets in one batched OffsetFetch while pruning. */
    static final int GROUP_PAGE = 500;

    private final Admin admin;
    private final Predicate<String> includeGroup;

    public AdminSourceOffsets(Map<String, Object> clientConfig, Predicate<String> includeGroup) {
        this.admin = Admin.create(clientConfig);
        this.includeGroup = includeGroup;
    }

    @Override
    public CompletableFuture<Map<TopicPartition, Long>> pruneFloors(Set<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return CompletableFuture.completedFuture(Map.of());
        }
        return logStarts(partitions).thenCombine(lowestCommitted(partitions), (starts, committed) -> {
            Map<TopicPartition, Long> floors = new HashMap<>();
            starts.forEach((tp, start) -> floors.put(tp, Math.min(start, committed.getOrDefault(tp, Long.MAX_VALUE))));
            return floors;
        });
    }

    @Override
    public CompletableFuture<Map<TopicPartition, Long>> logEnds(Set<TopicPartition> partitions) {
        return listOffsets(partitions, OffsetSpec.latest());
    }

    @Override
    public CompletableFuture<Map<TopicPartition, Long>> topicEnds(String topic) {
        return admin.describeTopics(List.of(topic)).allTopicNames().toCompletionStage().toCompletableFuture()
                .handle((described, err) -> {
                    if (err != null) {
                        if (unwrap(err) instanceof UnknownTopicOrPartitionException) {
                            return CompletableFuture.completedFuture(Map.<TopicPartition, Long>of());
                        }
                        throw new CompletionException(unwrap(err));
                    }
                    Set<TopicPartition> partitions = described.get(topic).partitions().stream()
                            .map(p -> new TopicPartition(topic, p.partition())).collect(Collectors.toSet());
                    return listOffsets(partitions, OffsetSpec.latest(),
                            new ListOffsetsOptions(IsolationLevel.READ_COMMITTED));
                }).thenCompose(f -> f);
    }

    @Override
    public CompletableFuture<Map<TopicPartition, StableEnd>> stableEnds(Set<TopicPartition> partitions) {
        return listOffsets(partitions, OffsetSpec.latest(), new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                .thenCombine(listOffsets(partitions, OffsetSpec.latest()), (stable, high) -> {
                    Map<TopicPartition, StableEnd> out = new HashMap<>();
                    stable.forEach((tp, lso) -> {
                        Long hw = high.get(tp);
                        if (hw != null) {
                            out.put(tp, new StableEnd(Math.min(lso, hw), hw));
                        }
                    });
                    return out;
                });
    }

    @Override
    public CompletableFuture<Map<String, Map<TopicPartition, Long>>> committed(Set<String> groups) {
        if (groups.isEmpty()) {
            return CompletableFuture.completedFuture(Map.of());
        }
        // requireStable stays false: the coordinator answers with what is committed, leaving out open transactions
        Map<String, ListConsumerGroupOffsetsSpec> specs = groups.stream()
                .collect(Collectors.toMap(g -> g, g -> new ListConsumerGroupOffsetsSpec()));
        return admin.listConsumerGroupOffsets(specs).all().toCompletionStage().toCompletableFuture()
                .thenApply(all -> {
                    Map<String, Map<TopicPartition, Long>> out = new HashMap<>();
                    all.forEach((group, offsets) -> offsets.forEach((tp, om) -> {
                        if (om != null) {
                            out.computeIfAbsent(group, g -> new HashMap<>()).put(tp, om.offset());
                        }
                    }));
                    return out;
                });
    }

    @Override
    public CompletableFuture<Map<String, Uuid>> topicIds(Set<String> topics) {
        if (topics.isEmpty()) {
            return CompletableFuture.completedFuture(Map.of());
        }
        Map<String, Uuid> ids = new ConcurrentHashMap<>();
        // one future per topic: a topic that is gone leaves out its own answer only
        CompletableFuture<?>[] each = admin.describeTopics(TopicCollection.ofTopicNames(topics)).topicNameValues()
                .entrySet().stream()
                .map(e -> e.getValue().toCompletionStage().toCompletableFuture().handle((described, err) -> {
                    if (err == null) {
                        ids.put(e.getKey(), described.topicId());
                    } else if (!(unwrap(err) instanceof UnknownTopicOrPartitionException)) {
                        throw new CompletionException(unwrap(err));
                    }
                    return null;
                }))
                .toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(each).thenApply(v -> Map.copyOf(ids));
    }

    @Override
    public CompletableFuture<Map<TopicPartition, Long>> committed(String group, Set<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return CompletableFuture.completedFuture(Map.of());
        }
        return admin.listConsumerGroupOffsets(Map.of(group, new ListConsumerGroupOffsetsSpec()
                        .topicPartitions(partitions))).partitionsToOffsetAndMetadata(group).toCompletionStage()
                .toCompletableFuture().thenApply(offsets -> {
                    Map<TopicPartition, Long> committed = new HashMap<>();
                    offsets.forEach((tp, om) -> {
                        if (om != null) {
                            committed.put(tp, om.offset());
                        }
                    });
                    return committed;
                });
    }

    @Override
    public CompletableFuture<Map<TopicPartition, Long>> logStarts(Set<TopicPartition> partitions) {
        return listOffsets(partitions, OffsetSpec.earliest());
    }

    private CompletableFuture<Map<TopicPartition, Long>> listOffsets(Set<TopicPartition> partitions, OffsetSpec spec) {
        return listOffsets(partitions, spec, new ListOffsetsOptions());
    }

    private CompletableFuture<Map<TopicPartition, Long>> listOffsets(Set<TopicPartition> partitions, OffsetSpec spec,
                                                                     ListOffsetsOptions options) {
        if (partitions.isEmpty()) {
            return CompletableFuture.completedFuture(Map.of());
        }
        ListOffsetsResult result = admin.listOffsets(partitions.stream()
                .collect(Collectors.toMap(tp -> tp, tp -> spec)), options);
        Map<TopicPartition, Long> starts = new ConcurrentHashMap<>();
        CompletableFuture<?>[] each = partitions.stream().map(tp -> result.partitionResult(tp).toCompletionStage()
                .toCompletableFuture().handle((info, err) -> {
                    if (info != null) {
                        starts.put(tp, info.offset());
                    } else if (!(unwrap(err) instanceof UnknownTopicOrPartitionException)) {
                        throw new CompletionException(unwrap(err));
                    }
                    return null; // a partition that does not exist (a deleted topic): left out
                })).toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(each).thenApply(v -> starts);
    }

    /**
     * The lowest offset any included group committed on each of the partitions: the groups are asked a page at a time
     * ({@link #GROUP_PAGE} per batched OffsetFetch, one page after the other), each for all its offsets rather than
     * for every partition with history, so a round costs what the groups committed, not groups times partitions, and
     * holds one page's answer at a time.
     */
    private CompletableFuture<Map<TopicPartition, Long>> lowestCommitted(Set<TopicPartition> partitions) {
        // Kafka Streams groups (KIP-1071) commit offsets as consumer groups do; brokers before 4.1 list none
        CompletableFuture<Collection<GroupListing>> streams = admin.listGroups(ListGroupsOptions.forStreamsGroups())
                .all().toCompletionStage().toCompletableFuture()
                .exceptionally(err -> {
                    if (unwrap(err) instanceof UnsupportedVersionException) {
                        return List.of(); // a broker that cannot list them has none
                    }
                    throw new CompletionException(unwrap(err)); // never prune without them
                });
        return admin.listGroups(ListGroupsOptions.forConsumerGroups()).all().toCompletionStage().toCompletableFuture()
                .thenCombine(streams, (consumers, streamsGroups) -> {
                    List<GroupListing> all = new ArrayList<>(consumers);
                    all.addAll(streamsGroups);
                    return all;
                })
                .thenCompose(groups -> {
                    List<String> included = new ArrayList<>(included(groups));
                    Map<TopicPartition, Long> lowest = new ConcurrentHashMap<>();
                    CompletableFuture<Void> pages = CompletableFuture.completedFuture(null);
                    for (int from = 0; from < included.size(); from += GROUP_PAGE) {
                        List<String> page = included.subList(from, Math.min(included.size(), from + GROUP_PAGE));
                        pages = pages.thenCompose(v -> lowestOf(page, partitions, lowest));
                    }
                    return pages.thenApply(v -> Map.copyOf(lowest));
                });
    }

    private CompletableFuture<Void> lowestOf(List<String> page, Set<TopicPartition> partitions,
                                             Map<TopicPartition, Long> lowest) {
        Map<String, ListConsumerGroupOffsetsSpec> specs = page.stream()
                .collect(Collectors.toMap(g -> g, g -> new ListConsumerGroupOffsetsSpec()));
        return admin.listConsumerGroupOffsets(specs).all().toCompletionStage().toCompletableFuture()
                .thenAccept(all -> all.values().forEach(offsets -> offsets.forEach((tp, om) -> {
                    if (om != null && partitions.contains(tp)) {
                        lowest.merge(tp, om.offset(), Math::min);
                    }
                })));
    }

    private Set<String> included(Collection<GroupListing> groups) {
        return groups.stream().map(GroupListing::groupId).filter(includeGroup).collect(Collectors.toSet());
    }

    private static Throwable unwrap(Throwable t) {
        return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
