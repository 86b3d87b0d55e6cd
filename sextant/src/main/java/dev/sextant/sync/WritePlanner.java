package dev.sextant.sync;

import dev.sextant.apply.DestinationGroup;
import dev.sextant.apply.DestinationView;
import dev.sextant.apply.PlannedPartition;
import dev.sextant.domain.GroupKind;
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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;

/**
 * Turns a group's pending positions into the partitions to write in this flush:
 *
 * <pre>
 *   pending position ──▶ translate ──▶ guards (type, members: destination view) ──▶ topic mirrored? ──▶ plan
 *                          │ none yet                 │ refused                        │ not yet
 *                          ▼                          ▼                                ▼
 *                      UNTRANSLATABLE, parked     status recorded, backoff        TOPIC_NOT_MIRRORED, parked
 * </pre>
 *
 * <p>Invariants: a partition is never planned against a guard; a translation is never planned when it is no better
 * than what the destination already holds; a partition leaves the pending set here only when nothing is left to do
 * until it changes again.
 */
final class WritePlanner {

    private final SyncSettings settings;
    private final SyncRuntime runtime;
    private final DestinationView view;
    private final SextantMetrics metrics;
    private final IndexedPositions positions;
    private final GroupStore groups;
    private final OffsetTranslator translator;
    private final BoundedPositions bounded;
    private final PendingGroups pending;
    private final GroupReasonReporter reasons;
    private final Map<String, String> destinationTopics = new HashMap<>();

    WritePlanner(SyncSettings settings, SyncRuntime runtime, IndexedPositions positions, GroupStore groups,
                 OffsetTranslator translator, BoundedPositions bounded, PendingGroups pending,
                 GroupReasonReporter reasons) {
        this.settings = settings;
        this.runtime = runtime;
        this.view = runtime.view();
        this.metrics = runtime.metrics();
        this.positions = positions;
        this.groups = groups;
        this.translator = translator;
        this.bounded = bounded;
        this.pending = pending;
        this.reasons = reasons;
    }

    /**
     * The partitions of the group to write now; records on the way what stands in the way of the others (guards,
     * missing topics, untranslatable offsets) and parks or settles them.
     */
    List<PlannedPartition> plan(String group, GroupKind type, long now) {
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
            boolean planned = false;
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
                            pos.sourceOffset(), pos.commitTimestamp(), t.destinationOffset(), Math.max(0, t.bound())));
                    planned = true;
                }
            }
            if (!next.equals(pos)) {
                positions.put(key, next);
                if (!planned) {
                    bounded.track(key, next); // a planned one is tracked when its write settles
                }
            }
            if (settled) {
                pending.clean(key);
            } else if (park) {
                pending.park(key, now + parkFor(key, next, now));
            }
        }
        if (plan.isEmpty()) {
            reasons.update(group, type, null, now);
            if (guard != null) {
                pending.backoff(group, now + Backoffs.GUARD_MS);
            }
            // otherwise what is still pending is retried: untranslatable offsets and unmirrored topics a second
            // later (parked), partitions the view does not know yet at the next flush
        }
        return plan;
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
     * changes it: parked longer the longer it waits ({@link Backoffs#parkBelowOldestSync}).
     */
    private long parkFor(PositionKey key, PartitionPosition pos, long now) {
        if (pos.status() != PositionStatus.UNTRANSLATABLE || !bounded.hasHistory(key)) {
            return Backoffs.RETRY_MS;
        }
        long waited = pos.pendingSince() < 0 ? 0 : now - pos.pendingSince();
        return Backoffs.parkBelowOldestSync(waited, settings.pendingTimeoutMs() - waited);
    }

    private String destinationTopic(String sourceTopic) {
        return destinationTopics.computeIfAbsent(sourceTopic, settings::destinationTopic);
    }
}
