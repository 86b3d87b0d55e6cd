package dev.sextant.sync;

import dev.sextant.apply.DestinationView;
import dev.sextant.apply.GroupApplier;
import dev.sextant.apply.GroupOutcome;
import dev.sextant.apply.PlannedPartition;
import dev.sextant.apply.WriteLease;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.GroupKind;
import dev.sextant.metrics.GroupStateCounts;
import dev.sextant.metrics.OldestPending;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.state.GroupStore;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import dev.sextant.translate.OffsetTranslator;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
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
    /**
     * Finding the oldest unwritten commit walks every unsettled partition: once a second is enough for a gauge, and
     * once more per {@link #OLDEST_PENDING_WALK_STEP} of them, up to {@link #OLDEST_PENDING_CHECK_MAX_MS} (the walk
     * every second took 6% of the stream thread while 100,000 groups were first written).
     */
    private static final long OLDEST_PENDING_CHECK_MS = 1_000;
    private static final int OLDEST_PENDING_WALK_STEP = 1_000;
    private static final long OLDEST_PENDING_CHECK_MAX_MS = 10_000;
    /**
     * Counting groups by state reads the task's group store: every few seconds is enough for a gauge, and 5 s more per
     * {@link #STATE_COUNT_STEP} groups, up to {@link #STATE_COUNT_MAX_MS} (every 5 s it took 6% of the stream thread
     * at 100,000 groups).
     */
    private static final long STATE_COUNT_MS = 5_000;
    private static final int STATE_COUNT_STEP = 1_000;
    private static final long STATE_COUNT_MAX_MS = 30_000;

    private final SyncSettings settings;
    private final SyncRuntime runtime;
    private final IndexedPositions positions;
    private final GroupStore groups;
    private final DestinationView view;
    private final SextantMetrics metrics;
    private final PendingGroups pending = new PendingGroups();
    private final BoundedPositions bounded;
    private final ClampedPositions clamped = new ClampedPositions();
    private final UncoveredPositions uncovered;
    private final OffsetRefresh refresh;
    private final WritePlanner planner;
    private final WriteSettler settler;
    private final UnansweredLimit unansweredLimit = new UnansweredLimit();
    private final Queue<GroupOutcome> outcomes = new ConcurrentLinkedQueue<>();
    private final OldestPending oldestPending;
    private final GroupStateCounts stateCounts;
    private long nextStateCount;
    private final TakeoverAudit audit;
    /** Set when the task is closed, read by Admin threads before they send a write this task planned. */
    private volatile boolean closed;
    private long nextOldestCheck;
    /** While the task reads a backlog: when each group was last planned. Emptied once the backlog is read. */
    private final Map<String, Long> plannedInBacklog = new HashMap<>();

    GroupSyncFlusher(SyncSettings settings, SyncRuntime runtime, IndexedPositions positions, GroupStore groups,
                     OffsetTranslator translator, BoundedPositions bounded, OldestPending oldestPending,
                     GroupStateCounts stateCounts, Consumer<DeadLetterRecord> deadLetters) {
        this.oldestPending = oldestPending;
        this.stateCounts = stateCounts;
        this.settings = settings;
        this.runtime = runtime;
        this.positions = positions;
        this.groups = groups;
        this.bounded = bounded;
        this.view = runtime.view();
        this.metrics = runtime.metrics();
        GroupReasonReporter reasons = new GroupReasonReporter(settings, positions, groups, view, metrics, deadLetters);
        this.uncovered = new UncoveredPositions(bounded.newestUpstream(), translator);
        this.planner = new WritePlanner(settings, runtime, positions, groups, translator, bounded, uncovered, pending,
                reasons);
        this.settler = new WriteSettler(positions, groups, bounded, clamped, pending, reasons, metrics,
                runtime.checkpoints());
        this.audit = new TakeoverAudit(settings.clock().millis());
        this.refresh = new OffsetRefresh(settings.offsetsRefreshMs(), view::offsetsRetentionMs,
                settings.clock().millis());
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

    /**
     * The time of the oldest source commit this task has still to write (the first commit since a partition was last
     * settled, for partitions still {@code PENDING}), or -1.
     */
    private long oldestPendingCommit() {
        long[] oldest = {Long.MAX_VALUE};
        pending.forEachPendingSince((key, since) -> {
            if (since < oldest[0]) {
                PartitionPosition pos = positions.get(key);
                if (pos != null && pos.status() == PositionStatus.PENDING) {
                    oldest[0] = since;
                }
            }
        });
        return oldest[0] == Long.MAX_VALUE ? -1 : oldest[0];
    }

    /** The task is closed (revoked, or the instance stops): its positions are no longer this instance's to write. */
    void close() {
        closed = true; // writes planned but not sent yet are not sent
        oldestPending.remove(this);
        stateCounts.remove(this);
    }

    /** Positions worth planning again (their translation may have improved). */
    void replan(Collection<PositionKey> keys) {
        keys.forEach(pending::mark);
    }

    /** A new source commit at {@code commitTimestamp} for the partition. */
    void markPending(PositionKey key, long commitTimestamp) {
        pending.mark(key, commitTimestamp);
    }

    /** The partition's history was forgotten: a write of it in flight is planned again once answered. */
    void reopenWhenAnswered(PositionKey key) {
        if (pending.inFlight(key.group())) {
            settler.reopenWhenAnswered(key);
        }
    }

    void forget(String group) {
        pending.done(group);
    }

    /**
     * One flush: take in what the destination answered, refresh the gauges, then (once the destination view and the
     * offset-sync history are complete) plan what is due and hand it to the appliers, one phase per group kind.
     *
     * @param backlog the task reads commits made a while ago: a group is planned at most every
     *                {@link TaskSync#BACKLOG_GROUP_INTERVAL_MS}
     */
    void flush(boolean backlog) {
        long now = settings.clock().millis();
        settleAnswers(now);
        updateGauges(now);
        if (!view.ready() || !runtime.catchUp().caughtUp()) {
            return; // nothing is planned from a partial view of the destination or of the offset-sync history
        }
        // new offset syncs, looked for at every flush rather than on a slower timer: with none this is a comparison
        // per source partition, and a bounded position is re-planned at the first flush after a closer sync
        bounded.improvable().forEach(pending::mark);
        // offsets no sync covered: planned again as soon as one does, not when their park runs out
        uncovered.covered().forEach(pending::mark);
        // positions written at the mirror's log end: again, closer, once the view shows the end past them
        clamped.due(tp -> view.endOffset(tp.topic(), tp.partition())).forEach(pending::mark);
        if (settings.syncConsumerGroups() && refresh.due(now)) {
            refreshStanding(now);
        }
        if (audit.due(now) && (settings.syncConsumerGroups() || settings.syncShareGroups())) {
            audit.read(now, positions::forEachStored, pending::inFlight, groups::kindOf,
                    settings::destinationTopic, this::auditedApplier);
        }
        Map<String, List<PlannedPartition>> consumerPlans = new LinkedHashMap<>();
        Map<String, List<PlannedPartition>> sharePlans = new LinkedHashMap<>();
        try {
            planDue(now, backlog, consumerPlans, sharePlans);
            planner.refreshLogStarts(now);
            send(now, consumerPlans, sharePlans);
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

    /** The outcomes of earlier writes, parked partitions whose time came, and what the takeover audit found. */
    private void settleAnswers(long now) {
        GroupOutcome outcome;
        while ((outcome = outcomes.poll()) != null) {
            settler.settle(outcome, now);
        }
        pending.unpark(now);
        for (PositionKey key : audit.overwritten()) {
            rewrite(key, now);
        }
    }

    private void updateGauges(long now) {
        if (now >= nextOldestCheck) {
            oldestPending.update(this, oldestPendingCommit());
            nextOldestCheck = now + Math.min(OLDEST_PENDING_CHECK_MAX_MS,
                    OLDEST_PENDING_CHECK_MS * (1 + pending.unsettledPositions() / OLDEST_PENDING_WALK_STEP));
        }
        if (now >= nextStateCount) {
            GroupStateCounts.Snapshot counts = countStates();
            stateCounts.update(this, counts);
            nextStateCount = now + Math.min(STATE_COUNT_MAX_MS,
                    STATE_COUNT_MS * (1 + counts.total() / STATE_COUNT_STEP));
        }
    }

    /**
     * Plans the groups that are due, as many as the in-flight limit leaves room for and the flush's time budget
     * allows; each planned group is in flight until its outcome is settled.
     */
    private void planDue(long now, boolean backlog, Map<String, List<PlannedPartition>> consumerPlans,
                         Map<String, List<PlannedPartition>> sharePlans) {
        long budgetEnd = System.nanoTime() + FLUSH_BUDGET_NANOS;
        int unanswered = unansweredWrites();
        int limit = unansweredLimit.limit(now, answeredWrites());
        int room = Math.min(Math.min(MAX_GROUPS_PER_FLUSH, MAX_GROUPS_IN_FLIGHT - pending.inFlightCount()),
                limit - unanswered);
        // re-plans stop at half the instance's unanswered writes (but one per flush, so none starves): the other half
        // stays for new commits, whichever task reads them; the tasks flush one after another, and the first ones'
        // re-plans took all the room while a later task's new commits waited (at 100,000 groups the initial sync
        // went from 94 to 76 s with this)
        int replanRoom = Math.max(1, limit / 2 - unanswered);
        if (!backlog && !plannedInBacklog.isEmpty()) {
            plannedInBacklog.clear();
        }
        Predicate<String> eligible = !backlog ? group -> true : group -> {
            Long last = plannedInBacklog.get(group);
            return last == null || now - last >= TaskSync.BACKLOG_GROUP_INTERVAL_MS;
        };
        for (String group : pending.due(now, Math.max(0, room), replanRoom, eligible)) {
            if (System.nanoTime() > budgetEnd) {
                break; // the rest stays pending for the next flush: commits keep flowing meanwhile
            }
            GroupKind kind = groups.kindOf(group);
            if (!synced(kind)) {
                pending.done(group);
                continue;
            }
            List<PlannedPartition> plan = planner.plan(group, kind, now);
            if (!plan.isEmpty()) {
                if (backlog) {
                    plannedInBacklog.put(group, now);
                }
                (kind == GroupKind.SHARE ? sharePlans : consumerPlans).put(group, plan);
                pending.startFlight(group, plan);
            }
        }
    }

    private int unansweredWrites() {
        GroupApplier consumer = runtime.consumerApplier();
        GroupApplier share = runtime.shareApplier();
        return consumer.unanswered() + (share == consumer ? 0 : share.unanswered());
    }

    private long answeredWrites() {
        GroupApplier consumer = runtime.consumerApplier();
        GroupApplier share = runtime.shareApplier();
        return consumer.answered() + (share == consumer ? 0 : share.answered());
    }

    private boolean synced(GroupKind kind) {
        return kind == GroupKind.CONSUMER ? settings.syncConsumerGroups() : settings.syncShareGroups();
    }

    /** One phase per group kind, each with its own Admin calls, under one lease from the moment they were planned. */
    private void send(long now, Map<String, List<PlannedPartition>> consumerPlans,
                      Map<String, List<PlannedPartition>> sharePlans) {
        WriteLease lease = lease(now);
        if (!consumerPlans.isEmpty()) {
            metrics.adminRequest("listConsumerGroupOffsets");
            metrics.adminRequest("alterConsumerGroupOffsets", consumerPlans.size());
            runtime.consumerApplier().apply(consumerPlans, lease, outcomes::add);
        }
        if (!sharePlans.isEmpty()) {
            metrics.adminRequest("alterShareGroupOffsets", sharePlans.size());
            runtime.shareApplier().apply(sharePlans, lease, outcomes::add);
        }
    }

    private GroupStateCounts.Snapshot countStates() {
        GroupStateCounts.Snapshot counts = GroupStateCounts.Snapshot.empty();
        groups.forEach((group, record) -> {
            GroupStateCounts.State state = record.openReason() != null ? GroupStateCounts.State.REFUSED
                    : pending.isPending(group) ? GroupStateCounts.State.PENDING : GroupStateCounts.State.IN_SYNC;
            counts.groups()[record.type().ordinal()][state.ordinal()]++;
        });
        return new GroupStateCounts.Snapshot(counts.groups(), pending.unsettledPositions());
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

    /**
     * Applied offsets that have stood for the refresh interval are written again, so the destination's offsets
     * retention never deletes them ({@link OffsetRefresh}). Not counted as waiting commits: nothing new is late.
     */
    private void refreshStanding(long now) {
        int refreshed = 0;
        for (PositionKey key : refresh.due(now, positions::forEachStored, groups::kindOf)) {
            PartitionPosition pos = positions.get(key);
            if (pos != null && pos.status() == PositionStatus.APPLIED && !pos.needsApply()) {
                positions.put(key, pos.withStatus(PositionStatus.PENDING, now));
                pending.mark(key);
                refreshed++;
            }
        }
        if (refreshed > 0) {
            metrics.offsetsRefreshed(refreshed);
            log.debug("Writing {} applied offsets again before the destination's offsets retention deletes them",
                    refreshed);
        }
    }

    /**
     * The destination holds an older commit than the one applied for the partition (found by the takeover audit):
     * unless a newer commit is on its way anyway, the partition is written again.
     */
    private void rewrite(PositionKey key, long now) {
        PartitionPosition pos = positions.get(key);
        if (pos == null || pos.needsApply() || pos.status() != PositionStatus.APPLIED) {
            return;
        }
        log.atWarn().addKeyValue("group", key.group()).log("The destination does not hold the commit Sextant "
                + "applied for group {} partition {}-{}: an older one (a late write of the instance that owned it "
                + "before, or, under adopt-forward, of the tool Sextant took the group over from), or none (it "
                + "expired or was deleted); writing it again", key.group(), key.topic(), key.partition());
        metrics.staleWriteRepaired();
        positions.put(key, pos.withStatus(PositionStatus.PENDING, now));
        pending.mark(key, pos.commitTimestamp());
    }
}
