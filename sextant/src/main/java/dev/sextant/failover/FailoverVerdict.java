package dev.sextant.failover;

import dev.sextant.apply.DestinationGroup;
import dev.sextant.apply.GroupGuard;
import dev.sextant.apply.GroupOutcome;
import dev.sextant.apply.OffsetOwnership;
import dev.sextant.apply.PlannedPartition;
import dev.sextant.apply.TranslatedPosition;
import dev.sextant.client.SextantClient;
import dev.sextant.domain.GroupKind;
import dev.sextant.domain.LogRange;
import dev.sextant.failover.FailoverReport.GroupResult;
import dev.sextant.failover.FailoverReport.GroupState;
import dev.sextant.failover.FailoverReport.PartitionState;
import dev.sextant.failover.FailoverReport.PartitionStatus;
import dev.sextant.state.GroupRecord;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The verdict of a failover with the source gone, from what was read: per group, where each partition stands and
 * whether its consumers resume there without skipping; after an {@code apply}, what the destination's answer made of
 * it. Pure: the reads and the writes are {@link DestinationFailover}'s.
 *
 * <p>With an instance, every group it knows is judged, not only those on the destination: a group or a partition the
 * destination lacks, a partition the instance could not translate, an offset the instance applied that is gone from
 * the destination (expired), a destination group of the other type: each makes the report not clean, since a
 * consumer starting there would fall back to {@code auto.offset.reset} and skip records (or never be written).
 */
final class FailoverVerdict {

    /** A group the instance knows and the destination does not have at all. */
    static final String ABSENT = "absent";

    private FailoverVerdict() {
    }

    /** A group the instance knows as {@code type} and the destination lacks. */
    static DestinationGroup absent(String group, String type) {
        GroupKind kind = kindOf(type);
        return new DestinationGroup(group, kind, type == null ? kind.label() : type, false, ABSENT);
    }

    /** The sync phase of a type as the instance shows it: a Kafka Streams group's offsets are a consumer group's. */
    static GroupKind kindOf(String type) {
        return GroupKind.SHARE.label().equals(type) ? GroupKind.SHARE : GroupKind.CONSUMER;
    }

    /**
     * @param sourceType the group's type as the instance knows it ({@code consumer}, {@code streams}, {@code share}),
     *                   or null; it is the type shown when known
     * @param consumer   the group's committed offsets on the destination (a consumer group)
     * @param share      its start offsets there (a share group)
     * @param known      the instance's positions of the group
     * @param cutOver    the group's cutover as the instance shows it, or null: a group cut over is its consumers'
     *                   on the destination, and failover leaves it as it is
     */
    static GroupState state(DestinationGroup group, String sourceType, Map<TopicPartition, OffsetAndMetadata> consumer,
                            Map<TopicPartition, Long> share, List<SextantClient.Partition> known,
                            SextantClient.Cutover cutOver, OffsetOwnership ownership, long now) {
        Map<TopicPartition, PartitionState> rows = new TreeMap<>(
                Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
        if (group.type() == GroupKind.CONSUMER) {
            consumer.forEach((tp, om) -> rows.put(tp, committedRow(tp, om, ownership, now)));
        } else {
            share.forEach((tp, offset) -> rows.put(tp, new PartitionState(tp.topic(), tp.partition(), offset, null,
                    null, null, null, PartitionStatus.IN_SYNC)));
        }
        if (cutOver != null) {
            return cutOver(group, shownType(group, sourceType), known, cutOver, rows, now);
        }
        boolean foreign = rows.values().stream().anyMatch(r -> r.status() == PartitionStatus.NOT_SEXTANT);
        notApplied(known).forEach((tp, p) -> {
            PartitionState there = rows.get(tp);
            if (there != null && there.offset() != null && there.offset().equals(p.translatedOffset())) {
                return; // the destination already holds it
            }
            rows.put(tp, pendingRow(tp, p, there, now));
        });
        known.forEach(p -> unwrittenRow(p, rows, now));
        // a group absent from the destination stands in nobody's way; the type written is the source's, when known
        GroupGuard guard = ABSENT.equals(group.state()) ? GroupGuard.NONE : GroupGuard.judge(Optional.of(group),
                sourceType == null ? group.type() : kindOf(sourceType));
        if (guard == GroupGuard.TYPE_CONFLICT) {
            return new GroupState(group.groupId(), group.typeLabel(), group.state(), GroupResult.REFUSED,
                    "a " + group.typeLabel() + " group on the destination, a " + sourceType + " group on the "
                    + "source: Sextant never writes across types; delete the destination group or rename one",
                    List.copyOf(rows.values()));
        }
        if (known.stream().anyMatch(p -> PositionStatus.SOURCE_CHANGED.name().equals(p.status()))) {
            return new GroupState(group.groupId(), shownType(group, sourceType), group.state(), GroupResult.REFUSED,
                    "the group's destination offsets were written from another source cluster (the source was "
                    + "replaced): the instance's newer positions are not written until an operator runs 'sextant "
                    + "rebaseline --source --apply'", List.copyOf(rows.values()));
        }
        return judge(group, shownType(group, sourceType), foreign, guard, List.copyOf(rows.values()));
    }

    /**
     * A position of the instance the destination holds no offset for: untranslated, or applied and gone since. A
     * partition with an offset there is left as it is: at worst an older commit's, replayed from.
     */
    private static void unwrittenRow(SextantClient.Partition p, Map<TopicPartition, PartitionState> rows, long now) {
        TopicPartition tp = InstancePositions.destinationPartition(p);
        PartitionState there = rows.get(tp);
        if (there != null && there.offset() != null) {
            return;
        }
        if (p.translatedOffset() == null) {
            rows.put(tp, new PartitionState(tp.topic(), tp.partition(), null, null, null, commitAge(p, now), null,
                    PartitionStatus.UNTRANSLATED));
        } else if (!InstancePositions.notApplied(p)) {
            rows.put(tp, new PartitionState(tp.topic(), tp.partition(), null, p.precision(), p.bound(),
                    commitAge(p, now), p.translatedOffset(), PartitionStatus.MISSING));
        }
    }

    private static Long commitAge(SextantClient.Partition p, long now) {
        return p.commitTimestamp() == null ? null : Math.max(0, now - p.commitTimestamp());
    }

    /** The positions the instance has translated and not applied yet, by destination partition. */
    private static Map<TopicPartition, SextantClient.Partition> notApplied(List<SextantClient.Partition> known) {
        Map<TopicPartition, SextantClient.Partition> pending = new HashMap<>();
        for (SextantClient.Partition p : known) {
            if (InstancePositions.notApplied(p)) {
                pending.put(InstancePositions.destinationPartition(p), p);
            }
        }
        return pending;
    }

    /**
     * A group cut over to the destination: its consumers' from then on, and failover leaves it as it is, unless the
     * destination lost its offsets (expired or deleted before its consumers committed there): then a consumer
     * starting there would fall back to {@code auto.offset.reset}, so the group is not clean, and {@code --apply}
     * writes back what the sync applied.
     */
    private static GroupState cutOver(DestinationGroup group, String type, List<SextantClient.Partition> known,
                                      SextantClient.Cutover cutOver, Map<TopicPartition, PartitionState> rows,
                                      long now) {
        String at = "cut over to the destination at " + Instant.ofEpochMilli(cutOver.cutAt()) + " ('sextant cutover')";
        if (group.type() == GroupKind.CONSUMER) {
            known.forEach(p -> unwrittenRow(p, rows, now)); // a partition it applied that the destination lost
        }
        List<PartitionState> partitions = List.copyOf(rows.values());
        List<String> lost = partitions.stream().filter(r -> r.offset() == null)
                .map(r -> r.topic() + "-" + r.partition()).toList();
        if (group.type() == GroupKind.CONSUMER && (partitions.isEmpty() || !lost.isEmpty())) {
            return new GroupState(group.groupId(), type, group.state(), GroupResult.INCOMPLETE, at + ", but the "
                    + "destination holds no offset for " + (lost.isEmpty() ? "it" : String.join(", ", lost))
                    + " (expired or deleted there): its consumers would start from auto.offset.reset; --apply "
                    + "writes back what the sync applied", partitions);
        }
        return new GroupState(group.groupId(), type, group.state(), GroupResult.CUT_OVER, at + ": its consumers run "
                + "here, and failover leaves it as it is", partitions);
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
        return new PartitionState(tp.topic(), tp.partition(), there == null ? null : there.offset(),
                p.precision(), p.bound(), commitAge(p, now), p.translatedOffset(),
                there != null && there.status() == PartitionStatus.NOT_SEXTANT
                        ? PartitionStatus.NOT_SEXTANT : PartitionStatus.PENDING);
    }

    /**
     * The group's type as the report shows it: as the instance knows it, else the destination's phase, except that a
     * Kafka Streams group there is shown as one ({@code streams}).
     */
    private static String shownType(DestinationGroup group, String sourceType) {
        if (sourceType != null) {
            return sourceType;
        }
        return GroupRecord.STREAMS_PROTOCOL.equals(group.typeLabel()) ? group.typeLabel() : group.type().label();
    }

    private static GroupState judge(DestinationGroup group, String type, boolean foreign, GroupGuard guard,
                                    List<PartitionState> partitions) {
        boolean hasPending = partitions.stream().anyMatch(p -> p.status().toWrite());
        List<String> untranslated = partitions.stream().filter(p -> p.status() == PartitionStatus.UNTRANSLATED)
                .map(p -> p.topic() + "-" + p.partition()).toList();
        GroupResult result;
        String detail = null;
        if (foreign) {
            result = GroupResult.REFUSED;
            detail = "offsets on the destination were not written by Sextant: its consumers already ran there, or "
                    + "another tool moved them";
        } else if (hasPending && guard == GroupGuard.GROUP_ACTIVE) {
            result = GroupResult.REFUSED;
            detail = "active on the destination (" + group.state() + "): positions not applied yet cannot be "
                    + "written while it has members";
        } else if (!untranslated.isEmpty()) {
            result = GroupResult.INCOMPLETE;
            detail = "no translation for " + String.join(", ", untranslated) + " (no offset sync covers the commit, or "
                    + "the topic is not mirrored): its consumers would start there from auto.offset.reset; see "
                    + "docs/failover.md, \"Failover in detail\""
                    + (hasPending ? "; --apply writes the other positions" : "");
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
        return new GroupState(group.groupId(), type, group.state(), result, detail, partitions);
    }

    /** The destination partitions of rows with a translation to write: their logs decide what is written. */
    static Set<TopicPartition> pendingPartitions(List<GroupState> states) {
        Set<TopicPartition> out = new HashSet<>();
        states.forEach(s -> s.partitions().stream().filter(p -> p.pendingOffset() != null)
                .forEach(p -> out.add(new TopicPartition(p.topic(), p.partition()))));
        return out;
    }

    /**
     * The group's rows with each translation to write kept inside its destination partition's log, as
     * {@code --apply} writes it ({@link TranslatedPosition#within}): what the report and the reset plan show is what
     * a consumer can seek to, never beyond the mirror's end (the records held back added to the bound).
     */
    static GroupState withinLogs(GroupState state, Map<TopicPartition, LogRange> logs) {
        List<PartitionState> rows = state.partitions().stream().map(p -> p.pendingOffset() == null ? p
                : withinLog(p, logs.getOrDefault(new TopicPartition(p.topic(), p.partition()), LogRange.UNKNOWN)))
                .toList();
        return new GroupState(state.group(), state.groupType(), state.destinationState(), state.result(),
                state.detail(), rows);
    }

    private static PartitionState withinLog(PartitionState p, LogRange log) {
        TopicPartition tp = new TopicPartition(p.topic(), p.partition());
        PlannedPartition planned = TranslatedPosition.of(new PositionKey("", p.topic(), p.partition()), tp, -1, -1,
                p.pendingOffset(), p.bound() == null ? -1 : p.bound()).within(log);
        if (planned.translatedOffset() == p.pendingOffset()) {
            return p;
        }
        return new PartitionState(p.topic(), p.partition(), p.offset(), planned.bound() == 0 ? "exact" : "bounded",
                planned.bound(), p.lastSyncAgeMs(), planned.translatedOffset(), p.status());
    }

    /** True when {@code apply} has something to write for the group. */
    static boolean writes(GroupState state) {
        return (state.result() == GroupResult.PENDING || state.result() == GroupResult.INCOMPLETE)
                && state.partitions().stream().anyMatch(p -> p.status().toWrite());
    }

    /** The translations to write: the positions not applied yet, and those applied and gone from the destination. */
    static List<TranslatedPosition> toWrite(String group, List<SextantClient.Partition> known, GroupState state) {
        List<TranslatedPosition> out = new ArrayList<>();
        for (SextantClient.Partition p : known) {
            TopicPartition tp = InstancePositions.destinationPartition(p);
            boolean missing = state.partitions().stream().anyMatch(r -> r.status() == PartitionStatus.MISSING
                    && r.topic().equals(tp.topic()) && r.partition() == tp.partition());
            if (InstancePositions.notApplied(p) || missing) {
                // what the instance applied before: a share start offset moved past it is someone else's
                out.add(new TranslatedPosition(new PositionKey(group, p.topic(), p.partition()), tp,
                        p.sourceOffset(), p.commitTimestamp() == null ? -1 : p.commitTimestamp(), -1,
                        p.translatedOffset(), p.bound() == null ? -1 : p.bound(), -1,
                        p.appliedOffset() == null ? -1 : p.appliedOffset()));
            }
        }
        return out;
    }

    /**
     * The group's state once the destination answered its write ({@code outcome}, null when it did not in time) of
     * {@code planned}.
     */
    static GroupState settle(GroupState state, List<PlannedPartition> planned, GroupOutcome outcome) {
        GroupState refused = refusedOrLate(state, outcome);
        return refused != null ? refused : settleWritten(state, planned, outcome);
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

    private static GroupState settleWritten(GroupState state, List<PlannedPartition> planned, GroupOutcome outcome) {
        Map<TopicPartition, GroupOutcome.PartitionOutcome> answers = new HashMap<>();
        planned.forEach(part -> {
            GroupOutcome.PartitionOutcome answer = outcome.partitions().get(part.key());
            if (answer != null) {
                answers.put(part.destination(), answer);
            }
        });
        List<PartitionState> partitions = new ArrayList<>();
        boolean failed = false;
        for (PartitionState p : state.partitions()) {
            if (!p.status().toWrite()) {
                partitions.add(p);
                continue;
            }
            OptionalLong written = written(answers.get(new TopicPartition(p.topic(), p.partition())), p);
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

    /**
     * The offset the destination holds now for the pending position of {@code p}, by the answer to its write: the
     * pending one, or one inside the log where the pending one lay outside it; empty when it was not written.
     */
    private static OptionalLong written(GroupOutcome.PartitionOutcome answer, PartitionState p) {
        if (answer == null) {
            return OptionalLong.empty();
        }
        boolean holds = answer.status() == PositionStatus.APPLIED ? answer.destinationOffset() >= 0
                : (answer.status() == PositionStatus.SUPERSEDED || answer.status() == PositionStatus.REWIND_SKIPPED)
                && answer.destinationOffset() == (long) p.pendingOffset();
        return holds ? OptionalLong.of(answer.destinationOffset()) : OptionalLong.empty();
    }

    private static List<PartitionState> notWritten(List<PartitionState> partitions) {
        return partitions.stream().map(p -> p.status().toWrite() ? notWritten(p) : p).toList();
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
}
