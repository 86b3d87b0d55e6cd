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
 * ({@link OffsetOwnership}). Two things tell its own start offset from one a share consumer moved there: a write of
 * Sextant's leaves no record above the start offset delivered, and the consumer's acknowledgements do (the lag the
 * destination reports says how many, {@link ShareStart}: the stored start offset itself often stays where it was);
 * and the offset Sextant applied last for the partition ({@link PlannedPartition#appliedOffset}, kept in the
 * changelogged positions, so across restarts and task moves), which a consumer only moves forward:
 *
 * <pre>
 *   nothing there ──────────────────────────────▶ written (first write; or deleted there, written again)
 *   records above it delivered there ───────────▶ someone else's: DESTINATION_DIVERGED, the group left alone
 *   the translation there already ──────────────▶ APPLIED, nothing written (an answer lost, or no move)
 *   what Sextant applied, or below it ──────────▶ written (below: a late write of an older position, by the task's
 *                                                 previous owner)
 *   above what Sextant applied, or anything ────▶ someone else's: DESTINATION_DIVERGED, the group left alone
 *     while Sextant applied nothing
 * </pre>
 *
 * Under adopt-forward ({@link OverwritePolicy#adoptForward}) someone else's start offset is taken over when the
 * translation is at or above it and the records delivered above it.
 *
 * <p>Invariant: a start offset a share consumer on the destination moved, or records it acknowledged there above it,
 * are never written over, on any partition of the write: the group is its consumers' as a whole, as a consumer group
 * whose offsets someone else committed is; the same holds after its last member left, when the active-group guard no
 * longer stands in the way.
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

    /**
     * @param there     the destination's start offset of the partition, null when it has none
     * @param endBefore the partition's log end offset, read before {@code there} was; -1 when not known
     */
    void add(PlannedPartition part, ShareStart there, long endBefore) {
        planned.put(part.destination(), part);
        if (there == null) {
            write(part);
            return;
        }
        long start = there.startOffset();
        long delivered = there.completedAtLeast(endBefore);
        if (delivered <= 0 && start == part.translatedOffset()) {
            outcomes.put(part.key(), new PartitionOutcome(PositionStatus.APPLIED, start));
        } else if (delivered <= 0 && part.appliedOffset() >= 0 && start <= part.appliedOffset()) {
            write(part);
        } else if (adoptForward && part.translatedOffset() >= start + Math.max(0, delivered)) {
            adopted.add(part.destination() + "=" + start + (delivered > 0 ? " and " + delivered + " record(s) "
                    + "delivered above it" : "") + " -> " + part.translatedOffset());
            write(part);
        } else {
            foreign.add(part.destination() + "=" + start + (delivered > 0 ? " with " + delivered + " record(s) "
                    + "above it delivered there" : "") + (part.appliedOffset() >= 0 ? " (Sextant applied "
                    + part.appliedOffset() + ")" : " (Sextant applied none)") + (adoptForward ? " (the translation "
                    + part.translatedOffset() + " is below it)" : ""));
            outcomes.put(part.key(), new PartitionOutcome(PositionStatus.DESTINATION_DIVERGED, start));
        }
    }

    /**
     * Partitions the write does not touch on which records above the start offset were delivered there: a share
     * consumer on the destination consumed the group, which is its own as a whole, as a consumer group is whose
     * offsets someone else committed on a partition the write does not touch.
     */
    void deliveredElsewhere(Map<TopicPartition, ShareStart> existing, Map<TopicPartition, Long> endsBefore) {
        existing.forEach((tp, there) -> {
            long delivered = there.completedAtLeast(endsBefore.getOrDefault(tp, -1L));
            if (!planned.containsKey(tp) && delivered > 0) {
                foreign.add(tp + "=" + there.startOffset() + " with " + delivered + " record(s) above it delivered "
                        + "there (not in this write)");
            }
        });
    }

    /** The detail of the group's refusal when a start offset is someone else's. */
    String divergedDetail() {
        return "share start offsets on the destination are not as Sextant left them (a share consumer acknowledged "
                + "records there, or a tool moved them): " + String.join(", ", foreign);
    }

    /** Every planned partition refused: the group is someone else's as a whole, nothing of it is written. */
    Map<PositionKey, PartitionOutcome> diverged(Map<TopicPartition, ShareStart> existing) {
        Map<PositionKey, PartitionOutcome> out = new HashMap<>();
        planned.forEach((tp, part) -> {
            ShareStart there = existing.get(tp);
            out.put(part.key(), new PartitionOutcome(PositionStatus.DESTINATION_DIVERGED,
                    there == null ? -1 : there.startOffset()));
        });
        return out;
    }

    private void write(PlannedPartition part) {
        writes.put(part.destination(), part.translatedOffset());
    }
}
