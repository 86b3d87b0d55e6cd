package dev.sextant.query;

import dev.sextant.domain.LogRange;
import dev.sextant.state.CutoverRecord;
import dev.sextant.state.GroupRecord;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;

/** Builds the API's views of a group from what the stores hold. Pure functions, no store access. */
final class GroupViews {

    /** Group states other than in-sync, worst first: the open dead-letter reasons and the retried statuses. */
    private static final List<PositionStatus> WORST_FIRST = List.of(PositionStatus.TYPE_CONFLICT,
            PositionStatus.DESTINATION_UNSUPPORTED, PositionStatus.SOURCE_CHANGED, PositionStatus.GROUP_ACTIVE,
            PositionStatus.DESTINATION_DIVERGED, PositionStatus.TOPIC_NOT_MIRRORED, PositionStatus.UNTRANSLATABLE,
            PositionStatus.PENDING);

    static final String IN_SYNC = "IN_SYNC";
    static final String NO_OFFSETS = "NO_OFFSETS";
    /** A group cut over to the destination ({@code sextant cutover}): the sync no longer moves it. */
    static final String CUT_OVER = "CUT_OVER";

    private GroupViews() {
    }

    static String groupType(GroupRecord record) {
        // positions are only kept for consumer groups; a group seen only through its commits is one
        return record == null ? "consumer" : record.typeLabel();
    }

    static Views.PartitionView partition(PositionKey key, PartitionPosition pos,
                                         UnaryOperator<String> destinationTopic) {
        boolean translated = pos.hasTranslation();
        return new Views.PartitionView(key.topic(), key.partition(), destinationTopic.apply(key.topic()),
                pos.sourceOffset(),
                translated ? pos.translatedOffset() : null,
                translated ? pos.precision().label() : null,
                translated ? Math.max(0, pos.bound()) : null,
                pos.appliedOffset() >= 0 ? pos.appliedOffset() : null,
                pos.appliedAt() > 0 ? pos.appliedAt() : null,
                pos.status().name(),
                pos.commitTimestamp() >= 0 ? pos.commitTimestamp() : null);
    }

    static Views.GroupDetail detail(String group, GroupRecord record,
                                    List<Map.Entry<PositionKey, PartitionPosition>> positions,
                                    UnaryOperator<String> destinationTopic, Optional<CutoverRecord> cutOver) {
        List<Views.PartitionView> partitions = new ArrayList<>();
        positions.forEach(e -> partitions.add(partition(e.getKey(), e.getValue(), destinationTopic)));
        return new Views.GroupDetail(group, groupType(record), partitions, cutOver.map(c ->
                new Views.CutoverView(c.cutAt(), c.fenceMs(), c.sourceCluster())).orElse(null));
    }

    /** Where no destination log is known: offsets are served as translated. */
    static final BiFunction<String, Integer, LogRange> NO_LOGS = (topic, partition) -> LogRange.UNKNOWN;

    /**
     * The seek positions: per partition the translation of the latest source commit, or, while that has no
     * translation yet, the offset the destination holds (the translation of an earlier commit: more replay, never a
     * lost record). A partition with neither is left out. Each is kept inside the destination partition's log as this
     * instance last read it ({@link LogRange#clamp}), as every write is: a consumer that seeks beyond the mirror's
     * end would skip what is appended there after a promotion, one that seeks below its start falls back to
     * {@code auto.offset.reset}.
     *
     * @param logs the destination partition's log by mirror topic and partition ({@link LogRange#UNKNOWN}: as is)
     */
    static Views.GroupOffsets offsets(Views.GroupDetail detail, BiFunction<String, Integer, LogRange> logs) {
        List<Views.OffsetView> offsets = new ArrayList<>();
        for (Views.PartitionView p : detail.partitions()) {
            Long offset = p.translatedOffset() != null ? p.translatedOffset() : p.appliedOffset();
            if (offset != null) {
                long seek = logs.apply(p.destinationTopic(), p.partition()).clamp(offset);
                offsets.add(new Views.OffsetView(p.destinationTopic(), p.partition(), seek));
            }
        }
        return new Views.GroupOffsets(detail.group(), detail.groupType(), offsets);
    }

    static Views.GroupSummary summary(String group, GroupRecord record, List<PartitionPosition> positions,
                                      boolean cutOver) {
        Long lastCommit = null;
        Long lastApply = null;
        Long worstBound = null;
        for (PartitionPosition p : positions) {
            if (p.commitTimestamp() >= 0) {
                lastCommit = lastCommit == null ? p.commitTimestamp() : Math.max(lastCommit, p.commitTimestamp());
            }
            if (p.appliedAt() > 0) {
                lastApply = lastApply == null ? p.appliedAt() : Math.max(lastApply, p.appliedAt());
            }
            if (p.hasTranslation()) {
                long bound = Math.max(0, p.bound());
                worstBound = worstBound == null ? bound : Math.max(worstBound, bound);
            }
        }
        return new Views.GroupSummary(group, groupType(record), cutOver ? heldState(positions)
                : state(record, positions), positions.size(), lastCommit, lastApply, worstBound);
    }

    /**
     * A cut-over group's status: {@code CUT_OVER}, unless a partition's offset vanished from the destination and
     * is not written back yet ({@code PENDING}): a consumer starting there now would fall back to
     * {@code auto.offset.reset}, so the group is not shown as done.
     */
    private static String heldState(List<PartitionPosition> positions) {
        return positions.stream().anyMatch(p -> p.status() == PositionStatus.PENDING && p.appliedOffset() >= 0)
                ? PositionStatus.PENDING.name() : CUT_OVER;
    }

    /**
     * Sextant's status of a group that was not cut over: the dead-letter reason open for it, else the worst status of
     * its partitions, else {@code IN_SYNC} (every partition applied, or a rewind skipped by policy); {@code NO_OFFSETS}
     * for a group with no committed offsets.
     */
    static String state(GroupRecord record, List<PartitionPosition> positions) {
        if (record != null && record.openReason() != null) {
            return record.openReason().name();
        }
        if (positions.isEmpty()) {
            return NO_OFFSETS;
        }
        for (PositionStatus status : WORST_FIRST) {
            if (positions.stream().anyMatch(p -> p.status() == status)) {
                return status.name();
            }
        }
        return IN_SYNC;
    }
}
