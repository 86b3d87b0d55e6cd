package dev.sextant.failover;

import com.fasterxml.jackson.annotation.JsonProperty;
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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
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
 * <p>With an instance, every group it knows is judged, not only those on the destination: a group or a partition the
 * destination lacks, a partition the instance could not translate, an offset the instance applied that is gone from
 * the destination (expired), a destination group of the other type: each makes the report not clean, since a consumer
 * starting there would fall back to {@code auto.offset.reset} and skip records (or never be written).
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
        NOT_WRITTEN,
        /**
         * The instance has no translation for the group's commit (no offset sync covers it, or the topic is not
         * mirrored) and the destination holds no offset: a consumer would start from {@code auto.offset.reset}.
         */
        UNTRANSLATED,
        /** The instance applied this partition, and the destination no longer holds it (expired): apply writes it. */
        MISSING
    }

    /**
     * The outcome for a group. {@code INCOMPLETE}: a partition the group committed on the source has no position
     * Sextant could translate, so nothing can be written for it; not clean.
     */
    public enum GroupResult { READY, PENDING, APPLIED, REFUSED, FAILED, INCOMPLETE }

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

        /**
         * Not refused, failed or incomplete, and no partition without an offset on the destination (a pending or
         * missing one has one there only after {@code apply}): its consumers resume without skipping.
         */
        @JsonProperty("clean")
        public boolean clean() {
            return result != GroupResult.REFUSED && result != GroupResult.FAILED && result != GroupResult.INCOMPLETE
                    && partitions.stream().allMatch(p -> p.offset() != null || p.status() == PartitionStatus.WRITTEN);
        }
    }

    /** @param instance the Sextant instance asked, or null; {@code instanceProblem} why it did not help, or null */
    public record Report(List<GroupState> groups, String instance, String instanceProblem, long tookMs) {

        /** Every group clean (see {@link GroupState#clean()}). */
        public boolean clean() {
            return groups.stream().allMatch(GroupState::clean);
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
            Map<String, DestinationGroup> onDestination = new HashMap<>();
            get(destination.listGroups(), timeout, "listing the destination's groups").values().stream()
                    .filter(g -> g.type() != null && selected.test(g.groupId()) && config.includesGroup(g.groupId()))
                    .forEach(g -> onDestination.put(g.groupId(), g));
            Known known = instance.map(i -> known(i, g -> selected.test(g) && config.includesGroup(g),
                    onDestination.keySet(), progress)).orElse(Known.NONE);
            Map<String, DestinationGroup> groups = new TreeMap<>(onDestination);
            known.types().forEach((group, type) -> groups.computeIfAbsent(group, g -> absent(g, type)));
            progress.accept("reading the offsets of " + onDestination.size() + " group(s)");
            Map<String, Map<TopicPartition, OffsetAndMetadata>> consumerOffsets =
                    consumerOffsets(admin, onDestination, timeout);
            Map<String, Map<TopicPartition, Long>> shareOffsets = shareOffsets(admin, onDestination, timeout);

            OffsetOwnership ownership = new OffsetOwnership(config.applicationId());
            long now = clock.millis();
            List<GroupState> states = new ArrayList<>();
            for (DestinationGroup group : groups.values()) {
                states.add(state(group, known.types().get(group.groupId()),
                        consumerOffsets.getOrDefault(group.groupId(), Map.of()),
                        shareOffsets.getOrDefault(group.groupId(), Map.of()),
                        known.positions().getOrDefault(group.groupId(), List.of()), ownership, now));
            }
            if (apply) {
                writePending(destination, groups, states, known, timeout, progress);
            }
            String problem = instance.isPresent() ? known.problem() : "no Sextant instance asked: groups and "
                    + "partitions the destination lacks, and positions not applied yet, cannot be checked (give --url)";
            return new Report(states, instance.isPresent() ? "asked" : null, problem, clock.millis() - started);
        }
    }

    /**
     * What the instance knows: the type of every selected group ({@code consumer}, {@code share}), the positions of
     * each, and why it could not tell (null when it could).
     */
    private record Known(Map<String, String> types, Map<String, List<SextantClient.Partition>> positions,
                         String problem) {
        static final Known NONE = new Known(Map.of(), Map.of(), null);
    }

    private static Known known(SextantClient instance, Predicate<String> wanted, Set<String> onDestination,
                               Consumer<String> progress) {
        progress.accept("asking the Sextant instance which groups it knows");
        Map<String, String> types = new HashMap<>();
        String problem = listKnown(instance, wanted, types);
        Map<String, List<SextantClient.Partition>> positions = new HashMap<>();
        if (problem == null) {
            progress.accept("asking the Sextant instance for positions not applied yet");
            Set<String> groups = new TreeSet<>(onDestination);
            groups.addAll(types.keySet());
            problem = ask(instance, groups, positions);
        }
        return new Known(types, positions, problem);
    }

    /** Writes the positions not on the destination yet, through the appliers, and settles the groups' states. */
    private void writePending(AdminDestinationClient destination, Map<String, DestinationGroup> groups,
                              List<GroupState> states, Known known, Duration timeout, Consumer<String> progress) {
        Map<String, List<PlannedPartition>> consumerPlans = new LinkedHashMap<>();
        Map<String, List<PlannedPartition>> sharePlans = new LinkedHashMap<>();
        for (GroupState state : states) {
            if ((state.result() == GroupResult.PENDING || state.result() == GroupResult.INCOMPLETE)
                    && hasPlans(state)) {
                (groups.get(state.group()).type() == GroupKind.SHARE ? sharePlans : consumerPlans).put(state.group(),
                        plans(state.group(), known.positions().get(state.group()), state));
            }
        }
        if (consumerPlans.isEmpty() && sharePlans.isEmpty()) {
            return;
        }
        Set<TopicPartition> partitions = new HashSet<>();
        consumerPlans.values().forEach(l -> l.forEach(p -> partitions.add(p.destination())));
        sharePlans.values().forEach(l -> l.forEach(p -> partitions.add(p.destination())));
        Map<TopicPartition, Long> ends = get(destination.endOffsets(partitions), timeout,
                "reading the destination's log ends");
        consumerPlans.replaceAll((g, l) -> withinLogEnd(l, ends));
        sharePlans.replaceAll((g, l) -> withinLogEnd(l, ends));
        progress.accept("writing " + (consumerPlans.size() + sharePlans.size()) + " group(s)");
        Map<String, GroupOutcome> outcomes = write(destination, consumerPlans, sharePlans, timeout);
        states.replaceAll(s -> consumerPlans.containsKey(s.group()) || sharePlans.containsKey(s.group())
                ? settle(s, outcomes.get(s.group())) : s);
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

    /** A group the instance knows and the destination does not have at all. */
    static final String ABSENT = "absent";

    private static DestinationGroup absent(String group, String type) {
        GroupKind kind = GroupKind.SHARE.label().equals(type) ? GroupKind.SHARE : GroupKind.CONSUMER;
        return new DestinationGroup(group, kind, kind.label(), false, ABSENT);
    }

    /** Fills {@code types} with every group the instance knows (and its type); returns why it could not, or null. */
    private static String listKnown(SextantClient instance, Predicate<String> wanted, Map<String, String> types) {
        try {
            instance.groups().stream().filter(g -> wanted.test(g.group()))
                    .forEach(g -> types.put(g.group(), g.groupType()));
            return null;
        } catch (SextantClientException e) {
            return "the Sextant instance did not answer (" + e.getMessage() + "): only what the destination "
                    + "holds is shown, and groups it lacks cannot be checked";
        }
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

    /** @param sourceType the group's type as the instance knows it ({@code consumer}, {@code share}), or null */
    private static GroupState state(DestinationGroup group, String sourceType,
                                    Map<TopicPartition, OffsetAndMetadata> consumer,
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
        for (SextantClient.Partition p : known) {
            TopicPartition tp = destinationPartition(p);
            PartitionState there = rows.get(tp);
            if (there != null && there.offset() != null) {
                continue; // the destination holds an offset: at worst an older commit's, replayed from
            }
            if (p.translatedOffset() == null) {
                rows.put(tp, new PartitionState(tp.topic(), tp.partition(), null, null, null, commitAge(p, now), null,
                        PartitionStatus.UNTRANSLATED));
            } else if (!notApplied(p)) {
                rows.put(tp, new PartitionState(tp.topic(), tp.partition(), null, p.precision(), p.bound(),
                        commitAge(p, now), p.translatedOffset(), PartitionStatus.MISSING));
            }
        }
        if (sourceType != null && !sourceType.equals(group.type().label()) && !ABSENT.equals(group.state())) {
            return new GroupState(group.groupId(), group.typeLabel(), group.state(), GroupResult.REFUSED,
                    "a " + group.type().label() + " group on the destination, a " + sourceType + " group on the "
                    + "source: Sextant never writes across types; delete the destination group or rename one",
                    List.copyOf(rows.values()));
        }
        return judge(group, foreign, List.copyOf(rows.values()));
    }

    private static TopicPartition destinationPartition(SextantClient.Partition p) {
        return new TopicPartition(p.destinationTopic() == null ? p.topic() : p.destinationTopic(), p.partition());
    }

    private static Long commitAge(SextantClient.Partition p, long now) {
        return p.commitTimestamp() == null ? null : Math.max(0, now - p.commitTimestamp());
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
                pending.put(destinationPartition(p), p);
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
        boolean hasPending = partitions.stream().anyMatch(p -> p.status() == PartitionStatus.PENDING
                || p.status() == PartitionStatus.MISSING);
        List<String> untranslated = partitions.stream().filter(p -> p.status() == PartitionStatus.UNTRANSLATED)
                .map(p -> p.topic() + "-" + p.partition()).toList();
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
        } else if (!untranslated.isEmpty()) {
            result = GroupResult.INCOMPLETE;
            detail = "no translation for " + String.join(", ", untranslated) + " (no offset sync covers the commit, or "
                    + "the topic is not mirrored): its consumers would start there from auto.offset.reset; see the "
                    + "README's failover runbook" + (hasPending ? "; --apply writes the other positions" : "");
        } else if (hasPending) {
            result = GroupResult.PENDING;
            detail = partitions.stream().anyMatch(p -> p.status() == PartitionStatus.MISSING)
                    ? "offsets Sextant applied are gone from the destination (expired?): --apply writes them again"
                    : "a Sextant instance holds newer positions: --apply writes them";
        } else if (partitions.isEmpty()) {
            result = GroupResult.READY;
            detail = "no offsets on the destination: its consumers start from auto.offset.reset";
        } else {
            result = GroupResult.READY;
        }
        return new GroupState(group.groupId(), group.type().label(), group.state(), result, detail, partitions);
    }

    /**
     * The plans, none beyond its partition's log end: after a promotion producers append there, and a consumer
     * committed beyond it would skip those records (the difference is added to the bound: replays once mirrored).
     */
    private static List<PlannedPartition> withinLogEnd(List<PlannedPartition> plans, Map<TopicPartition, Long> ends) {
        return plans.stream().map(p -> {
            Long end = ends.get(p.destination());
            if (end == null || p.translatedOffset() <= end) {
                return p;
            }
            return new PlannedPartition(p.key(), p.destination(), p.sourceOffset(), p.commitTimestamp(), end,
                    Math.max(0, p.bound()) + p.translatedOffset() - end, p.commitLogOffset());
        }).toList();
    }

    private static boolean hasPlans(GroupState state) {
        return state.partitions().stream().anyMatch(DestinationFailover::toWrite);
    }

    /** The positions to write: those not applied yet, and those applied and gone from the destination. */
    private static List<PlannedPartition> plans(String group, List<SextantClient.Partition> known, GroupState state) {
        List<PlannedPartition> plans = new ArrayList<>();
        for (SextantClient.Partition p : known) {
            TopicPartition tp = destinationPartition(p);
            boolean missing = state.partitions().stream().anyMatch(r -> r.status() == PartitionStatus.MISSING
                    && r.topic().equals(tp.topic()) && r.partition() == tp.partition());
            if (notApplied(p) || missing) {
                plans.add(new PlannedPartition(new PositionKey(group, p.topic(), p.partition()),
                        tp, p.sourceOffset(),
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
        GroupState refused = refusedOrLate(state, outcome);
        return refused != null ? refused : settleWritten(state, outcome);
    }

    /** The group's state when the destination refused the write or did not confirm it; null when it took it. */
    private static GroupState refusedOrLate(GroupState state, GroupOutcome outcome) {
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
        return null;
    }

    private static GroupState settleWritten(GroupState state, GroupOutcome outcome) {
        List<PartitionState> partitions = new ArrayList<>();
        boolean failed = false;
        for (PartitionState p : state.partitions()) {
            if (!toWrite(p)) {
                partitions.add(p);
                continue;
            }
            OptionalLong written = written(outcome, p);
            failed |= written.isEmpty();
            partitions.add(written.isPresent() ? written(p, written.getAsLong()) : notWritten(p));
        }
        if (!failed && state.result() == GroupResult.INCOMPLETE) {
            return new GroupState(state.group(), state.groupType(), state.destinationState(), GroupResult.INCOMPLETE,
                    state.detail(), partitions);
        }
        return new GroupState(state.group(), state.groupType(), state.destinationState(),
                failed ? GroupResult.FAILED : GroupResult.APPLIED, failed ? "not every position was written" : null,
                partitions);
    }

    /** A row apply writes: a position not applied yet, or one applied and gone from the destination. */
    private static boolean toWrite(PartitionState p) {
        return p.status() == PartitionStatus.PENDING || p.status() == PartitionStatus.MISSING;
    }

    /**
     * The offset the outcome says the destination holds now for the pending position of {@code p}: the pending one,
     * or below it where it lay beyond the log end and was written at the end; empty when it was not written.
     */
    private static OptionalLong written(GroupOutcome outcome, PartitionState p) {
        return outcome.partitions().entrySet().stream().filter(e -> e.getKey().partition() == p.partition())
                .map(Map.Entry::getValue)
                .filter(o -> o.status() == PositionStatus.APPLIED ? o.destinationOffset() <= p.pendingOffset()
                        : (o.status() == PositionStatus.SUPERSEDED || o.status() == PositionStatus.REWIND_SKIPPED)
                        && o.destinationOffset() == (long) p.pendingOffset())
                .mapToLong(o -> o.destinationOffset()).findFirst();
    }

    private static List<PartitionState> notWritten(List<PartitionState> partitions) {
        return partitions.stream().map(p -> toWrite(p) ? notWritten(p) : p).toList();
    }

    /** A pending position the destination confirmed at {@code offset}. */
    private static PartitionState written(PartitionState p, long offset) {
        return new PartitionState(p.topic(), p.partition(), offset, p.precision(), p.bound(),
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
