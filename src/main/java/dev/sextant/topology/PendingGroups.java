package dev.sextant.topology;

import dev.sextant.apply.PlannedPartition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The groups of one task that have something to apply, in the order they became pending. This is how commits are
 * coalesced: a group committing a thousand times between two flushes is one entry here and one write on the
 * destination. A group is in flight from the moment its write is sent until its outcome is back; it is never sent
 * twice at once.
 *
 * <p>In memory only: after a restart it is rebuilt from the changelogged position store.
 */
final class PendingGroups {

    private final Set<String> pending = new LinkedHashSet<>();
    private final Map<String, Long> notBefore = new HashMap<>();
    private final Map<String, List<PlannedPartition>> inFlight = new HashMap<>();

    void mark(String group) {
        pending.add(group);
    }

    void done(String group) {
        pending.remove(group);
        notBefore.remove(group);
    }

    /** Keeps the group pending but leaves it alone until {@code until}. */
    void backoff(String group, long until) {
        pending.add(group);
        notBefore.put(group, until);
    }

    boolean isPending(String group) {
        return pending.contains(group);
    }

    int size() {
        return pending.size();
    }

    int inFlightCount() {
        return inFlight.size();
    }

    /** Up to {@code max} pending groups that are not in flight and not backing off. */
    List<String> due(long now, int max) {
        List<String> due = new ArrayList<>();
        for (String group : pending) {
            if (due.size() >= max) {
                break;
            }
            Long wait = notBefore.get(group);
            if (!inFlight.containsKey(group) && (wait == null || wait <= now)) {
                due.add(group);
            }
        }
        return due;
    }

    void startFlight(String group, List<PlannedPartition> plan) {
        inFlight.put(group, plan);
    }

    List<PlannedPartition> endFlight(String group) {
        List<PlannedPartition> plan = inFlight.remove(group);
        return plan == null ? List.of() : plan;
    }
}
