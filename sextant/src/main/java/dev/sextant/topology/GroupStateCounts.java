package dev.sextant.topology;

import dev.sextant.domain.GroupKind;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How many groups each task has in each sync state, and how many of its partitions still have a source commit to
 * write, for the gauges an operator watches ({@code sextant_groups{state,group_type}},
 * {@code sextant_positions_pending}). Each task counts its own every few seconds on its stream thread; the gauges
 * add the tasks up. One per instance; thread-safe.
 */
final class GroupStateCounts {

    /** Where a group stands. */
    enum State {
        /** Nothing to write: the destination holds the latest translation. */
        IN_SYNC,
        /** A commit still to write (waiting for its flush, in flight, or retried). */
        PENDING,
        /** Refused or stuck for a reason that is a dead letter (a guard, an unmirrored topic, no offset sync). */
        REFUSED;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** One task's counts: groups by kind and state, and partitions pending. */
    record Snapshot(long[][] groups, long pendingPositions) {

        static Snapshot empty() {
            return new Snapshot(new long[GroupKind.values().length][State.values().length], 0);
        }
    }

    private final Map<Object, Snapshot> byTask = new ConcurrentHashMap<>();

    void update(Object task, Snapshot snapshot) {
        byTask.put(task, snapshot);
    }

    void remove(Object task) {
        byTask.remove(task);
    }

    long groups(GroupKind kind, State state) {
        return byTask.values().stream().mapToLong(s -> s.groups()[kind.ordinal()][state.ordinal()]).sum();
    }

    long pendingPositions() {
        return byTask.values().stream().mapToLong(Snapshot::pendingPositions).sum();
    }
}
