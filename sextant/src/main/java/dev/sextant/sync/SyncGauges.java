package dev.sextant.sync;

import dev.sextant.domain.GroupKind;
import dev.sextant.metrics.GroupStateCounts;
import dev.sextant.metrics.OldestPending;
import dev.sextant.metrics.SextantMetrics;
import java.time.Clock;

/**
 * The instance-wide aggregates every task adds its figures to ({@link TaskGauges}), behind the gauges of
 * {@link SextantMetrics}: the age of the oldest source commit not written yet, and the groups by kind and state.
 */
public record SyncGauges(OldestPending oldestPending, GroupStateCounts stateCounts) {

    /** New aggregates, each behind its gauges in {@code metrics}. */
    public static SyncGauges registered(SextantMetrics metrics, Clock clock) {
        OldestPending oldestPending = new OldestPending();
        metrics.oldestPendingAge(() -> oldestPending.ageSeconds(clock.millis()));
        GroupStateCounts stateCounts = new GroupStateCounts();
        for (GroupKind kind : GroupKind.values()) {
            for (GroupStateCounts.State state : GroupStateCounts.State.values()) {
                metrics.groupsInState(kind, state.label(), () -> stateCounts.groups(kind, state));
            }
        }
        metrics.positionsPending(stateCounts::pendingPositions);
        return new SyncGauges(oldestPending, stateCounts);
    }
}
