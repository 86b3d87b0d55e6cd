package dev.sextant.sync;

import dev.sextant.apply.DestinationGroup;
import dev.sextant.apply.DestinationView;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.GroupKind;
import dev.sextant.domain.Reason;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.state.GroupRecord;
import dev.sextant.state.GroupStore;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Works out a group's dead-letter reason from the few positions with a problem ({@link IndexedPositions#problems})
 * and writes a dead-letter record when it differs from the one last reported ({@link GroupRecord#openReason}).
 *
 * <p>Invariant: one record per change of a group's reason, never one per flush, so the topic stays readable. A
 * position waiting for its topic or an offset sync is a reason only once it has waited {@code sync.pending.timeout.ms};
 * the guards (type conflict, a Kafka Streams group the destination cannot take, active group, diverged offsets) are
 * reasons at once.
 */
final class GroupReasonReporter {

    private static final Comparator<PositionKey> BY_PARTITION =
            Comparator.comparing(PositionKey::topic).thenComparingInt(PositionKey::partition);
    /** When partitions of a group have different problems, the group is reported under the first of these. */
    private static final List<Reason> REASON_ORDER = List.of(Reason.TYPE_CONFLICT,
            Reason.DESTINATION_UNSUPPORTED, Reason.SOURCE_CHANGED, Reason.GROUP_ACTIVE,
            Reason.DESTINATION_DIVERGED, Reason.TOPIC_NOT_MIRRORED, Reason.UNTRANSLATABLE);

    private final SyncSettings settings;
    private final IndexedPositions positions;
    private final GroupStore groups;
    private final DestinationView view;
    private final SextantMetrics metrics;
    private final Consumer<DeadLetterRecord> deadLetters;

    GroupReasonReporter(SyncSettings settings, IndexedPositions positions, GroupStore groups, DestinationView view,
                        SextantMetrics metrics, Consumer<DeadLetterRecord> deadLetters) {
        this.settings = settings;
        this.positions = positions;
        this.groups = groups;
        this.view = view;
        this.metrics = metrics;
        this.deadLetters = deadLetters;
    }

    /**
     * Re-evaluates the group's reason; writes a dead-letter record if it changed to a new one.
     *
     * @param detail what the destination said, or null to describe the reason from what is known here
     */
    void update(String group, GroupKind kind, String detail, long now) {
        Map<PositionKey, PartitionPosition> parts = positions.problems(group);
        Reason reason = worstReason(parts, now);
        GroupRecord record = groups.get(group);
        if (record == null) {
            record = GroupRecord.of(kind);
        }
        if (record.openReason() == reason) {
            return;
        }
        groups.put(group, record.withReason(reason));
        if (reason != null) {
            report(group, kind, record.typeLabel(), reason, parts, detail, now);
        }
    }

    /** The first reason in {@link #REASON_ORDER} any of the partitions has, or null. */
    private Reason worstReason(Map<PositionKey, PartitionPosition> parts, long now) {
        Reason reason = null;
        for (PartitionPosition p : parts.values()) {
            Reason r = reasonOf(p, now);
            if (r != null && (reason == null || REASON_ORDER.indexOf(r) < REASON_ORDER.indexOf(reason))) {
                reason = r;
            }
        }
        return reason;
    }

    /** One dead-letter record naming the partitions that have {@code reason}, in partition order. */
    private void report(String group, GroupKind kind, String typeLabel, Reason reason,
                        Map<PositionKey, PartitionPosition> parts, String detail, long now) {
        List<DeadLetterRecord.PartitionDetail> details = new ArrayList<>();
        long newestCommit = -1;
        List<Map.Entry<PositionKey, PartitionPosition>> sorted = new ArrayList<>(parts.entrySet());
        sorted.sort(Map.Entry.comparingByKey(BY_PARTITION));
        for (Map.Entry<PositionKey, PartitionPosition> e : sorted) {
            PartitionPosition p = e.getValue();
            if (reasonOf(p, now) != reason) {
                continue;
            }
            newestCommit = Math.max(newestCommit, p.commitTimestamp());
            details.add(new DeadLetterRecord.PartitionDetail(e.getKey().topic(), e.getKey().partition(),
                    p.sourceOffset(), p.hasTranslation() ? p.translatedOffset() : null,
                    p.appliedOffset() >= 0 ? p.appliedOffset() : null));
        }
        metrics.refused(kind, reason, details.size());
        metrics.deadLetter(reason);
        deadLetters.accept(new DeadLetterRecord(group, typeLabel, reason, details,
                detail != null ? detail : describe(group, kind, reason), newestCommit >= 0 ? newestCommit : null,
                now, settings.instance()));
    }

    private Reason reasonOf(PartitionPosition p, long now) {
        boolean timedOut = p.pendingSince() >= 0 && now - p.pendingSince() >= settings.pendingTimeoutMs();
        return switch (p.status()) {
            case TYPE_CONFLICT -> Reason.TYPE_CONFLICT;
            case GROUP_ACTIVE -> Reason.GROUP_ACTIVE;
            case DESTINATION_UNSUPPORTED -> Reason.DESTINATION_UNSUPPORTED;
            case SOURCE_CHANGED -> Reason.SOURCE_CHANGED;
            case DESTINATION_DIVERGED -> Reason.DESTINATION_DIVERGED;
            case TOPIC_NOT_MIRRORED -> timedOut ? Reason.TOPIC_NOT_MIRRORED : null;
            case UNTRANSLATABLE -> timedOut ? Reason.UNTRANSLATABLE : null;
            default -> null;
        };
    }

    private String describe(String group, GroupKind kind, Reason reason) {
        Optional<DestinationGroup> there = view.group(group);
        return switch (reason) {
            case TYPE_CONFLICT -> "group exists on the destination as a "
                    + there.map(DestinationGroup::typeLabel).orElse("different") + " group; a " + kind.label()
                    + " group is never written over another type";
            case GROUP_ACTIVE -> "group has members on the destination (state "
                    + there.map(DestinationGroup::state).orElse("?")
                    + "); its offsets are left alone until it is empty";
            case DESTINATION_UNSUPPORTED -> "a Kafka Streams group is not written on this destination: "
                    + view.streamsGroups().detail();
            case SOURCE_CHANGED -> "destination offsets were written from another source cluster: nothing is written "
                    + "until an operator runs 'sextant rebaseline --source --apply'";
            case DESTINATION_DIVERGED -> "destination offsets were committed by someone other than Sextant";
            case TOPIC_NOT_MIRRORED -> "destination topic or partition missing after "
                    + settings.pendingTimeoutMs() + " ms; still retried";
            case UNTRANSLATABLE -> "no offset sync at or below the committed offset after "
                    + settings.pendingTimeoutMs() + " ms; still retried";
            case CUT_OVER -> "group was cut over to the destination";
            case UNDECODABLE -> "undecodable input";
            case INVALID_OFFSET_SYNC -> "invalid offset sync";
            case MIRROR_RESEEDED -> "mirror topic created again on the destination";
            case DESTINATION_CHANGED -> "the destination is another cluster";
        };
    }
}
