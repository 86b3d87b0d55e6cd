package dev.sextant.sync;

import dev.sextant.apply.DestinationView;
import dev.sextant.apply.GroupApplier;
import dev.sextant.apply.GroupOutcome;
import dev.sextant.apply.PlannedPartition;
import dev.sextant.apply.WriteLease;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.GroupKind;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.state.GroupStore;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.translate.OffsetTranslator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One task's flush, run every {@code sync.interval.ms} on the stream thread:
 *
 * <pre>
 *   outcomes of earlier writes ──▶ WriteSettler (positions applied / refused, dead-letter transitions)
 *   pending groups ──▶ WritePlanner (translate, guards) ──▶ one phase per group kind ──▶ appliers (async)
 * </pre>
 *
 * <p>A flush costs what changed: it visits the partitions marked since they were last settled
 * ({@link PendingGroups}), and works out a group's dead-letter reason from the few positions with a problem
 * ({@link GroupReasonReporter}), never from a scan of the group.
 *
 * <p>Invariants: stores are only touched on the stream thread (outcomes come back through a queue); a group has at
 * most one write in flight; consumer and share groups are written in separate phases with their own Admin calls,
 * never one as the other.
 */
final class GroupSyncFlusher {

    private static final Logger log = LoggerFactory.getLogger(GroupSyncFlusher.class);

    /** Groups planned per flush at most: a flush's work and its Admin requests stay bounded; the rest waits. */
    static final int MAX_GROUPS_PER_FLUSH = 2_000;
    /** Writes in flight per task at most: a destination that does not answer must not collect every group's write. */
    static final int MAX_GROUPS_IN_FLIGHT = 2_000;
    /** A flush runs on the stream thread: past this much planning it yields to processing until the next one. */
    private static final long FLUSH_BUDGET_NANOS = 100_000_000L;
    private final SyncSettings settings;
    private final SyncRuntime runtime;
    private final IndexedPositions positions;
    private final GroupStore groups;
    private final DestinationView view;
    private final SextantMetrics metrics;
    private final PendingGroups pending;
    private final BoundedPositions bounded;
    private final ClampedPositions clamped;
    private final List<ReplanTrigger> triggers;
    private final WritePlanner planner;
    private final WriteSettler settler;
    private final UnansweredLimit unansweredLimit = new UnansweredLimit();
    private final Queue<GroupOutcome> outcomes = new ConcurrentLinkedQueue<>();
    private final TaskGauges gauges;
    /** Set when the task is closed, read by Admin threads before they send a write this task planned. */
    private volatile boolean closed;
    /** While the task reads a backlog: when each group was last planned. Emptied once the backlog is read. */
    private final Map<String, Long> plannedInBacklog = new HashMap<>();

    /**
     * @param pending the task's pending set, which its {@link CommitIntake} marks new commits in
     * @param history the offset-sync history (the global store), or null with identity translation
     */
    GroupSyncFlusher(SyncSettings settings, SyncRuntime runtime, IndexedPositions positions, GroupStore groups,
                     PendingGroups pending, OffsetSyncStore history, OffsetTranslator translator,
                     BoundedPositions bounded, SyncGauges gauges, Consumer<DeadLetterRecord> deadLetters) {
        this.settings = settings;
        this.pending = pending;
        this.runtime = runtime;
        this.positions = positions;
        this.groups = groups;
        this.bounded = bounded;
        this.view = runtime.view();
        this.metrics = runtime.metrics();
        this.gauges = new TaskGauges(this, positions, groups, pending, gauges);
        this.clamped = new ClampedPositions(tp -> view.endOffset(tp.topic(), tp.partition()));
        GroupReasonReporter reasons = new GroupReasonReporter(settings, positions, groups, view, metrics, deadLetters);
        UncoveredPositions uncovered = new UncoveredPositions(bounded.newestUpstream(), translator);
        this.planner = new WritePlanner(settings, runtime, positions, groups, translator, bounded, uncovered, pending,
                reasons, history == null ? MirrorRecords.NONE : MirrorRecords.of(history));
        this.settler = new WriteSettler(positions, groups, bounded, clamped, pending, reasons, metrics,
                runtime.checkpoints(), runtime.cutovers()::cutOver);
        this.triggers = triggers(history, uncovered);
    }

    /**
     * What plans positions again besides new commits, in the order the flush asks: what the history and the proofs
     * say of translations first, then what the destination holds.
     */
    private List<ReplanTrigger> triggers(OffsetSyncStore history, UncoveredPositions uncovered) {
        long now = settings.clock().millis();
        List<ReplanTrigger> all = new ArrayList<>();
        if (history != null) {
            all.add(new HistoryResets(history, positions, settler));
        }
        all.add(new ProvenIntervals(runtime.evidence(), bounded));
        // new offset syncs, looked for at every flush rather than on a slower timer: with none this is a comparison
        // per source partition, and a bounded position is re-planned at the first flush after a closer sync
        all.add(bounded);
        all.add(uncovered);
        all.add(clamped);
        if (settings.syncConsumerGroups()) {
            all.add(new OffsetRefresh(settings.offsetsRefreshMs(), view::offsetsRetentionMs, now, positions,
                    groups::kindOf, metrics).holding(runtime.cutovers()::cutOver));
            all.add(new VanishedGroups(positions, groups::kindOf, view::groupsListedAt,
                    group -> view.group(group).isPresent(), settings::destinationTopic, runtime.consumerApplier(),
                    metrics));
        }
        if (settings.syncConsumerGroups() || settings.syncShareGroups()) {
            all.add(new TakeoverAudit(now, positions, groups::kindOf, settings::destinationTopic,
                    this::auditedApplier, metrics));
        }
        return List.copyOf(all);
    }

    /** Rebuilds the in-memory pending set from the store (after a restart or a rebalance). */
    void recover() {
        positions.load((key, pos) -> {
            if (pos.needsApply()) {
                // the first unapplied commit is not kept: its latest commit stands in (the age reads low, not high)
                pending.mark(key, pos.commitTimestamp());
            }
            bounded.track(key, pos);
            if (pos.clamped()) {
                clamped.track(key, new TopicPartition(settings.destinationTopic(key.topic()), key.partition()), pos);
            }
        });
    }

    /** The task is closed (revoked, or the instance stops): its positions are no longer this instance's to write. */
    void close() {
        closed = true; // writes planned but not sent yet are not sent
        gauges.remove();
    }

    /**
     * One flush: take in what the destination answered, refresh the gauges, then (once the destination view and the
     * offset-sync history are complete) plan what is due and hand it to the appliers, one phase per group kind.
     *
     * @param backlog the task reads commits made a while ago: a group is planned at most every
     *                {@link Backoffs#BACKLOG_GROUP_INTERVAL_MS}
     */
    void flush(boolean backlog) {
        long now = settings.clock().millis();
        settleAnswers(now);
        gauges.update(now);
        if (!view.ready() || !runtime.catchUp().caughtUp() || !view.clusterConfirmed()
                || view.clusterChange().isPresent()) {
            // nothing is planned from a partial view of the destination or of the offset-sync history, nor for a
            // destination whose cluster id was not read since it was last unreachable, nor for one that is not the
            // cluster written to so far (until an operator's rebaseline)
            return;
        }
        for (ReplanTrigger trigger : triggers) {
            trigger.markDue(now, pending);
        }
        Map<String, List<PlannedPartition>> consumerPlans = new LinkedHashMap<>();
        Map<String, List<PlannedPartition>> sharePlans = new LinkedHashMap<>();
        Set<String> replanned = new HashSet<>();
        try {
            planDue(now, backlog, consumerPlans, sharePlans, replanned);
            planner.refreshLogStarts(now);
            send(now, consumerPlans, sharePlans, replanned);
        } catch (RuntimeException e) {
            release(consumerPlans, sharePlans, e);
            throw e;
        }
    }

    /**
     * A flush failed after it planned groups (a store or an applier threw): each planned group is answered as a
     * transient failure, so it leaves the in-flight set and is planned again after its backoff, instead of staying in
     * flight, never planned again, for as long as the task lives. A group whose write was sent anyway gets two
     * answers; the later one finds it no longer in flight (or, rarely, settles its next plan: the marks and the
     * takeover audit keep an older commit from standing on the destination).
     */
    private void release(Map<String, List<PlannedPartition>> consumerPlans,
                         Map<String, List<PlannedPartition>> sharePlans, RuntimeException cause) {
        log.warn("A flush failed after it planned {} group(s); they are planned again after a backoff",
                consumerPlans.size() + sharePlans.size(), cause);
        consumerPlans.keySet().forEach(group -> outcomes.add(GroupOutcome.retry(group, cause)));
        sharePlans.keySet().forEach(group -> outcomes.add(GroupOutcome.retry(group, cause)));
    }

    /** The outcomes of earlier writes, and parked partitions whose time came. */
    private void settleAnswers(long now) {
        GroupOutcome outcome;
        while ((outcome = outcomes.poll()) != null) {
            settler.settle(outcome, now);
        }
        pending.unpark(now);
    }

    /**
     * Plans the groups that are due, as many as the in-flight limit leaves room for and the flush's time budget
     * allows; each planned group is in flight until its outcome is settled.
     */
    private void planDue(long now, boolean backlog, Map<String, List<PlannedPartition>> consumerPlans,
                         Map<String, List<PlannedPartition>> sharePlans, Set<String> replanned) {
        long budgetEnd = System.nanoTime() + FLUSH_BUDGET_NANOS;
        for (String group : dueGroups(now, backlog)) {
            if (System.nanoTime() > budgetEnd) {
                break; // the rest stays pending for the next flush: commits keep flowing meanwhile
            }
            plan(group, now, backlog, consumerPlans, sharePlans, replanned);
        }
    }

    /**
     * The groups this flush takes: as many as the limits leave room for, new commits before re-plans. Package-private
     * for its test.
     */
    List<String> dueGroups(long now, boolean backlog) {
        int unanswered = runtime.unansweredWrites();
        int limit = unansweredLimit.limit(now, runtime.answeredWrites());
        int room = Math.min(Math.min(MAX_GROUPS_PER_FLUSH, MAX_GROUPS_IN_FLIGHT - pending.inFlightCount()),
                limit - unanswered);
        // re-plans stop at half the instance's unanswered writes (but one per flush, so none starves): the other half
        // stays for new commits, whichever task reads them; the tasks flush one after another, and the first ones'
        // re-plans would otherwise take all the room while a later task's new commits wait
        int replanRoom = Math.max(1, limit / 2 - unanswered);
        if (!backlog && !plannedInBacklog.isEmpty()) {
            plannedInBacklog.clear();
        }
        Predicate<String> eligible = !backlog ? group -> true : group -> {
            Long last = plannedInBacklog.get(group);
            return last == null || now - last >= Backoffs.BACKLOG_GROUP_INTERVAL_MS;
        };
        return pending.due(now, Math.max(0, room), replanRoom, eligible);
    }

    /** Plans one due group; a planned group is in flight until its outcome is settled. */
    private void plan(String group, long now, boolean backlog, Map<String, List<PlannedPartition>> consumerPlans,
                      Map<String, List<PlannedPartition>> sharePlans, Set<String> replanned) {
        GroupKind kind = groups.kindOf(group);
        if (!synced(kind)) {
            pending.done(group);
            return;
        }
        boolean replan = !pending.hasUnsettledCommit(group);
        List<PlannedPartition> plan = planner.plan(group, kind, now);
        if (plan.isEmpty()) {
            return;
        }
        if (replan) {
            metrics.replanned(kind);
            replanned.add(group);
        }
        if (backlog) {
            plannedInBacklog.put(group, now);
        }
        (kind == GroupKind.SHARE ? sharePlans : consumerPlans).put(group, plan);
        pending.startFlight(group, plan);
    }

    private boolean synced(GroupKind kind) {
        return kind == GroupKind.CONSUMER ? settings.syncConsumerGroups() : settings.syncShareGroups();
    }

    /**
     * One phase per group kind, each with its own Admin calls, under one lease from the moment they were planned; in
     * each, the groups with a new commit and the re-plans apart, so the destination's writers send the new commits
     * first ({@link WriteLease#newCommit()}).
     */
    private void send(long now, Map<String, List<PlannedPartition>> consumerPlans,
                      Map<String, List<PlannedPartition>> sharePlans, Set<String> replanned) {
        WriteLease lease = lease(now);
        List<Map<String, List<PlannedPartition>>> consumer = split(consumerPlans, replanned);
        List<Map<String, List<PlannedPartition>>> share = split(sharePlans, replanned);
        for (int i = 0; i < 2; i++) {
            WriteLease laneLease = i == 0 ? lease : WriteLease.replan(lease);
            if (!consumer.get(i).isEmpty()) {
                metrics.adminRequest("listConsumerGroupOffsets");
                metrics.adminRequest("alterConsumerGroupOffsets", consumer.get(i).size());
                runtime.consumerApplier().apply(consumer.get(i), laneLease, outcomes::add);
            }
            if (!share.get(i).isEmpty()) {
                metrics.adminRequest("alterShareGroupOffsets", share.get(i).size());
                runtime.shareApplier().apply(share.get(i), laneLease, outcomes::add);
            }
        }
    }

    /** The plans of groups with a new commit, then the re-plans. */
    private static List<Map<String, List<PlannedPartition>>> split(Map<String, List<PlannedPartition>> plans,
                                                                   Set<String> replanned) {
        Map<String, List<PlannedPartition>> commits = new LinkedHashMap<>();
        Map<String, List<PlannedPartition>> replans = new LinkedHashMap<>();
        plans.forEach((group, plan) -> (replanned.contains(group) ? replans : commits).put(group, plan));
        return List.of(commits, replans);
    }

    /** Valid while this task is open and no longer than the write lease after {@code plannedAt}. */
    private WriteLease lease(long plannedAt) {
        long leaseMs = settings.writeLeaseMs();
        return () -> !closed && settings.clock().millis() - plannedAt <= leaseMs;
    }

    /** The phase whose destination offsets the takeover audit reads for a group of this kind; null: not synced. */
    private GroupApplier auditedApplier(GroupKind kind) {
        return switch (kind) {
            case CONSUMER -> settings.syncConsumerGroups() ? runtime.consumerApplier() : null;
            case SHARE -> settings.syncShareGroups() ? runtime.shareApplier() : null;
        };
    }
}
