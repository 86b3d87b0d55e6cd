package dev.sextant.sync;

import dev.sextant.apply.DestinationView;
import dev.sextant.apply.GroupGuard;
import dev.sextant.apply.PlannedPartition;
import dev.sextant.apply.TranslatedPosition;
import dev.sextant.domain.GroupKind;
import dev.sextant.domain.LogRange;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.TopicPartition;

/**
 * The writes of a group cut over to the destination ({@code sextant cutover}): the sync never moves it from the source
 * again, but keeps its offsets there alive, for as long as they are Sextant's, so that consumers that start there a
 * week later (a batch job, a staged migration) still find them. Only what was applied is written, again, as it was:
 * a refresh before the destination's retention deletes it, or a rewrite once it vanished.
 *
 * <p>Invariants: a held group's write is its applied offset of its applied commit, nothing newer or closer; a share
 * group is never written (its start offsets do not expire); nothing is written while the group has members on the
 * destination or is of another type there, and the appliers refuse it once its consumers committed there (the
 * settle then stops keeping it: {@link WriteSettler}).
 */
final class HeldGroups {

    private final IndexedPositions positions;
    private final PendingGroups pending;
    private final DestinationView view;
    private final UnaryOperator<String> destinationTopic;

    HeldGroups(IndexedPositions positions, PendingGroups pending, DestinationView view,
               UnaryOperator<String> destinationTopic) {
        this.positions = positions;
        this.pending = pending;
        this.view = view;
        this.destinationTopic = destinationTopic;
    }

    /** The held group's partitions to write again now; the others leave the pending set. */
    List<PlannedPartition> plan(String group, GroupKind type) {
        List<PlannedPartition> plan = new ArrayList<>();
        boolean free = GroupGuard.judge(view.group(group), type) == GroupGuard.NONE;
        for (PositionKey key : pending.keys(group)) {
            PartitionPosition pos = positions.get(key);
            if (pos == null || type != GroupKind.CONSUMER || !free || pos.appliedOffset() < 0
                    || pos.appliedSourceOffset() != pos.sourceOffset()) {
                pending.clean(key); // nothing of it to keep alive, or its consumers run there
                continue;
            }
            TopicPartition destination = new TopicPartition(destinationTopic.apply(key.topic()), key.partition());
            LogRange log = view.logRange(destination.topic(), destination.partition());
            if (log.end() < 0) {
                continue; // the view reads the partition's log from now on: written at a later flush
            }
            plan.add(new TranslatedPosition(key, destination, pos.sourceOffset(), pos.commitTimestamp(),
                    pos.commitLogOffset(), pos.appliedOffset(), pos.bound(), pos.appliedSourceOffset(),
                    pos.appliedOffset()).within(log));
        }
        return plan;
    }
}
