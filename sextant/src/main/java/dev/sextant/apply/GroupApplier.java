package dev.sextant.apply;

import dev.sextant.state.PositionKey;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/** One phase of the apply: writes positions of one group type on the destination, asynchronously. */
public interface GroupApplier {

    /**
     * Applies every plan; {@code done} is called exactly once per group, on an Admin thread. Offsets are sent only
     * while {@code lease} is valid; a group whose lease ran out before its write was sent gets a retry outcome.
     */
    void apply(Map<String, List<PlannedPartition>> plans, WriteLease lease, Consumer<GroupOutcome> done);

    /**
     * Groups handed to {@link #apply}, by any caller, whose outcome has not been given yet: the planners hold back
     * while there are many, so what waits for the destination waits as pending groups, not as planned writes.
     */
    default int unanswered() {
        return 0;
    }

    /** Groups answered so far (their outcome given), by any caller: the rate the destination absorbs writes at. */
    default long answered() {
        return 0;
    }

    /** Applies every plan under a lease that never runs out. */
    default void apply(Map<String, List<PlannedPartition>> plans, Consumer<GroupOutcome> done) {
        apply(plans, WriteLease.ALWAYS, done);
    }

    /**
     * Of the given partitions, each holding an applied commit, those whose destination offset now carries an older
     * source commit than that one: a late write of an older commit (from an instance that owned the group before)
     * landed over it; and those the destination no longer holds at all (expired, or the group deleted). With
     * {@code sync.foreign.offsets=adopt-forward}, also those another writer moved below the
     * applied translation, or wrote at it under its own name (taken over again when written). The share phase,
     * whose offsets carry no mark, answers those below the applied start offset or gone; a phase that cannot tell
     * answers none.
     */
    default CompletableFuture<List<PositionKey>> overwritten(Map<String, List<PlannedPartition>> applied) {
        return CompletableFuture.completedFuture(List.of());
    }
}
