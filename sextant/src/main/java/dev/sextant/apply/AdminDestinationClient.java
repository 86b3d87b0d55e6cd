package dev.sextant.apply;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConsumerGroupOffsetsResult;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsResult;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * {@link DestinationClient} over the Kafka Admin API.
 *
 * <p>A Kafka Admin client has one request in flight per broker, and every group's offset write is its own request
 * to the group's coordinator. Writes therefore go through a small pool of Admin clients ({@code writers}), a group
 * always through the same one; reads (groups, topics, end offsets, offsets to check) go through the main client.
 */
public final class AdminDestinationClient implements DestinationClient {

    /** How long a read of the destination's groups, topics or log ends may take: past it, it counts as unreachable. */
    static final int READ_TIMEOUT_MS = 10_000;

    private final Admin admin;
    private final List<Admin> writers;

    public AdminDestinationClient(Map<String, Object> clientConfig) {
        this(clientConfig, 1);
    }

    /** @param writers Admin clients for offset writes (1: the main client writes too) */
    public AdminDestinationClient(Map<String, Object> clientConfig, int writers) {
        this.admin = Admin.create(clientConfig);
        List<Admin> pool = new ArrayList<>();
        for (int i = 0; i < writers && writers > 1; i++) {
            Map<String, Object> config = new HashMap<>(clientConfig);
            Object id = clientConfig.get(AdminClientConfig.CLIENT_ID_CONFIG);
            if (id != null && !id.toString().isEmpty()) {
                config.put(AdminClientConfig.CLIENT_ID_CONFIG, id + "-writer-" + i);
            }
            pool.add(Admin.create(config));
        }
        this.writers = pool.isEmpty() ? List.of(admin) : List.copyOf(pool);
    }

    public AdminDestinationClient(Admin admin) {
        this.admin = admin;
        this.writers = List.of(admin);
    }

    /** Binds the Admin clients' own metrics (requests, latency, connections), tagged with their client ids. */
    public void bindMetrics(io.micrometer.core.instrument.MeterRegistry registry) {
        java.util.Set<Admin> all = new java.util.LinkedHashSet<>(writers);
        all.add(admin);
        for (Admin client : all) {
            if (!(client instanceof org.apache.kafka.clients.admin.AdminClient adminClient)) {
                continue; // a test double
            }
            var binder = new io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics(adminClient);
            binder.bindTo(registry);
            binders.add(binder);
        }
    }

    private final List<AutoCloseable> binders = new java.util.concurrent.CopyOnWriteArrayList<>();

    private Admin writerFor(String group) {
        return writers.get(Math.floorMod(group.hashCode(), writers.size()));
    }

    @Override
    public CompletableFuture<Map<String, DestinationGroup>> listGroups() {
        // bounded well below Admin's default 60 s: a destination that hangs must show as unreachable soon
        return toCompletable(admin.listGroups(new ListGroupsOptions().timeoutMs(READ_TIMEOUT_MS)).all())
                .thenApply(AdminDestinationClient::toGroups);
    }

    private static Map<String, DestinationGroup> toGroups(Collection<GroupListing> listings) {
        Map<String, DestinationGroup> groups = new HashMap<>();
        for (GroupListing listing : listings) {
            GroupType kind = listing.type().orElse(GroupType.UNKNOWN);
            String protocol = listing.protocol();
            dev.sextant.domain.GroupKind phase = switch (kind) {
                case CONSUMER -> dev.sextant.domain.GroupKind.CONSUMER;
                // classic groups with another protocol type (connect, ...) are not consumer groups
                case CLASSIC -> protocol == null || protocol.isEmpty() || protocol.equals("consumer")
                        ? dev.sextant.domain.GroupKind.CONSUMER : null;
                case SHARE -> dev.sextant.domain.GroupKind.SHARE;
                default -> null;
            };
            GroupState state = listing.groupState().orElse(GroupState.UNKNOWN);
            boolean active = state != GroupState.EMPTY && state != GroupState.DEAD && state != GroupState.UNKNOWN;
            String label = kind.toString().toLowerCase(java.util.Locale.ROOT)
                    + (kind == GroupType.CLASSIC && protocol != null && !protocol.isEmpty() ? "/" + protocol : "");
            groups.put(listing.groupId(), new DestinationGroup(listing.groupId(), phase, label, active, state.toString()));
        }
        return groups;
    }

    @Override
    public CompletableFuture<Map<String, Integer>> partitionCounts(Set<String> topics) {
        if (topics.isEmpty()) {
            return CompletableFuture.completedFuture(Map.of());
        }
        Map<String, KafkaFuture<TopicDescription>> futures = admin.describeTopics(topics,
                new org.apache.kafka.clients.admin.DescribeTopicsOptions().timeoutMs(READ_TIMEOUT_MS)).topicNameValues();
        Map<String, Integer> counts = new java.util.concurrent.ConcurrentHashMap<>();
        CompletableFuture<?>[] all = futures.entrySet().stream()
                .map(e -> toCompletable(e.getValue())
                        .handle((desc, err) -> {
                            if (desc != null) {
                                counts.put(e.getKey(), desc.partitions().size());
                            } else if (!(unwrap(err) instanceof UnknownTopicOrPartitionException)) {
                                throw new java.util.concurrent.CompletionException(unwrap(err));
                            }
                            return null;
                        }))
                .toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(all).thenApply(v -> Map.copyOf(counts));
    }

    @Override
    public CompletableFuture<Map<TopicPartition, Long>> endOffsets(Set<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return CompletableFuture.completedFuture(Map.of());
        }
        var result = admin.listOffsets(partitions.stream().collect(Collectors.toMap(tp -> tp,
                tp -> org.apache.kafka.clients.admin.OffsetSpec.latest())),
                new org.apache.kafka.clients.admin.ListOffsetsOptions().timeoutMs(READ_TIMEOUT_MS));
        Map<TopicPartition, Long> ends = new java.util.concurrent.ConcurrentHashMap<>();
        CompletableFuture<?>[] each = partitions.stream().map(tp -> toCompletable(result.partitionResult(tp))
                .handle((info, err) -> {
                    if (info != null) {
                        ends.put(tp, info.offset());
                    }
                    return null; // a partition that vanished: no end offset
                })).toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(each).thenApply(v -> Map.copyOf(ends));
    }

    @Override
    public Map<String, CompletableFuture<Map<TopicPartition, OffsetAndMetadata>>> consumerGroupOffsets(
            Map<String, Set<TopicPartition>> partitionsByGroup) {
        if (partitionsByGroup.isEmpty()) {
            return Map.of();
        }
        Map<String, ListConsumerGroupOffsetsSpec> specs = partitionsByGroup.entrySet().stream().collect(
                Collectors.toMap(Map.Entry::getKey, e -> new ListConsumerGroupOffsetsSpec().topicPartitions(e.getValue())));
        ListConsumerGroupOffsetsResult result = admin.listConsumerGroupOffsets(specs);
        Map<String, CompletableFuture<Map<TopicPartition, OffsetAndMetadata>>> out = new HashMap<>();
        for (String group : partitionsByGroup.keySet()) {
            out.put(group, toCompletable(result.partitionsToOffsetAndMetadata(group)).thenApply(offsets -> {
                Map<TopicPartition, OffsetAndMetadata> present = new HashMap<>();
                // partitions without a commit come back with a null value
                offsets.forEach((tp, om) -> {
                    if (om != null) {
                        present.put(tp, om);
                    }
                });
                return present;
            }));
        }
        return out;
    }

    @Override
    public CompletableFuture<Map<TopicPartition, Throwable>> alterConsumerGroupOffsets(
            String group, Map<TopicPartition, OffsetAndMetadata> offsets) {
        AlterConsumerGroupOffsetsResult result = writerFor(group).alterConsumerGroupOffsets(group, offsets);
        return perPartition(offsets.keySet(), tp -> toCompletable(result.partitionResult(tp)));
    }

    @Override
    public CompletableFuture<Map<TopicPartition, Throwable>> alterShareGroupOffsets(
            String group, Map<TopicPartition, Long> offsets) {
        var result = writerFor(group).alterShareGroupOffsets(group, offsets);
        return perPartition(offsets.keySet(), tp -> toCompletable(result.partitionResult(tp)));
    }

    /**
     * Collects per-partition results. A group-level error (active group, another group type) fails every partition
     * the same way: that becomes the failure of the whole call.
     */
    private static CompletableFuture<Map<TopicPartition, Throwable>> perPartition(
            Set<TopicPartition> partitions,
            java.util.function.Function<TopicPartition, CompletableFuture<Void>> resultOf) {
        Map<TopicPartition, Throwable> errors = new java.util.concurrent.ConcurrentHashMap<>();
        CompletableFuture<?>[] perPartition = partitions.stream()
                .map(tp -> resultOf.apply(tp).handle((ok, err) -> {
                    if (err != null) {
                        errors.put(tp, unwrap(err));
                    }
                    return null;
                }))
                .toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(perPartition).thenCompose(v -> {
            if (!errors.isEmpty() && errors.size() == partitions.size()) {
                Throwable first = errors.values().iterator().next();
                boolean same = errors.values().stream().allMatch(e -> e.getClass() == first.getClass());
                if (same && !(first instanceof UnknownTopicOrPartitionException)) {
                    return CompletableFuture.failedFuture(first);
                }
            }
            Map<TopicPartition, Throwable> outcome = new HashMap<>();
            partitions.forEach(tp -> outcome.put(tp, errors.get(tp)));
            return CompletableFuture.completedFuture(outcome);
        });
    }

    @Override
    public void close() {
        for (AutoCloseable binder : binders) {
            try {
                binder.close();
            } catch (Exception e) {
                // closing anyway
            }
        }
        // all at once, within 5 s: writes still queued then are given up (their positions stay pending in the
        // changelogged store, for whichever instance owns them next)
        List<CompletableFuture<Void>> closing = new ArrayList<>();
        for (Admin writer : writers) {
            if (writer != admin) {
                closing.add(CompletableFuture.runAsync(() -> writer.close(Duration.ofSeconds(5))));
            }
        }
        admin.close(Duration.ofSeconds(5));
        closing.forEach(CompletableFuture::join);
    }

    static <T> CompletableFuture<T> toCompletable(KafkaFuture<T> future) {
        return future.toCompletionStage().toCompletableFuture();
    }

    static Throwable unwrap(Throwable t) {
        while ((t instanceof java.util.concurrent.CompletionException
                || t instanceof java.util.concurrent.ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
