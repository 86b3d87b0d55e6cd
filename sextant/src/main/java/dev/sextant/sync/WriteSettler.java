package dev.sextant.sync;

import dev.sextant.apply.CheckpointEmitter;
import dev.sextant.apply.GroupOutcome;
import dev.sextant.apply.PlannedPartition;
import dev.sextant.domain.GroupKind;
import dev.sextant.domain.Reason;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.state.GroupStore;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import dev.sextant.translate.OffsetTranslation;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Records what the destination answered for a group's write: applied and rewind-skipped positions are settled (and
 * their latency measured), refusals recorded, transient failures backed off; then the group's dead-letter reason is
 * re-evaluated. Failed writes of a group are retried with a growing, jittered pause.
 *
 * <p>Invariant: a position leaves the pending set only once the destination holds its translation or it was refused
 * for a reason that needs no retry; a commit that arrived while the write was in flight keeps it pending.
 */
final class WriteSettler {

    private final IndexedPositions positions;
    private final GroupStore groups;
    private final BoundedPositions bounded;
    private final ClampedPositions clamped;
    private final PendingGroups pending;
    private final GroupReasonReporter reasons;
    private final SextantMetrics metrics;
    private final CheckpointEmitter checkpoints;
    /** Consecutive failed writes per group (the destination unreachable, or a transient error), while failing. */
    private final Map<String, Integer> failures = new HashMap<>();
    /** True for a group cut over to the destination: only kept alive there. */
    private final Predicate<String> held;
    /** Partitions in flight when the history their write was translated through was forgotten. */
    private final Set<PositionKey> reopenWhenAnswered = new HashSet<>();

    WriteSettler(IndexedPositions positions, GroupStore groups, BoundedPositions bounded, PendingGroups pending,
                 GroupReasonReporter reasons, SextantMetrics metrics, CheckpointEmitter checkpoints) {
        this(positions, groups, bounded, new ClampedPositions(tp -> -1), pending, reasons, metrics, checkpoints,
                group -> false);
    }

    /** @param held true for a group cut over to the destination ({@link HeldGroups}) */
    WriteSettler(IndexedPositions positions, GroupStore groups, BoundedPositions bounded, ClampedPositions clamped,
                 PendingGroups pending, GroupReasonReporter reasons, SextantMetrics metrics,
                 CheckpointEmitter checkpoints, Predicate<String> held) {
        this.held = held;
        this.clamped = clamped;
        this.checkpoints = checkpoints;
        this.positions = positions;
        this.groups = groups;
        this.bounded = bounded;
        this.pending = pending;
        this.reasons = reasons;
        this.metrics = metrics;
    }

    /**
     * The partition's write in flight was translated through a history forgotten since (its source topic was
     * recreated): once answered, it is planned again instead of settling, so that a position the history no longer
     * covers shows as {@code UNTRANSLATABLE} rather than applied.
     */
    void reopenWhenAnswered(PositionKey key) {
        reopenWhenAnswered.add(key);
    }

    void settle(GroupOutcome outcome, long now) {
        String group = outcome.group();
        GroupKind type = groups.kindOf(group);
        List<PlannedPartition> plan = pending.endFlight(group);
        if (outcome.retry()) {
            metrics.retried(type);
            pending.backoff(group, now + Backoffs.retryDelay(failures.merge(group, 1, Integer::sum)));
            return;
        }
        failures.remove(group);
        if (outcome.reason() == Reason.DESTINATION_DIVERGED && held.test(group)) {
            // a cut-over group's consumers committed on the destination: its offsets are theirs, as the cutover
            // meant; not a conflict to report, and no longer kept alive (its positions stop being applied ones)
            plan.forEach(planned -> settlePartition(group, type, planned, outcome.partitions().get(planned.key()),
                    now));
            return;
        }
        int applied = 0;
        for (PlannedPartition planned : plan) {
            if (settlePartition(group, type, planned, outcome.partitions().get(planned.key()), now)) {
                applied++;
            }
        }
        if (applied > 0) {
            metrics.applied(type, applied);
        }
        reasons.update(group, type, outcome.reason() == null ? null : outcome.detail(), now);
        if (outcome.reason() == Reason.DESTINATION_DIVERGED || outcome.reason() == Reason.SOURCE_CHANGED) {
            pending.backoff(group, now + Backoffs.DIVERGED_MS);
        } else if (outcome.reason() != null) {
            pending.backoff(group, now + Backoffs.GUARD_MS);
        }
    }

    /**
     * Records one partition's answer ({@code result}; null when the answer left it out: it stays pending).
     *
     * @return true when the destination now holds the partition's translation because of this write
     */
    private boolean settlePartition(String group, GroupKind type, PlannedPartition planned,
                                    GroupOutcome.PartitionOutcome result, long now) {
        PartitionPosition pos = positions.get(planned.key());
        if (pos == null) {
            pending.clean(planned.key()); // deleted meanwhile
            return false;
        }
        if (result == null) {
            return false;
        }
        boolean reopen = reopenWhenAnswered.remove(planned.key());
        boolean settles = result.status().settles();
        PartitionPosition next = settles ? settled(group, type, planned, pos, result, now)
                : pos.withStatus(result.status(), now);
        if (reopen && !next.needsApply()) {
            next = next.reopened();
            pending.mark(planned.key());
        }
        positions.put(planned.key(), next);
        bounded.track(planned.key(), next);
        clamped.track(planned.key(), planned.destination(), next);
        if (settles) {
            pending.settled(planned.key(), next.needsApply() ? next.commitTimestamp() : -1);
        }
        if (next.needsApply()) {
            // a commit that arrived meanwhile keeps it pending
        } else if (bounded.outdated(planned.key(), next)) {
            // translated before a newer sync arrived, and the check for newer syncs may have run while this
            // write was in flight: look again now rather than at the partition's next sync
            pending.mark(planned.key());
        } else {
            pending.cleanAfterFlight(planned.key());
        }
        return settles && result.written();
    }

    /** The position once the destination holds {@code result}: checkpointed and measured when it was written now. */
    private PartitionPosition settled(String group, GroupKind type, PlannedPartition planned, PartitionPosition pos,
                                      GroupOutcome.PartitionOutcome result, long now) {
        if (result.status() == PositionStatus.APPLIED && type == GroupKind.CONSUMER) {
            checkpoints.applied(group, planned.destination(), planned.sourceOffset(), result.destinationOffset());
        }
        if (result.written() && !planned.again()) {
            // a commit written again (a refresh, a vanished offset) was synced long ago: not a sync's latency
            metrics.syncLatency(type, now - planned.commitTimestamp());
            metrics.replayBound(type, Math.max(0, pos.bound()));
        }
        PartitionPosition translated = pos;
        if (result.keptBound() >= 0 && pos.sourceOffset() == planned.sourceOffset()
                && result.destinationOffset() > pos.translatedOffset()) {
            // the destination kept an exact translation above the plan (ExactFloor): that is the translation now,
            // so what this instance shows and serves does not fall behind what the destination holds
            translated = pos.withTranslation(OffsetTranslation.bounded(pos.sourceOffset(),
                    result.destinationOffset(), result.keptBound()));
        }
        return translated.settled(result.destinationOffset(), planned.sourceOffset(), result.status(),
                result.written(), now);
    }
}
