package dev.sextant.failover;

import dev.sextant.apply.AdminDestinationClient;
import dev.sextant.apply.ConsumerGroupApplier;
import dev.sextant.apply.DestinationGroup;
import dev.sextant.apply.GroupApplier;
import dev.sextant.apply.GroupOutcome;
import dev.sextant.apply.OffsetOwnership;
import dev.sextant.apply.PlannedPartition;
import dev.sextant.apply.ShareGroupApplier;
import dev.sextant.client.SextantClient;
import dev.sextant.client.SextantClientException;
import dev.sextant.config.RewindPolicy;
import dev.sextant.config.SextantConfig;
import dev.sextant.domain.GroupKind;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A failover read from the destination, for the day the source is gone: what every selected group holds on the
 * destination, how exact it is (from the mark Sextant writes with each offset), how old its last sync is; and, when a
 * Sextant instance still answers, the positions it translated but did not apply yet, which {@code apply} writes.
 *
 * <pre>
 *   destination: listGroups ─▶ committed offsets (consumer) / start offsets (share) ─▶ marks: commit time, bound
 *   instance (optional): GET /v1/groups/{group} ─▶ translations the destination lacks ─▶ apply: appliers, guards
 * </pre>
 *
 * <p>Invariants: the source cluster is never contacted; nothing is written without {@code apply}, and then only
 * through the sync's appliers and their guards (never onto a group active on the destination, of another type, or
 * whose offsets Sextant did not write, never over a newer commit).
 */
public final class DestinationFailover {

    /** Where a partition stands. */
    public enum PartitionStatus {
        /** The destination holds Sextant's latest translation (or, for share groups, its start offset). */
        IN_SYNC,
        /** A Sextant instance holds a newer translation than the destination: written with apply. */
        PENDING,
        /** Written by this failover. */
        WRITTEN,
        /** The offset there was not written by Sextant. */
        NOT_SEXTANT,
        /** The pending translation could not be written. */
        NOT_WRITTEN
    }

    /** The outcome for a group. */
    public enum GroupResult { READY, PENDING, APPLIED, REFUSED, FAILED }

    /**
     * @param offset        the destination's committed (or start) offset; null when it holds none
     * @param precision     {@code exact} or {@code bounded}, null when not known
     * @param lastSyncAgeMs how long ago the source commit this offset carries was made; null when not known
     * @param pendingOffset a newer translation a Sextant instance holds; null when none
     */
    public record PartitionState(String topic, int partition, Long offset, String precision, Long bound,
                                 Long lastSyncAgeMs, Long pendingOffset, PartitionStatus status) {
    }

    public record GroupState(String group, String groupType, String destinationState, GroupResult result,
                             String detail, List<PartitionState> partitions) {
    }

    /** @param instance the Sextant instance asked, or null; {@code instanceProblem} why it did not help, or null */
    public record Report(List<GroupState> groups, String instance, String instanceProblem, long tookMs) {

        public boolean clean() {
            return groups.stream()
                    .noneMatch(g -> g.result() == GroupResult.REFUSED || g.result() == GroupResult.FAILED);
        }
    }

    private final SextantConfig config;
    private final Clock clock;

    public DestinationFailover(SextantConfig config, Clock clock) {
        this.config = config;
        this.clock = clock;
    }

    /**
     * @param selected  which groups (the configuration's group filters apply too)
     * @param instance  a Sextant instance to ask for positions not applied yet, or empty
     * @param apply     write those positions
     * @param progress  receives a line per step, for a terminal
     * @throws IllegalStateException when the destination cannot be read within {@code timeout}
     */
    public Report run(Predicate<String> selected, Optional<SextantClient> instance, boolean apply, Duration timeout,
                      Consumer<String> progress) {
        long started = clock.millis();
        Map<String, Object> clientConfig = new HashMap<>(config.destinationClientConfig());
        int timeoutMs = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        clientConfig.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs);
        clientConfig.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.min(timeoutMs, 30_000));
        try (AdminDestinationClient destination = new AdminDestinationClient(clientConfig);
             Admin admin = Admin.create(clientConfig)) {
            progress.accept("reading the destination's groups");
            Map<String, DestinationGroup> groups = new LinkedHashMap<>();
            get(destination.listGroups(), timeout, "listing the destination's groups").values().stream()
                    .filter(g -> g.type() != null && selected.test(g.groupId()) && config.includesGroup(g.groupId()))
                    .sorted(Comparator.comparing(DestinationGroup::groupId))
                    .forEach(g -> groups.put(g.groupId(), g));
            progress.accept("reading the offsets of " + groups.size() + " group(s)");
            Map<String, Map<TopicPartition, OffsetAndMetadata>> consumerOffsets =
                    consumerOffsets(admin, groups, timeout);
            Map<String, Map<TopicPartition, Long>> shareOffsets = shareOffsets(admin, groups, timeout);

            Map<String, List<SextantClient.Partition>> known = new HashMap<>();
            String instanceProblem = null;
            if (instance.isPresent()) {
                progress.accept("asking the Sextant instance for positions not applied yet");
                instanceProblem = ask(instance.get(), groups.keySet(), known);
            }
            OffsetOwnership ownership = new OffsetOwnership(config.applicationId());
            long now = clock.millis();
            List<GroupState> states = new ArrayList<>();
            Map<String, List<PlannedPartition>> consumerPlans = new LinkedHashMap<>();
            Map<String, List<PlannedPartition>> sharePlans = new LinkedHashMap<>();
            for (DestinationGroup group : groups.values()) {
                GroupState state = state(group, consumerOffsets.getOrDefault(group.groupId(), Map.of()),
                        shareOffsets.getOrDefault(group.groupId(), Map.of()),
                        known.getOrDefault(group.groupId(), List.of()), ownership, now);
                states.add(state);
                if (apply && state.result() == GroupResult.PENDING) {
                    (group.type() == GroupKind.SHARE ? sharePlans : consumerPlans).put(group.groupId(),
                            plans(group.groupId(), known.get(group.groupId())));
                }
            }
            if (apply && !(consumerPlans.isEmpty() && sharePlans.isEmpty())) {
                progress.accept("writing " + (consumerPlans.size() + sharePlans.size()) + " group(s)");
                Map<String, GroupOutcome> outcomes = write(destination, consumerPlans, sharePlans, timeout);
                states.replaceAll(s -> outcomes.containsKey(s.group()) || consumerPlans.containsKey(s.group())
                        || sharePlans.containsKey(s.group()) ? settle(s, outcomes.get(s.group())) : s);
            }
            return new Report(states, instance.isPresent() ? "asked" : null, instanceProblem, clock.millis() - started);
        }
    }

    private Map<String, Map<TopicPartition, OffsetAndMetadata>> consumerOffsets(
            Admin admin, Map<String, DestinationGroup> groups, Duration timeout) {
        Map<String, ListConsumerGroupOffsetsSpec> specs = new HashMap<>();
        groups.values().stream().filter(g -> g.type() == GroupKind.CONSUMER)
                .forEach(g -> specs.put(g.groupId(), new ListConsumerGroupOffsetsSpec()));
        Map<String, Map<TopicPartition, OffsetAndMetadata>> out = new HashMap<>();
        if (specs.isEmpty()) {
            return out;
        }
        var result = admin.listConsumerGroupOffsets(specs);
        for (String group : specs.keySet()) {
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            get(result.partitionsToOffsetAndMetadata(group).toCompletionStage().toCompletableFuture(), timeout,
                    "reading the offsets of " + group).forEach((tp, om) -> {
                        if (om != null) {
                            offsets.put(tp, om);
                        }
                    });
            out.put(group, offsets);
        }
        return out;
    }

    private Map<String, Map<TopicPartition, Long>> shareOffsets(Admin admin, Map<String, DestinationGroup> groups,
                                                                Duration timeout) {
        Map<String, ListShareGroupOffsetsSpec> specs = new HashMap<>();
        groups.values().stream().filter(g -> g.type() == GroupKind.SHARE)
                .forEach(g -> specs.put(g.groupId(), new ListShareGroupOffsetsSpec()));
        Map<String, Map<TopicPartition, Long>> out = new HashMap<>();
        if (specs.isEmpty()) {
            return out;
        }
        var result = admin.listShareGroupOffsets(specs);
        for (String group : specs.keySet()) {
            Map<TopicPartition, Long> offsets = new HashMap<>();
            Map<TopicPartition, SharePartitionOffsetInfo> infos = get(result.partitionsToOffsetInfo(group)
                    .toCompletionStage().toCompletableFuture(), timeout, "reading the start offsets of " + group);
            infos.forEach((tp, info) -> {
                if (info != null) {
                    offsets.put(tp, info.startOffset());
                }
            });
            out.put(group, offsets);
        }
        return out;
    }

    /** Fills {@code known} with the instance's positions per group; returns why it could not, or null. */
    private static String ask(SextantClient instance, Iterable<String> groups,
                              Map<String, List<SextantClient.Partition>> known) {
        for (String group : groups) {
            try {
                known.put(group, instance.group(group).partitions());
            } catch (SextantClientException e) {
                if (e.status() == 404) {
                    continue; // Sextant does not know the group: the destination is all there is
                }
                return "the Sextant instance did not answer (" + e.getMessage() + "): only what the destination "
                        + "holds is shown";
            }
        }
        return null;
    }

    private static GroupState state(DestinationGroup group, Map<TopicPartition, OffsetAndMetadata> consumer,
                                    Map<TopicPartition, Long> share, List<SextantClient.Partition> known,
                                    OffsetOwnership ownership, long now) {
        Map<TopicPartition, PartitionState> rows = new TreeMap<>(
                Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
        if (group.type() == GroupKind.CONSUMER) {
            consumer.forEach((tp, om) -> rows.put(tp, committedRow(tp, om, ownership, now)));
        } else {
            share.forEach((tp, offset) -> rows.put(tp, new PartitionState(tp.topic(), tp.partition(), offset, null,
                    null, null, null, PartitionStatus.IN_SYNC)));
        }
        boolean foreign = rows.values().stream().anyMatch(r -> r.status() == PartitionStatus.NOT_SEXTANT);
        notApplied(known).forEach((tp, p) -> {
            PartitionState there = rows.get(tp);
            if (there != null && there.offset() != null && there.offset().equals(p.translatedOffset())) {
                return; // the destination already holds it
            }
            rows.put(tp, pendingRow(tp, p, there, now));
        });
        return judge(group, foreign, List.copyOf(rows.values()));
    }

    /** A position the instance has translated and not applied yet. */
    private static boolean notApplied(SextantClient.Partition p) {
        return p.translatedOffset() != null && !"APPLIED".equals(p.status());
    }

    /** The positions the instance has translated and not applied yet, by destination partition. */
    private static Map<TopicPartition, SextantClient.Partition> notApplied(List<SextantClient.Partition> known) {
        Map<TopicPartition, SextantClient.Partition> pending = new HashMap<>();
        for (SextantClient.Partition p : known) {
            if (notApplied(p)) {
                pending.put(new TopicPartition(p.destinationTopic(), p.partition()), p);
            }
        }
        return pending;
    }

    /** A consumer group's committed offset on the destination, with what Sextant's mark in its metadata says. */
    private static PartitionState committedRow(TopicPartition tp, OffsetAndMetadata om, OffsetOwnership ownership,
                                               long now) {
        Optional<OffsetOwnership.Mark> mark = ownership.mark(om.metadata());
        boolean ours = ownership.owns(om.metadata());
        long bound = mark.map(OffsetOwnership.Mark::bound).orElse(-1L);
        long committedAt = mark.map(OffsetOwnership.Mark::commitTimestamp).orElse(-1L);
        return new PartitionState(tp.topic(), tp.partition(),
                om.offset(), bound < 0 ? null : bound == 0 ? "exact" : "bounded",
                bound < 0 ? null : bound, committedAt < 0 ? null : Math.max(0, now - committedAt), null,
                ours ? PartitionStatus.IN_SYNC : PartitionStatus.NOT_SEXTANT);
    }

    /** A translation the instance holds and the destination does not; {@code there} is what the destination has. */
    private static PartitionState pendingRow(TopicPartition tp, SextantClient.Partition p, PartitionState there,
                                             long now) {
        Long age = p.commitTimestamp() == null ? null : Math.max(0, now - p.commitTimestamp());
        return new PartitionState(tp.topic(), tp.partition(), there == null ? null : there.offset(),
                p.precision(), p.bound(), age, p.translatedOffset(),
                there != null && there.status() == PartitionStatus.NOT_SEXTANT
                        ? PartitionStatus.NOT_SEXTANT : PartitionStatus.PENDING);
    }

    private static GroupState judge(DestinationGroup group, boolean foreign, List<PartitionState> partitions) {
        boolean hasPending = partitions.stream().anyMatch(p -> p.status() == PartitionStatus.PENDING);
        GroupResult result;
        String detail = null;
        if (foreign) {
            result = GroupResult.REFUSED;
            detail = "offsets on the destination were not written by Sextant: its consumers already ran there, or "
                    + "another tool moved them";
        } else if (hasPending && group.active()) {
            result = GroupResult.REFUSED;
            detail = "active on the destination (" + group.state() + "): positions not applied yet cannot be "
                    + "written while it has members";
        } else if (hasPending) {
            result = GroupResult.PENDING;
            detail = "a Sextant instance holds newer positions: --apply writes them";
        } else if (partitions.isEmpty()) {
            result = GroupResult.READY;
            detail = "no offsets on the destination: its consumers start from auto.offset.reset";
        } else {
            result = GroupResult.READY;
        }
        return new GroupState(group.groupId(), group.type().label(), group.state(), result, detail, partitions);
    }

    private static List<PlannedPartition> plans(String group, List<SextantClient.Partition> known) {
        List<PlannedPartition> plans = new ArrayList<>();
        for (SextantClient.Partition p : known) {
            if (notApplied(p)) {
                plans.add(new PlannedPartition(new PositionKey(group, p.topic(), p.partition()),
                        new TopicPartition(p.destinationTopic(), p.partition()), p.sourceOffset(),
                        p.commitTimestamp() == null ? -1 : p.commitTimestamp(), p.translatedOffset(),
                        p.bound() == null ? -1 : p.bound()));
            }
        }
        return plans;
    }

    private Map<String, GroupOutcome> write(AdminDestinationClient destination,
                                            Map<String, List<PlannedPartition>> consumerPlans,
                                            Map<String, List<PlannedPartition>> sharePlans, Duration timeout) {
        Map<String, GroupOutcome> outcomes = new ConcurrentHashMap<>();
        CountDownLatch done = new CountDownLatch(consumerPlans.size() + sharePlans.size());
        GroupApplier consumers = new ConsumerGroupApplier(destination, new OffsetOwnership(config.applicationId()),
                config.rewindPolicy() == RewindPolicy.FOLLOW_SOURCE);
        GroupApplier shares = new ShareGroupApplier(destination);
        Consumer<GroupOutcome> collect = outcome -> {
            outcomes.put(outcome.group(), outcome);
            done.countDown();
        };
        if (!consumerPlans.isEmpty()) {
            consumers.apply(consumerPlans, collect);
        }
        if (!sharePlans.isEmpty()) {
            shares.apply(sharePlans, collect);
        }
        try {
            done.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Map.copyOf(outcomes);
    }

    private static GroupState settle(GroupState state, GroupOutcome outcome) {
        if (outcome == null) {
            return new GroupState(state.group(), state.groupType(), state.destinationState(), GroupResult.FAILED,
                    "the destination did not confirm the write in time", notWritten(state.partitions()));
        }
        if (outcome.retry() || outcome.reason() != null) {
            return new GroupState(state.group(), state.groupType(), state.destinationState(),
                    outcome.retry() ? GroupResult.FAILED : GroupResult.REFUSED,
                    (outcome.reason() == null ? "" : outcome.reason() + ": ") + outcome.detail(),
                    notWritten(state.partitions()));
        }
        List<PartitionState> partitions = new ArrayList<>();
        boolean failed = false;
        for (PartitionState p : state.partitions()) {
            if (p.status() != PartitionStatus.PENDING) {
                partitions.add(p);
                continue;
            }
            boolean written = written(outcome, p);
            failed |= !written;
            partitions.add(written ? written(p) : notWritten(p));
        }
        return new GroupState(state.group(), state.groupType(), state.destinationState(),
                failed ? GroupResult.FAILED : GroupResult.APPLIED, failed ? "not every position was written" : null,
                partitions);
    }

    /** Whether the outcome says the pending position of {@code p} is on the destination now. */
    private static boolean written(GroupOutcome outcome, PartitionState p) {
        return outcome.partitions().entrySet().stream().anyMatch(e ->
                e.getKey().partition() == p.partition()
                        && (e.getValue().status() == PositionStatus.APPLIED
                        || e.getValue().status() == PositionStatus.SUPERSEDED
                        || e.getValue().status() == PositionStatus.REWIND_SKIPPED)
                        && e.getValue().destinationOffset() == (long) p.pendingOffset());
    }

    private static List<PartitionState> notWritten(List<PartitionState> partitions) {
        return partitions.stream().map(p -> p.status() != PartitionStatus.PENDING ? p : notWritten(p)).toList();
    }

    /** A pending position the destination confirmed: its offset is the one written. */
    private static PartitionState written(PartitionState p) {
        return new PartitionState(p.topic(), p.partition(), p.pendingOffset(), p.precision(), p.bound(),
                p.lastSyncAgeMs(), null, PartitionStatus.WRITTEN);
    }

    /** A pending position the destination did not take: still pending, with the offset it had. */
    private static PartitionState notWritten(PartitionState p) {
        return new PartitionState(p.topic(), p.partition(), p.offset(), p.precision(), p.bound(), p.lastSyncAgeMs(),
                p.pendingOffset(), PartitionStatus.NOT_WRITTEN);
    }

    private static <T> T get(CompletableFuture<T> future, Duration timeout, String what) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(what + " failed: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the destination did not answer within " + timeout.toSeconds() + " s ("
                    + what + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + what, e);
        }
    }
}
