package dev.sextant.topology;

import dev.sextant.apply.DestinationGroup;
import dev.sextant.apply.DestinationView;
import dev.sextant.apply.GroupOutcome;
import dev.sextant.apply.PlannedPartition;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.GroupKind;
import dev.sextant.domain.Reason;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.state.GroupRecord;
import dev.sextant.state.GroupStore;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import dev.sextant.translate.OffsetTranslation;
import dev.sextant.translate.OffsetTranslator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import org.apache.kafka.common.TopicPartition;

/**
 * One task's consumer-group phase, run every {@code sync.interval.ms} on the stream thread:
 *
 * <pre>
 *   outcomes of earlier writes ──▶ positions (applied / refused), dead-letter transitions
 *   pending groups ──▶ translate ──▶ guards (destination view) ──▶ plans ──▶ ConsumerGroupApplier (async)
 * </pre>
 *
 * <p>A flush costs what changed: it visits the partitions marked since they were last settled
 * ({@link PendingGroups}), and works out a group's dead-letter reason from the few positions with a problem
 * ({@link IndexedPositions}), never from a scan of the group.
 *
 * <p>Invariants: stores are only touched on the stream thread (outcomes come back through a queue); a group has at
 * most one write in flight; a position leaves the pending set only once the destination holds its translation or it
 * was refused for a reason that needs no retry; a dead-letter record is written when a group's reason changes, not
 * on every flush.
 */
final class GroupSyncFlusher {

    static final int MAX_GROUPS_PER_FLUSH = 2_000;
    /** A flush runs on the stream thread: past this much planning it yields to processing until the next one. */
    private static final long FLUSH_BUDGET_NANOS = 100_000_000L;
    private static final long GUARD_BACKOFF_MS = 1_000;
    private static final long DIVERGED_BACKOFF_MS = 10_000;
    private static final long RETRY_BACKOFF_MS = 1_000;
    private static final long IMPROVEMENT_CHECK_MS = 1_000;
    private static final long MAX_PARK_MS = 30_000;
    private static final java.util.Comparator<PositionKey> BY_PARTITION =
            java.util.Comparator.comparing(PositionKey::topic).thenComparingInt(PositionKey::partition);
    /** When partitions of a group have different problems, the group is reported under the first of these. */
    private static final List<Reason> REASON_ORDER = List.of(Reason.TYPE_CONFLICT, Reason.GROUP_ACTIVE,
            Reason.DESTINATION_DIVERGED, Reason.TOPIC_NOT_MIRRORED, Reason.UNTRANSLATABLE);

    private final SyncSettings settings;
    private final SyncRuntime runtime;
    private final IndexedPositions positions;
    private final GroupStore groups;
    private final OffsetTranslator translator;
    private final DestinationView view;
    private final SextantMetrics metrics;
    private final Consumer<DeadLetterRecord> deadLetters;
    private final PendingGroups pending = new PendingGroups();
    private final BoundedPositions bounded;
    private final Queue<GroupOutcome> outcomes = new ConcurrentLinkedQueue<>();
    private final Map<String, String> destinationTopics = new HashMap<>();
    private long nextImprovementCheck;

    GroupSyncFlusher(SyncSettings settings, SyncRuntime runtime, IndexedPositions positions, GroupStore groups,
                     OffsetTranslator translator, BoundedPositions bounded, Consumer<DeadLetterRecord> deadLetters) {
        this.settings = settings;
        this.runtime = runtime;
        this.positions = positions;
        this.groups = groups;
        this.translator = translator;
        this.bounded = bounded;
        this.view = runtime.view();
        this.metrics = runtime.metrics();
        this.deadLetters = deadLetters;
    }

    private GroupKind typeOf(String group) {
        GroupRecord record = groups.get(group);
        return record == null ? GroupKind.CONSUMER : record.type();
    }

    /** Rebuilds the in-memory pending set from the store (after a restart or a rebalance). */
    void recover() {
        positions.load((key, pos) -> {
            if (pos.needsApply()) {
                pending.mark(key);
            }
            bounded.track(key, pos);
        });
    }

    void markPending(PositionKey key) {
        pending.mark(key);
    }

    void forget(String group) {
        pending.done(group);
    }

    void flush() {
        long now = settings.clock().millis();
        drainOutcomes(now);
        pending.unpark(now);
        if (!view.ready()) {
            return;
        }
        if (now >= nextImprovementCheck) {
            bounded.improvable().forEach(pending::mark);
            nextImprovementCheck = now + IMPROVEMENT_CHECK_MS;
        }
        // one phase per group type, each with its own Admin call; never a group written as the other type
        Map<String, List<PlannedPartition>> consumerPlans = new LinkedHashMap<>();
        Map<String, List<PlannedPartition>> sharePlans = new LinkedHashMap<>();
        long budgetEnd = System.nanoTime() + FLUSH_BUDGET_NANOS;
        for (String group : pending.due(now, MAX_GROUPS_PER_FLUSH)) {
            if (System.nanoTime() > budgetEnd) {
                break; // the rest stays pending for the next flush: commits keep flowing meanwhile
            }
            GroupKind type = typeOf(group);
            if (type == GroupKind.CONSUMER ? !settings.syncConsumerGroups() : !settings.syncShareGroups()) {
                pending.done(group);
                continue;
            }
            List<PlannedPartition> plan = plan(group, type, now);
            if (!plan.isEmpty()) {
                (type == GroupKind.SHARE ? sharePlans : consumerPlans).put(group, plan);
                pending.startFlight(group, plan);
            }
        }
        if (!consumerPlans.isEmpty()) {
            metrics.adminRequest("listConsumerGroupOffsets");
            metrics.adminRequest("alterConsumerGroupOffsets", consumerPlans.size());
            runtime.consumerApplier().apply(consumerPlans, outcomes::add);
        }
        if (!sharePlans.isEmpty()) {
            metrics.adminRequest("alterShareGroupOffsets", sharePlans.size());
            runtime.shareApplier().apply(sharePlans, outcomes::add);
        }
    }

    /**
     * Share positions whose topic was known only by id get their name once it is known. A placeholder stays pending
     * until then, so the pending partitions are the only ones to look at.
     */
    private void resolvePlaceholders(String group) {
        GroupRecord record = groups.get(group);
        if (record == null) {
            return;
        }
        for (PositionKey key : pending.keys(group)) {
            if (!SharePlaceholders.isPlaceholder(key.topic())) {
                continue;
            }
            PartitionPosition pos = positions.get(key);
            if (pos == null) {
                pending.clean(key);
                continue;
            }
            SharePlaceholders.resolve(record, key.topic(), runtime.topicNames()).ifPresent(name -> {
                positions.delete(key);
                pending.clean(key);
                PositionKey named = new PositionKey(group, name, key.partition());
                if (positions.get(named) == null) {
                    positions.put(named, pos);
                    pending.mark(named);
                }
            });
        }
    }

    /**
     * How long a partition waiting on something outside Sextant is left alone. A missing mirror topic costs a map
     * lookup to check, and so does a partition without any history yet (its first sync may be on its way): a second.
     * An offset below the oldest sync of a partition that has history costs a history lookup, and no later sync
     * changes it: a second at first, then half the time it has waited, at most {@link #MAX_PARK_MS}; never past the
     * moment its wait becomes a dead-letter reason, so that is reported on time.
     */
    private long parkFor(PositionKey key, PartitionPosition pos, long now) {
        if (pos.status() != PositionStatus.UNTRANSLATABLE || !bounded.hasHistory(key)) {
            return RETRY_BACKOFF_MS;
        }
        long waited = pos.pendingSince() < 0 ? 0 : now - pos.pendingSince();
        long delay = Math.max(RETRY_BACKOFF_MS, Math.min(MAX_PARK_MS, waited / 2));
        long untilReported = settings.pendingTimeoutMs() - waited;
        return untilReported > 0 ? Math.max(1, Math.min(delay, untilReported)) : delay;
    }

    private String destinationTopic(String sourceTopic) {
        return destinationTopics.computeIfAbsent(sourceTopic, settings::destinationTopic);
    }

    private List<PlannedPartition> plan(String group, GroupKind type, long now) {
        if (type == GroupKind.SHARE) {
            resolvePlaceholders(group);
        }
        PositionStatus guard = null;
        Optional<DestinationGroup> there = view.group(group);
        if (there.isPresent() && there.get().type() != type) {
            guard = PositionStatus.TYPE_CONFLICT;
        } else if (there.isPresent() && there.get().active()) {
            guard = PositionStatus.GROUP_ACTIVE;
        }
        List<PlannedPartition> plan = new ArrayList<>();
        for (PositionKey key : pending.keys(group)) {
            PartitionPosition pos = positions.get(key);
            if (pos == null) {
                pending.clean(key); // deleted meanwhile
                continue;
            }
            if (SharePlaceholders.isPlaceholder(key.topic())) {
                continue; // its topic's name is not known yet: stays pending
            }
            boolean improvable = pos.status() == PositionStatus.APPLIED && pos.bound() > 0;
            if (!pos.needsApply() && !improvable) {
                pending.clean(key);
                continue;
            }
            Optional<OffsetTranslation> translation = translator.translate(key.topic(), key.partition(), pos.sourceOffset());
            PartitionPosition next;
            boolean settled = false; // true: nothing left to do for this partition until it changes again
            boolean park = false; // true: retried a little later, not at every flush
            if (translation.isEmpty()) {
                next = pos.needsApply() ? pos.withStatus(PositionStatus.UNTRANSLATABLE, now) : pos;
                settled = !next.needsApply();
                park = !settled;
            } else {
                OffsetTranslation t = translation.get();
                next = pos.withTranslation(t);
                String destinationTopic = destinationTopic(key.topic());
                DestinationView.PartitionPresence presence = view.partition(destinationTopic, key.partition());
                if (!pos.needsApply() && t.destinationOffset() <= pos.appliedOffset()) {
                    next = pos; // nothing better than what the destination holds
                    settled = true;
                } else if (guard != null) {
                    next = next.withStatus(guard, now);
                } else if (presence == DestinationView.PartitionPresence.UNKNOWN) {
                    // looked up at the next refresh of the view
                } else if (presence == DestinationView.PartitionPresence.ABSENT) {
                    next = next.withStatus(PositionStatus.TOPIC_NOT_MIRRORED, now);
                    park = true;
                } else {
                    long end = view.endOffset(destinationTopic, key.partition());
                    if (end >= 0 && t.destinationOffset() > end) {
                        metrics.beyondLogEnd(type); // the mirror lags; it catches up
                    }
                    plan.add(new PlannedPartition(key, new TopicPartition(destinationTopic, key.partition()),
                            pos.sourceOffset(), pos.commitTimestamp(), t.destinationOffset()));
                }
            }
            if (!next.equals(pos)) {
                positions.put(key, next);
                bounded.track(key, next);
            }
            if (settled) {
                pending.clean(key);
            } else if (park) {
                pending.park(key, now + parkFor(key, next, now));
            }
        }
        if (plan.isEmpty()) {
            updateReason(group, type, null, now);
            if (guard != null) {
                pending.backoff(group, now + GUARD_BACKOFF_MS);
            }
            // otherwise what is still pending is retried: untranslatable offsets and unmirrored topics a second
            // later (parked), partitions the view does not know yet at the next flush
        }
        return plan;
    }

    private void drainOutcomes(long now) {
        GroupOutcome outcome;
        while ((outcome = outcomes.poll()) != null) {
            settle(outcome, now);
        }
    }

    private void settle(GroupOutcome outcome, long now) {
        String group = outcome.group();
        GroupKind type = typeOf(group);
        List<PlannedPartition> plan = pending.endFlight(group);
        if (outcome.retry()) {
            metrics.retried(type);
            pending.backoff(group, now + RETRY_BACKOFF_MS);
            return;
        }
        int applied = 0;
        for (PlannedPartition planned : plan) {
            GroupOutcome.PartitionOutcome result = outcome.partitions().get(planned.key());
            PartitionPosition pos = positions.get(planned.key());
            if (pos == null) {
                pending.clean(planned.key()); // deleted meanwhile
                continue;
            }
            if (result == null) {
                continue; // not part of the answer: stays pending
            }
            PartitionPosition next;
            if (result.status() == PositionStatus.APPLIED || result.status() == PositionStatus.REWIND_SKIPPED) {
                next = pos.settled(result.destinationOffset(), planned.sourceOffset(), result.status(), now);
                if (result.written()) {
                    applied++;
                    metrics.syncLatency(type, now - planned.commitTimestamp());
                    metrics.replayBound(type, Math.max(0, pos.bound()));
                }
            } else {
                next = pos.withStatus(result.status(), now);
            }
            positions.put(planned.key(), next);
            bounded.track(planned.key(), next);
            if (next.needsApply()) {
                continue; // a commit that arrived meanwhile keeps it pending
            }
            if (bounded.outdated(planned.key(), next)) {
                // translated before a newer sync arrived, and the check for newer syncs may have run while this
                // write was in flight: look again now rather than at the partition's next sync
                pending.mark(planned.key());
            } else {
                pending.clean(planned.key());
            }
        }
        if (applied > 0) {
            metrics.applied(type, applied);
        }
        updateReason(group, type, outcome.reason() == null ? null : outcome.detail(), now);
        if (outcome.reason() == Reason.DESTINATION_DIVERGED) {
            pending.backoff(group, now + DIVERGED_BACKOFF_MS);
        } else if (outcome.reason() != null) {
            pending.backoff(group, now + GUARD_BACKOFF_MS);
        }
    }

    /**
     * Works out the group's current dead-letter reason from its positions and writes a dead-letter record when it
     * differs from the one last reported.
     */
    private void updateReason(String group, GroupKind type, String detail, long now) {
        Map<PositionKey, PartitionPosition> parts = positions.problems(group);
        Reason reason = null;
        for (PartitionPosition p : parts.values()) {
            Reason r = reasonOf(p, now);
            if (r != null && (reason == null || REASON_ORDER.indexOf(r) < REASON_ORDER.indexOf(reason))) {
                reason = r;
            }
        }
        GroupRecord record = groups.get(group);
        if (record == null) {
            record = GroupRecord.of(type);
        }
        if (record.openReason() == reason) {
            return;
        }
        groups.put(group, record.withReason(reason));
        if (reason == null) {
            return;
        }
        final Reason reported = reason;
        List<DeadLetterRecord.PartitionDetail> details = new ArrayList<>();
        long newestCommit = -1;
        List<Map.Entry<PositionKey, PartitionPosition>> sorted = new ArrayList<>(parts.entrySet());
        sorted.sort(Map.Entry.comparingByKey(BY_PARTITION));
        for (Map.Entry<PositionKey, PartitionPosition> e : sorted) {
            PartitionPosition p = e.getValue();
            if (reasonOf(p, now) != reported) {
                continue;
            }
            newestCommit = Math.max(newestCommit, p.commitTimestamp());
            details.add(new DeadLetterRecord.PartitionDetail(e.getKey().topic(), e.getKey().partition(),
                    p.sourceOffset(), p.hasTranslation() ? p.translatedOffset() : null,
                    p.appliedOffset() >= 0 ? p.appliedOffset() : null));
        }
        metrics.refused(type, reported, details.size());
        metrics.deadLetter(reported);
        deadLetters.accept(new DeadLetterRecord(group, type.label(), reported, details,
                detail != null ? detail : describe(group, type, reported), newestCommit >= 0 ? newestCommit : null,
                now, settings.instance()));
    }

    private Reason reasonOf(PartitionPosition p, long now) {
        boolean timedOut = p.pendingSince() >= 0 && now - p.pendingSince() >= settings.pendingTimeoutMs();
        return switch (p.status()) {
            case TYPE_CONFLICT -> Reason.TYPE_CONFLICT;
            case GROUP_ACTIVE -> Reason.GROUP_ACTIVE;
            case DESTINATION_DIVERGED -> Reason.DESTINATION_DIVERGED;
            case TOPIC_NOT_MIRRORED -> timedOut ? Reason.TOPIC_NOT_MIRRORED : null;
            case UNTRANSLATABLE -> timedOut ? Reason.UNTRANSLATABLE : null;
            default -> null;
        };
    }

    private String describe(String group, GroupKind type, Reason reason) {
        Optional<DestinationGroup> there = view.group(group);
        return switch (reason) {
            case TYPE_CONFLICT -> "group exists on the destination as a "
                    + there.map(DestinationGroup::typeLabel).orElse("different") + " group; a " + type.label()
                    + " group is never written over another type";
            case GROUP_ACTIVE -> "group has members on the destination (state "
                    + there.map(DestinationGroup::state).orElse("?") + "); its offsets are left alone until it is empty";
            case DESTINATION_DIVERGED -> "destination offsets were committed by someone other than Sextant";
            case TOPIC_NOT_MIRRORED -> "destination topic or partition missing after "
                    + settings.pendingTimeoutMs() + " ms; still retried";
            case UNTRANSLATABLE -> "no offset sync at or below the committed offset after "
                    + settings.pendingTimeoutMs() + " ms; still retried";
            case UNDECODABLE -> "undecodable input";
        };
    }

    /**
     * Applied positions whose translation is bounded, indexed by source partition, so a new offset sync on that
     * partition re-translates just the groups it can improve.
     */
    static final class BoundedPositions {

        /** Per source partition: committed offset -> groups whose applied position there is bounded. */
        private final Map<TopicPartition, java.util.TreeMap<Long, Set<String>>> byOffset = new HashMap<>();
        private final Map<PositionKey, Long> trackedOffset = new HashMap<>();
        private final Map<TopicPartition, Long> newestSeen = new HashMap<>();
        private final java.util.function.Function<TopicPartition, Long> newestUpstream;

        /** @param newestUpstream the newest sync's upstream offset of a partition, or null; null function: identity */
        BoundedPositions(java.util.function.Function<TopicPartition, Long> newestUpstream) {
            this.newestUpstream = newestUpstream;
        }

        void track(PositionKey key, PartitionPosition pos) {
            if (newestUpstream == null) {
                return;
            }
            TopicPartition tp = new TopicPartition(key.topic(), key.partition());
            Long old = trackedOffset.remove(key);
            if (old != null) {
                java.util.TreeMap<Long, Set<String>> offsets = byOffset.get(tp);
                Set<String> groups = offsets.get(old);
                groups.remove(key.group());
                if (groups.isEmpty()) {
                    offsets.remove(old);
                }
            }
            if (pos.status() == PositionStatus.APPLIED && pos.bound() > 0) {
                trackedOffset.put(key, pos.sourceOffset());
                byOffset.computeIfAbsent(tp, p -> new java.util.TreeMap<>())
                        .computeIfAbsent(pos.sourceOffset(), o -> new HashSet<>()).add(key.group());
            }
        }

        /**
         * True when an applied, bounded position may have missed a closer sync, one between the sync it was
         * translated with (upstream {@code U = C - bound - 1}) and its offset {@code C}, that {@link #improvable}
         * will not offer it: the partition's head itself lies there, or the last check already went past {@code C}
         * (it ran while this position's write was in flight, with syncs newer than {@code U}).
         */
        boolean outdated(PositionKey key, PartitionPosition pos) {
            if (newestUpstream == null || pos.status() != PositionStatus.APPLIED || pos.bound() <= 0) {
                return false;
            }
            TopicPartition tp = new TopicPartition(key.topic(), key.partition());
            long committed = pos.sourceOffset();
            long used = committed - pos.bound() - 1;
            Long seen = newestSeen.get(tp);
            if (seen != null && seen > used && seen >= committed) {
                return true;
            }
            Long newest = newestUpstream.apply(tp);
            return newest != null && newest <= committed && newest > used;
        }

        /** True when the key's source partition has at least one offset sync (always, for identity). */
        boolean hasHistory(PositionKey key) {
            return newestUpstream == null
                    || newestUpstream.apply(new TopicPartition(key.topic(), key.partition())) != null;
        }

        /**
         * Bounded positions that a sync received since the last call can bring closer: the new syncs of a partition
         * lie above the newest one seen before, so only positions committed above it can use them (a consumer that
         * keeps up, not one far behind). A partition seen for the first time, or whose history went backwards (a
         * new log), gives all its positions.
         */
        Set<PositionKey> improvable() {
            Set<PositionKey> out = new HashSet<>();
            byOffset.entrySet().removeIf(e -> e.getValue().isEmpty());
            for (Map.Entry<TopicPartition, java.util.TreeMap<Long, Set<String>>> e : byOffset.entrySet()) {
                TopicPartition tp = e.getKey();
                Long newest = newestUpstream.apply(tp);
                if (newest == null) {
                    continue;
                }
                Long before = newestSeen.put(tp, newest);
                if (newest.equals(before)) {
                    continue;
                }
                Map<Long, Set<String>> candidates = before == null || newest < before
                        ? e.getValue() : e.getValue().tailMap(before, false);
                candidates.values().forEach(groups ->
                        groups.forEach(group -> out.add(new PositionKey(group, tp.topic(), tp.partition()))));
            }
            return out;
        }
    }
}
