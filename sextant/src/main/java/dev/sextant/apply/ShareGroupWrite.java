package dev.sextant.apply;

import dev.sextant.apply.GroupOutcome.PartitionOutcome;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.TopicPartition;

/**
 * One share group's partitions sorted, by whose start offset the destination holds, into the start offsets to write
 * and the outcomes settled without a write, for {@link ShareGroupApplier}.
 *
 * <p>Share start offsets carry no metadata, so Sextant cannot mark its writes as it marks consumer offsets
 * ({@link OffsetOwnership}). What tells its own start offset from someone else's is the offset it applied last for
 * the partition ({@link PlannedPartition#appliedOffset}, kept in the changelogged positions, so across restarts and
 * task moves), compared with what the destination holds now:
 *
 * <pre>
 *   nothing there ─────────────────────────────▶ written (first write; or deleted there, written again)
 *   the translation there already ─────────────▶ APPLIED, nothing written (an answer lost, or no move)
 *   what Sextant applied ──────────────────────▶ written
 *   below what Sextant applied ────────────────▶ written: a late write of an older position (the task's previous
 *                                                owner); a share consumer only moves a start offset forward
 *   above what Sextant applied, or anything ───▶ someone else's: DESTINATION_DIVERGED, the group left alone
 *     while Sextant applied nothing               (adopt-forward: taken over when the translation is at or above it)
 * </pre>
 *
 * <p>Invariant: a start offset a share consumer on the destination moved (it acknowledged records there, so the
 * offset is past what Sextant applied) is never written over, on any partition of the write: the group is its
 * consumers' as a whole, as a consumer group whose offsets someone else committed is; the same holds after its last
 * member left, when the active-group guard no longer stands in the way.
 */
final class ShareGroupWrite {

    private final boolean adoptForward;

    final Map<TopicPartition, Long> writes = new HashMap<>();
    final Map<TopicPartition, PlannedPartition> planned = new HashMap<>();
    final Map<PositionKey, PartitionOutcome> outcomes = new HashMap<>();
    /** partitions whose start offset someone else moved, and that stay theirs */
    final Set<String> foreign = new TreeSet<>();
    /** partitions whose start offset someone else moved, taken over by adopt-forward */
    final Set<String> adopted = new TreeSet<>();

    /** @param adoptForward {@code sync.foreign.offsets=adopt-forward} ({@link OverwritePolicy#adoptForward}) */
    ShareGroupWrite(boolean adoptForward) {
        this.adoptForward = adoptForward;
    }

    /** @param there the destination's start offset of the partition, null when it has none */
    void add(PlannedPartition part, Long there) {
        planned.put(part.destination(), part);
        if (there == null) {
            write(part);
        } else if (there == part.translatedOffset()) {
            outcomes.put(part.key(), new PartitionOutcome(PositionStatus.APPLIED, there));
        } else if (part.appliedOffset() >= 0 && there <= part.appliedOffset()) {
            write(part);
        } else if (adoptForward && part.translatedOffset() >= there) {
            adopted.add(part.destination() + "=" + there + " -> " + part.translatedOffset());
            write(part);
        } else {
            foreign.add(part.destination() + "=" + there + (part.appliedOffset() >= 0
                    ? " (Sextant applied " + part.appliedOffset() + ")" : " (Sextant applied none)")
                    + (adoptForward ? " (the translation " + part.translatedOffset() + " is below it)" : ""));
            outcomes.put(part.key(), new PartitionOutcome(PositionStatus.DESTINATION_DIVERGED, there));
        }
    }

    /** The detail of the group's refusal when a start offset is someone else's. */
    String divergedDetail() {
        return "share start offsets on the destination were moved by someone other than Sextant (a share consumer "
                + "that acknowledged records there, or a tool): " + String.join(", ", foreign);
    }

    /** Every planned partition refused: the group is someone else's as a whole, nothing of it is written. */
    Map<PositionKey, PartitionOutcome> diverged(Map<TopicPartition, Long> existing) {
        Map<PositionKey, PartitionOutcome> out = new HashMap<>();
        planned.forEach((tp, part) -> {
            Long there = existing.get(tp);
            out.put(part.key(), new PartitionOutcome(PositionStatus.DESTINATION_DIVERGED, there == null ? -1 : there));
        });
        return out;
    }

    private void write(PlannedPartition part) {
        writes.put(part.destination(), part.translatedOffset());
    }
}
