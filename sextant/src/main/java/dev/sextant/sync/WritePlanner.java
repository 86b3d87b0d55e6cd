package dev.sextant.sync;

import dev.sextant.apply.DestinationView;
import dev.sextant.apply.DestinationView.PartitionPresence;
import dev.sextant.apply.PlannedPartition;
import dev.sextant.apply.StreamsGroupSupport;
import dev.sextant.apply.TranslatedPosition;
import dev.sextant.domain.GroupKind;
import dev.sextant.domain.LogRange;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.state.GroupRecord;
import dev.sextant.state.GroupStore;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import dev.sextant.sync.PartitionDecision.Guard;
import dev.sextant.sync.PartitionDecision.Result;
import dev.sextant.sync.PartitionDecision.Verdict;
import dev.sextant.translate.OffsetTranslation;
import dev.sextant.translate.OffsetTranslator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * Turns a group's pending positions into the partitions to write in this flush:
 *
 * <pre>
 *   pending position ──▶ translate ──▶ guards (type, members: destination view) ──▶ topic mirrored? ──▶ plan
 *                          │ no sync covers it        │ refused                        │ not yet
 *                          ▼                          ▼                                ▼
 *                      the log starts'            status recorded, backoff        TOPIC_NOT_MIRRORED, parked
 *                      (LogStartTranslation), else UNTRANSLATABLE, parked
 * </pre>
 *
 * <p>What to do with each partition is {@link PartitionDecision}'s verdict; the planner gathers what it decides on
 * (the translation, the group's guard, the destination partition) and applies it: the store, the pending set, the
 * parks and backoffs of {@link Backoffs}.
 *
 * <p>Invariants: a partition is never planned against a guard, nor outside the destination partition's log as the
 * view last read it ({@link TranslatedPosition#within}: a log end only grows, so a view that is a refresh old errs
 * low); a translation is never planned when it is no better than what the destination already holds; a partition
 * leaves the pending set here only when nothing is left to do until it changes again.
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
    private final UncoveredPositions uncovered;
    private final PendingGroups pending;
    private final GroupReasonReporter reasons;
    private final Map<String, String> destinationTopics = new HashMap<>();
    private final LogStartTranslation logStarts;
    private final HeldGroups held;
    /** What the history records of each mirror: its topic id, its rewinds (none with identity translation). */
    private final MirrorRecords mirrors;
    /** The recorded mirror ids read last, by source topic. */
    private final Map<String, Uuid> recordedMirrors = new HashMap<>();

    WritePlanner(SyncSettings settings, SyncRuntime runtime, IndexedPositions positions, GroupStore groups,
                 OffsetTranslator translator, BoundedPositions bounded, UncoveredPositions uncovered,
                 PendingGroups pending, GroupReasonReporter reasons) {
        this(settings, runtime, positions, groups, translator, bounded, uncovered, pending, reasons,
                MirrorRecords.NONE);
    }

    /**
     * @param mirrors what the history records of each mirror: the destination id a source topic's history describes
     *                (a partition whose mirror the view now sees with another id, re-seeded or the destination
     *                rebuilt, is not written until the history forgot the old mirror's syncs), and where a mirror
     *                partition went back (every plan carries it: what the destination holds through the syncs it
     *                contradicts is no floor)
     */
    WritePlanner(SyncSettings settings, SyncRuntime runtime, IndexedPositions positions, GroupStore groups,
                 OffsetTranslator translator, BoundedPositions bounded, UncoveredPositions uncovered,
                 PendingGroups pending, GroupReasonReporter reasons, MirrorRecords mirrors) {
        this.mirrors = mirrors;
        this.settings = settings;
        this.runtime = runtime;
        this.view = runtime.view();
        this.metrics = runtime.metrics();
        this.positions = positions;
        this.groups = groups;
        this.translator = translator;
        this.bounded = bounded;
        this.uncovered = uncovered;
        this.pending = pending;
        this.reasons = reasons;
        this.held = new HeldGroups(positions, pending, view, settings::destinationTopic);
        this.logStarts = new LogStartTranslation(runtime.source(), view, settings.untranslatableEarliest());
    }

    /** Fetches the log starts the last plans asked about (offsets no sync covers); never blocks. */
    void refreshLogStarts(long now) {
        logStarts.refresh(now);
    }

    /**
     * The partitions of the group to write now; records on the way what stands in the way of the others (guards,
     * missing topics, untranslatable offsets) and parks or settles them.
     */
    List<PlannedPartition> plan(String group, GroupKind type, long now) {
        if (runtime.cutovers().cutOver(group)) {
            return held.plan(group, type); // cut over: never moved from here again, only kept alive there
        }
        if (type == GroupKind.SHARE) {
            resolvePlaceholders(group);
        }
        Guard guard = guard(group, type);
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
            Result result = decide(key, pos, guard, now);
            apply(key, pos, result, now);
            if (result.verdict() == Verdict.PLAN) {
                plan.add(planned(key, result.next(), type));
            }
        }
        if (plan.isEmpty()) {
            reasons.update(group, type, null, now);
            if (guard != Guard.NONE && guard != Guard.UNKNOWN) {
                pending.backoff(group, now + Backoffs.GUARD_MS);
            }
            // otherwise what is still pending is retried: untranslatable offsets and unmirrored topics a second
            // later (parked), partitions the view does not know yet at the next flush
        }
        return plan;
    }

    /**
     * The group's guard. Whether it is a Kafka Streams group is read from the store only when the destination may
     * not take one (unknown yet, or refused): not a store read per group per flush.
     */
    private Guard guard(String group, GroupKind type) {
        Guard guard = Guard.of(view.group(group), type);
        StreamsGroupSupport streams = view.streamsGroups();
        if (guard != Guard.NONE || type != GroupKind.CONSUMER
                || streams.verdict() == StreamsGroupSupport.Verdict.SUPPORTED) {
            return guard;
        }
        GroupRecord record = groups.get(group);
        return record != null && record.streams() ? Guard.ofStreams(streams) : guard;
    }

    /** Gathers what the decision needs: a translation only when one is wanted, the destination only with one. */
    private Result decide(PositionKey key, PartitionPosition pos, Guard guard, long now) {
        boolean wanted = PartitionDecision.wantsTranslation(pos);
        Optional<OffsetTranslation> translation = wanted
                ? translator.translate(key.topic(), key.partition(), pos.sourceOffset()) : Optional.empty();
        if (wanted && translation.isEmpty()) {
            String mirror = destinationTopic(key.topic());
            view.partition(mirror, key.partition()); // the view looks the topic up, and its log ends, from now on
            translation = logStarts.translate(new TopicPartition(key.topic(), key.partition()), pos.sourceOffset(),
                    new TopicPartition(mirror, key.partition()), view.endOffset(mirror, key.partition()), now);
        }
        PartitionPresence presence = translation.isPresent()
                ? view.partition(destinationTopic(key.topic()), key.partition()) : null;
        if (presence == PartitionPresence.PRESENT && mirrorReplaced(key.topic())) {
            presence = PartitionPresence.UNKNOWN; // waits: the translation is through the old mirror's syncs
        }
        LogRange log = translation.isPresent() ? view.logRange(destinationTopic(key.topic()), key.partition())
                : LogRange.UNKNOWN;
        return PartitionDecision.decide(pos, translation, guard, presence, log, now);
    }

    /**
     * True when the view sees the topic's mirror with another id than the one its history describes. The recorded id
     * is read from the history only when the view's differs from the one read last: no store read per write.
     */
    private boolean mirrorReplaced(String sourceTopic) {
        Optional<Uuid> seen = view.topicId(destinationTopic(sourceTopic));
        if (seen.isEmpty() || seen.get().equals(recordedMirrors.get(sourceTopic))) {
            return false;
        }
        Optional<Uuid> recorded = mirrors.recordedMirror(sourceTopic);
        recorded.ifPresent(id -> recordedMirrors.put(sourceTopic, id));
        return recorded.isPresent() && !recorded.get().equals(seen.get());
    }

    /** Stores the decided position and moves the partition in the pending set as the verdict says. */
    private void apply(PositionKey key, PartitionPosition pos, Result result, long now) {
        PartitionPosition next = result.next();
        if (!next.equals(pos)) {
            positions.put(key, next);
            if (result.verdict() != Verdict.PLAN) {
                bounded.track(key, next); // a planned one is tracked when its write settles
            }
        }
        switch (result.verdict()) {
            case SETTLE -> pending.clean(key);
            case PARK -> {
                pending.park(key, now + parkFor(key, next, now));
                if (next.status() == PositionStatus.UNTRANSLATABLE) {
                    uncovered.waitFor(key, next.sourceOffset());
                }
            }
            case PLAN, GUARDED, WAIT -> {
                // stays pending: until the write settles, the group's backoff ends, or the view knows the partition
            }
        }
    }

    private PlannedPartition planned(PositionKey key, PartitionPosition pos, GroupKind type) {
        TopicPartition destination = new TopicPartition(destinationTopic(key.topic()), key.partition());
        LogRange log = view.logRange(destination.topic(), destination.partition());
        TranslatedPosition translated = TranslatedPosition.of(key, destination, pos);
        if (translated.beyond(log)) {
            // the mirror lags (or was truncated): written at its end, so nothing appended there after a promotion is
            // skipped; the records up to the translation, once mirrored, are replays; written closer as it catches up
            metrics.beyondLogEnd(type);
        }
        return translated.within(log, mirrors.rewind(key.topic(), key.partition()));
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
