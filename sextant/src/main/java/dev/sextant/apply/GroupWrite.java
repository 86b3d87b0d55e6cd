package dev.sextant.apply;

import dev.sextant.apply.GroupOutcome.PartitionOutcome;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * One group's partitions sorted, by the partitions' guards, into the offsets to write and the outcomes settled without
 * a write, for {@link ConsumerGroupApplier}: someone else's offset (the group stays theirs, or adopt-forward takes it),
 * a newer commit there ({@code SUPERSEDED}), an exact floor the plan lies below ({@link ExactFloor}), the same offset
 * already there, a rewind not followed.
 *
 * <p>Invariant: an offset of Sextant's that the mirror partition's rewind outdates
 * ({@link dev.sextant.domain.MirrorRewind#outdates}: written for an older source offset at or past where the mirror
 * went back) is written over by the plan, unless it carries a newer commit: it points at records the mirror no longer
 * holds there, so it is no exact floor, and moving below it is no rewind of the source group ({@code sync.rewind}).
 *
 * <p>Invariant: a kept exact floor is written again as it stands (the same offset under the same mark), so that the
 * destination's commit time moves whenever the plan would have moved it: a plan kept below the floor is never a
 * refresh that wrote nothing, and the offset does not reach the destination's retention unwritten.
 */
final class GroupWrite {

    private final OffsetOwnership ownership;
    private final boolean followRewinds;
    private final boolean adoptForward;

    final Map<PositionKey, PartitionOutcome> outcomes = new HashMap<>();
    final Map<TopicPartition, OffsetAndMetadata> writes = new HashMap<>();
    final Map<TopicPartition, PositionKey> keys = new HashMap<>();
    /** partitions whose destination offset someone else committed, and that stay theirs */
    final Set<String> foreign = new HashSet<>();
    /** partitions whose destination offset someone else committed, taken over by adopt-forward */
    final Set<String> adopted = new HashSet<>();
    final Set<TopicPartition> planned = new HashSet<>();
    /** partitions whose exact floor is written again as it stands, with the replay bound of keeping it */
    private final Map<TopicPartition, Long> keptBounds = new HashMap<>();

    GroupWrite(OffsetOwnership ownership, boolean followRewinds, boolean adoptForward) {
        this.ownership = ownership;
        this.followRewinds = followRewinds;
        this.adoptForward = adoptForward;
    }

    /** @param now the destination's committed offset of the partition, null when it has none */
    void add(PlannedPartition part, OffsetAndMetadata now) {
        planned.add(part.destination());
        if (now != null && !ownership.owns(now.metadata())) {
            theirs(part, now);
            return;
        }
        PartitionOutcome settled = now == null ? null : withoutWrite(part, now);
        if (settled == null) {
            write(part);
        } else if (settled.keptBound() >= 0) {
            writes.put(part.destination(), now); // the floor as it stands: its commit time moves, nothing else
            keys.put(part.destination(), part.key());
            keptBounds.put(part.destination(), settled.keptBound());
        } else {
            outcomes.put(part.key(), settled);
        }
    }

    /** The destination's answer for a partition written: a floor written again is reported kept, with its bound. */
    void answered(TopicPartition tp, PartitionOutcome written) {
        Long kept = keptBounds.get(tp);
        outcomes.put(keys.get(tp), kept == null || written.status() != PositionStatus.APPLIED ? written
                : new PartitionOutcome(PositionStatus.APPLIED, written.destinationOffset(), true, kept));
    }

    /** An offset someone else committed: refused, or taken over under adopt-forward. */
    private void theirs(PlannedPartition part, OffsetAndMetadata now) {
        if (!adoptForward || part.translatedOffset() < now.offset()) {
            foreign.add(part.destination() + "=" + now.offset()
                    + (now.metadata().isEmpty() ? "" : " '" + now.metadata() + "'")
                    + (adoptForward ? " (the translation " + part.translatedOffset() + " is below it)" : ""));
            outcomes.put(part.key(), new PartitionOutcome(PositionStatus.DESTINATION_DIVERGED, now.offset()));
        } else {
            // adopt-forward: the group has no members (the planner's guard, and the broker refuses the write
            // otherwise) and the translation does not move it backwards; from now on the offset is Sextant's
            adopted.add(part.destination() + "=" + now.offset() + " -> " + part.translatedOffset());
            write(part);
        }
    }

    /** How a partition Sextant wrote before settles without a write; null when it is written. */
    private PartitionOutcome withoutWrite(PlannedPartition part, OffsetAndMetadata now) {
        Optional<OffsetOwnership.Mark> mark = ownership.mark(now.metadata());
        if (mark.map(m -> m.newerThan(part)).orElse(false)) {
            return new PartitionOutcome(PositionStatus.SUPERSEDED, now.offset());
        }
        if (mark.map(m -> part.rewind().outdates(m.sourceOffset(), now.offset())).orElse(false)) {
            return null; // translated through syncs the mirror's rewind contradicts: no floor, and no source rewind
        }
        OptionalLong kept = mark.map(m -> ExactFloor.keep(m, now.offset(), part)).orElse(OptionalLong.empty());
        if (kept.isPresent()) {
            return PartitionOutcome.keptExact(now.offset(), kept.getAsLong());
        }
        if (now.offset() == part.translatedOffset() && !part.again()) {
            return new PartitionOutcome(PositionStatus.APPLIED, now.offset());
        }
        if (part.translatedOffset() < now.offset() && !followRewinds) {
            return new PartitionOutcome(PositionStatus.REWIND_SKIPPED, now.offset());
        }
        return null;
    }

    /**
     * Partitions the write does not touch whose offsets someone else committed: a consumer that failed over and
     * committed some partitions, or one that uses {@code assign()} and never makes the group active. The group
     * is theirs as a whole, so none of it is written while such an offset is there.
     */
    void foreignElsewhere(Map<TopicPartition, OffsetAndMetadata> existing) {
        existing.forEach((tp, now) -> {
            if (!planned.contains(tp) && !ownership.owns(now.metadata())) {
                foreign.add(tp + "=" + now.offset() + (now.metadata().isEmpty() ? "" : " '" + now.metadata()
                        + "'") + " (not in this write)");
            }
        });
    }

    private void write(PlannedPartition part) {
        writes.put(part.destination(), new OffsetAndMetadata(part.translatedOffset(),
                ownership.metadataFor(part)));
        keys.put(part.destination(), part.key());
    }
}
