package dev.sextant.source;

import dev.sextant.clients.ClusterIds;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.internals.Topic;

/**
 * A command's session with the source cluster: its groups (types, states, members, committed offsets), its id, and a
 * watch on its {@code __consumer_offsets}. Read-only: the one Admin client every read of a command goes through, each
 * call bounded by the session's timeout.
 */
public final class SourceSession implements AutoCloseable {

    /**
     * One consumer group's committed offsets on the source, for {@code failover --from-source}.
     *
     * @param offsets     per partition, what the group committed (partitions without a commit left out)
     * @param members     how many members it has now (0 when it cannot be described as a consumer group)
     * @param state       the coordinator's state when described, else null
     * @param streams     true for a Kafka Streams group (KIP-1071)
     */
    public record CommittedGroup(Map<TopicPartition, OffsetAndMetadata> offsets, int members, String state,
                                 boolean streams) {
    }

    private final Map<String, Object> clientConfig;
    private final Admin admin;
    private final long timeoutMs;

    public SourceSession(Map<String, Object> sourceClientConfig, long timeoutMs) {
        this.clientConfig = Map.copyOf(sourceClientConfig);
        this.admin = Admin.create(sourceClientConfig);
        this.timeoutMs = timeoutMs;
    }

    /** The groups as the source shows them now; a group the source does not know has no offsets and no members. */
    public Map<String, SourceGroup> read(Set<String> groups) {
        Map<String, GroupListing> listed = new HashMap<>();
        for (GroupListing listing : get(admin.listGroups().all())) {
            if (groups.contains(listing.groupId())) {
                listed.put(listing.groupId(), listing);
            }
        }
        Map<String, ListConsumerGroupOffsetsSpec> consumers = new HashMap<>();
        Map<String, ListShareGroupOffsetsSpec> shares = new HashMap<>();
        for (String group : groups) {
            if (typeOf(listed.get(group)).equals("share")) {
                shares.put(group, new ListShareGroupOffsetsSpec());
            } else {
                consumers.put(group, new ListConsumerGroupOffsetsSpec());
            }
        }
        Map<String, Map<TopicPartition, Long>> offsets = new HashMap<>();
        Map<String, Map<TopicPartition, String>> metadata = new HashMap<>();
        if (!consumers.isEmpty()) {
            readCommitted(consumers, offsets, metadata);
        }
        if (!shares.isEmpty()) {
            var result = admin.listShareGroupOffsets(shares);
            for (String group : shares.keySet()) {
                Map<TopicPartition, Long> starts = new TreeMap<>(BY_PARTITION);
                get(result.partitionsToOffsetInfo(group)).forEach((tp, info) -> {
                    if (info != null && info.startOffset() >= 0) {
                        starts.put(tp, info.startOffset());
                    }
                });
                offsets.put(group, starts);
            }
        }
        Map<String, List<String>> members = members(listed);
        Map<String, SourceGroup> out = new TreeMap<>();
        for (String group : groups) {
            GroupListing listing = listed.get(group);
            GroupState state = listing == null ? GroupState.EMPTY : listing.groupState().orElse(GroupState.UNKNOWN);
            out.put(group, new SourceGroup(group, typeOf(listing), state, members.getOrDefault(group, List.of()),
                    offsets.getOrDefault(group, Map.of()), metadata.getOrDefault(group, Map.of())));
        }
        return out;
    }

    /** The consumer groups' committed offsets, and the metadata of those that carry any, into the two maps. */
    private void readCommitted(Map<String, ListConsumerGroupOffsetsSpec> consumers,
                               Map<String, Map<TopicPartition, Long>> offsets,
                               Map<String, Map<TopicPartition, String>> metadata) {
        get(admin.listConsumerGroupOffsets(consumers).all()).forEach((group, byPartition) -> {
            Map<TopicPartition, Long> committed = new TreeMap<>(BY_PARTITION);
            Map<TopicPartition, String> described = new HashMap<>();
            byPartition.forEach((tp, om) -> {
                if (om != null) {
                    committed.put(tp, om.offset());
                    if (om.metadata() != null && !om.metadata().isEmpty()) {
                        described.put(tp, om.metadata());
                    }
                }
            });
            offsets.put(group, committed);
            metadata.put(group, described);
        });
    }

    /** The source cluster's id, or null when it does not say (the marks then name no cluster, as before 1.0). */
    public String clusterId() {
        try {
            return ClusterIds.read(admin, Duration.ofMillis(timeoutMs), "the source cluster");
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * The group's committed offsets, how many members it has and whether it is a Kafka Streams group.
     *
     * @throws IllegalStateException when the source does not answer, or the group has no committed offsets there
     */
    public CommittedGroup committed(String group) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new LinkedHashMap<>();
        try {
            get(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()).forEach((tp, om) -> {
                if (om != null) {
                    offsets.put(tp, om);
                }
            });
        } catch (IllegalStateException | KafkaException e) {
            throw new IllegalStateException("cannot read the committed offsets of group '" + group
                    + "' on the source cluster (" + clientConfig.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG)
                    + "): " + e.getMessage(), e);
        }
        if (offsets.isEmpty()) {
            throw new IllegalStateException("group '" + group + "' has no committed offsets on the source cluster");
        }
        int members = 0;
        String state = null;
        try {
            ConsumerGroupDescription description = get(admin.describeConsumerGroups(List.of(group)).all()).get(group);
            if (description != null) {
                members = description.members().size();
                state = String.valueOf(description.groupState());
            }
        } catch (IllegalStateException | KafkaException e) {
            // not describable as a consumer group (a simple group, a streams group): no members to name
        }
        return new CommittedGroup(offsets, members, state, isStreamsGroup(group));
    }

    /** True for a Kafka Streams group (KIP-1071); false also when it cannot be told (a broker without them). */
    private boolean isStreamsGroup(String group) {
        try {
            return get(admin.listGroups(ListGroupsOptions.forStreamsGroups()).all()).stream()
                    .anyMatch(g -> g.groupId().equals(group));
        } catch (IllegalStateException | KafkaException e) {
            return false;
        }
    }

    /**
     * Starts watching {@code __consumer_offsets} for commits of {@code groups}, from now on.
     *
     * @see SourceCommitWatch
     */
    public SourceCommitWatch watchCommits(Set<String> groups) {
        return new SourceCommitWatch(clientConfig, groups, consumerOffsetsPartitions());
    }

    /** Partitions of {@code __consumer_offsets}: where each group's commits are. */
    public int consumerOffsetsPartitions() {
        return get(admin.describeTopics(List.of(Topic.GROUP_METADATA_TOPIC_NAME)).allTopicNames())
                .get(Topic.GROUP_METADATA_TOPIC_NAME).partitions().size();
    }

    public static final Comparator<TopicPartition> BY_PARTITION =
            Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);

    /** {@code clientId/host} of the members of the consumer groups (classic or not) listed with a live state. */
    private Map<String, List<String>> members(Map<String, GroupListing> listed) {
        List<String> live = listed.values().stream()
                .filter(l -> l.type().map(t -> t == GroupType.CONSUMER || t == GroupType.CLASSIC).orElse(false))
                .filter(l -> l.groupState().map(SourceGroup::live).orElse(false))
                .map(GroupListing::groupId).toList();
        Map<String, List<String>> out = new HashMap<>();
        if (live.isEmpty()) {
            return out;
        }
        for (Map.Entry<String, ConsumerGroupDescription> e
                : get(admin.describeConsumerGroups(live).all()).entrySet()) {
            List<String> names = new ArrayList<>();
            for (MemberDescription member : e.getValue().members()) {
                names.add(member.clientId() + member.host());
            }
            out.put(e.getKey(), names);
        }
        return out;
    }

    private static String typeOf(GroupListing listing) {
        if (listing == null || listing.type().isEmpty()) {
            return "consumer";
        }
        GroupType type = listing.type().get();
        return switch (type) {
            case SHARE -> "share";
            case STREAMS -> "streams";
            case CLASSIC -> "classic";
            default -> "consumer";
        };
    }

    private <T> T get(KafkaFuture<T> future) {
        try {
            return future.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the source cluster did not answer within " + timeoutMs + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() {
        admin.close();
    }
}
