package dev.sextant.metrics;

import dev.sextant.domain.GroupKind;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How many groups each task has in each sync state, and how many of its partitions still have a source commit to
 * write, for the gauges an operator watches ({@code sextant_groups{state,group_type}},
 * {@code sextant_positions_pending}). Each task counts its own every few seconds on its stream thread; the gauges
 * add the tasks up. One per instance; thread-safe.
 */
public final class GroupStateCounts {

    /** Where a group stands. */
    public enum State {
        /** Nothing to write: the destination holds the latest translation. */
        IN_SYNC,
        /** A commit still to write (waiting for its flush, in flight, or retried). */
        PENDING,
        /** Refused or stuck for a reason that is a dead letter (a guard, an unmirrored topic, no offset sync). */
        REFUSED;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** One task's counts: groups by kind and state, and partitions pending. */
    public record Snapshot(long[][] groups, long pendingPositions) {

        public static Snapshot empty() {
            return new Snapshot(new long[GroupKind.values().length][State.values().length], 0);
        }

        /** Groups counted, of every kind and state. */
        public long total() {
            long total = 0;
            for (long[] byState : groups) {
                for (long n : byState) {
                    total += n;
                }
            }
            return total;
        }
    }

    private final Map<Object, Snapshot> byTask = new ConcurrentHashMap<>();

    public void update(Object task, Snapshot snapshot) {
        byTask.put(task, snapshot);
    }

    public void remove(Object task) {
        byTask.remove(task);
    }

    public long groups(GroupKind kind, State state) {
        return byTask.values().stream().mapToLong(s -> s.groups()[kind.ordinal()][state.ordinal()]).sum();
    }

    public long pendingPositions() {
        return byTask.values().stream().mapToLong(Snapshot::pendingPositions).sum();
    }
}
