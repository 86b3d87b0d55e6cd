package dev.sextant.sync;

import dev.sextant.apply.PlannedPartition;
import dev.sextant.state.PositionKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * The groups of one task that have something to apply, in the order they became pending, each with the partitions
 * that need a look. This is how commits are coalesced: a group committing a thousand times between two flushes is
 * one entry here and one write on the destination; and a flush looks at the partitions that changed, not at every
 * partition the group ever committed. A group is pending while it has such a partition; it is in flight from the
 * moment its write is sent until its outcome is back, and is never sent twice at once.
 *
 * <p>In memory only: after a restart it is rebuilt from the changelogged position store.
 */
final class PendingGroups {

    /** Re-planned groups keep {@code 1/REPLAN_SHARE} of a flush's room while new commits wait too. */
    private static final int REPLAN_SHARE = 4;

    private final Map<String, Set<PositionKey>> pending = new LinkedHashMap<>();
    private final Map<String, Long> notBefore = new HashMap<>();
    private final Map<String, List<PlannedPartition>> inFlight = new HashMap<>();
    /** Per group in flight (or just answered), the partitions marked meanwhile: {@link #cleanAfterFlight}. */
    private final Map<String, Set<PositionKey>> markedInFlight = new HashMap<>();
    /** Per partition pending for a new source commit, the time of the first commit since it was last settled. */
    private final Map<PositionKey, Long> since = new HashMap<>();
    /** Per group, how many of its partitions are in {@link #since}: a group with none is only re-planned. */
    private final Map<String, Integer> unsettledByGroup = new HashMap<>();
    /** Partitions waiting for something outside Sextant (an offset sync, a mirrored topic), by retry time. */
    private final TreeMap<Long, List<PositionKey>> parked = new TreeMap<>();

    /** The partition needs a look at the next flush of its group. */
    void mark(PositionKey key) {
        pending.computeIfAbsent(key.group(), g -> new LinkedHashSet<>()).add(key);
        if (inFlight.containsKey(key.group())) {
            markedInFlight.computeIfAbsent(key.group(), g -> new HashSet<>()).add(key);
        }
    }

    /**
     * The partition's write was answered and it needs nothing more for it: it stops being pending, unless something
     * marked it while the write was in flight (a proof, the mirror's end moving past it), whose look is still due:
     * the trigger that marked it does not mark it again.
     */
    void cleanAfterFlight(PositionKey key) {
        Set<PositionKey> marked = markedInFlight.get(key.group());
        if (marked != null && marked.remove(key)) {
            if (marked.isEmpty()) {
                markedInFlight.remove(key.group());
            }
            return;
        }
        clean(key);
    }

    /** The partition has a new source commit, made at {@code commitTimestamp}: it needs a look. */
    void mark(PositionKey key, long commitTimestamp) {
        mark(key);
        if (commitTimestamp >= 0) {
            if (since.putIfAbsent(key, commitTimestamp) == null) {
                unsettledByGroup.merge(key.group(), 1, Integer::sum);
            }
        }
    }

    /** The partition needs nothing more; the group stops being pending with its last such partition. */
    void clean(PositionKey key) {
        settledAll(key);
        Set<PositionKey> keys = pending.get(key.group());
        if (keys != null && keys.remove(key) && keys.isEmpty()) {
            pending.remove(key.group());
            notBefore.remove(key.group());
        }
    }

    /**
     * The partition waits for something outside Sextant: it stops being looked at until {@code until}, then is
     * pending again. A new commit marks it pending before that.
     */
    void park(PositionKey key, long until) {
        clean(key);
        parked.computeIfAbsent(until, t -> new ArrayList<>()).add(key);
    }

    /** Partitions parked until {@code now} or earlier are pending again. */
    void unpark(long now) {
        while (!parked.isEmpty() && parked.firstKey() <= now) {
            parked.pollFirstEntry().getValue().forEach(this::mark);
        }
    }

    /** Forgets the group (deleted on the source, or its type is not synced). */
    void done(String group) {
        markedInFlight.remove(group);
        Set<PositionKey> keys = pending.remove(group);
        if (keys != null) {
            keys.forEach(this::settledAll);
        }
        notBefore.remove(group);
    }

    /** Keeps the group pending but leaves it alone until {@code until}. */
    void backoff(String group, long until) {
        if (pending.containsKey(group)) {
            notBefore.put(group, until);
        }
    }

    /** A copy of the group's partitions that need a look. */
    List<PositionKey> keys(String group) {
        Set<PositionKey> keys = pending.get(group);
        return keys == null ? List.of() : new ArrayList<>(keys);
    }

    /** Up to {@code max} pending groups that are not in flight and not backing off. */
    List<String> due(long now, int max) {
        return due(now, max, max, group -> true);
    }

    /**
     * Up to {@code max} pending groups that are not in flight, not backing off, and {@code eligible}, of which at
     * most {@code maxReplans} only re-planned. Groups with a source commit not settled yet come first, each kind in
     * the order it became pending; groups that are only re-planned (a closer translation, a refresh before the
     * destination's offsets retention) keep a quarter of {@code max} (within {@code maxReplans}) when both wait, so a
     * stream of new commits delays them but never starves them.
     */
    List<String> due(long now, int max, int maxReplans, Predicate<String> eligible) {
        int replanCap = Math.max(0, Math.min(maxReplans, max));
        int replanShare = Math.min(max / REPLAN_SHARE, replanCap);
        // counted from both sides, so a flush with no re-plans stops at its room instead of walking every group
        boolean replansWaiting = pending.size() > unsettledByGroup.size();
        List<String> fresh = new ArrayList<>();
        List<String> replans = new ArrayList<>();
        for (String group : pending.keySet()) {
            if (fresh.size() >= max && (replans.size() >= replanShare || !replansWaiting)) {
                break;
            }
            Long wait = notBefore.get(group);
            if (inFlight.containsKey(group) || (wait != null && wait > now) || !eligible.test(group)) {
                continue;
            }
            boolean isFresh = unsettledByGroup.containsKey(group);
            if (isFresh && fresh.size() < max) {
                fresh.add(group);
            } else if (!isFresh && replans.size() < replanCap) {
                replans.add(group);
            }
        }
        int takeReplans = Math.min(replans.size(), Math.min(replanCap, Math.max(replanShare, max - fresh.size())));
        List<String> due = new ArrayList<>(fresh.subList(0, Math.min(fresh.size(), max - takeReplans)));
        due.addAll(replans.subList(0, takeReplans));
        return due;
    }

    /** The partition has no source commit left unsettled. */
    private void settledAll(PositionKey key) {
        if (since.remove(key) != null) {
            unsettledByGroup.computeIfPresent(key.group(), (g, n) -> n == 1 ? null : n - 1);
        }
    }


    /**
     * The destination settled the partition's planned commit: nothing is unapplied, or, when a newer commit arrived
     * meanwhile, that one is ({@code newerCommitTimestamp}, -1 for none).
     */
    void settled(PositionKey key, long newerCommitTimestamp) {
        if (newerCommitTimestamp < 0) {
            settledAll(key);
        } else if (since.put(key, newerCommitTimestamp) == null) {
            unsettledByGroup.merge(key.group(), 1, Integer::sum);
        }
    }

    /** Each partition with a source commit not settled yet, and the time of the first such commit. */
    void forEachPendingSince(BiConsumer<PositionKey, Long> action) {
        since.forEach(action);
    }

    /** The time of the partition's first source commit not settled yet, or -1 when it has none. */
    long pendingSince(PositionKey key) {
        Long since = this.since.get(key);
        return since == null ? -1 : since;
    }

    /** True while the group has a source commit not settled yet (false: it is only planned again). */
    boolean hasUnsettledCommit(String group) {
        return unsettledByGroup.containsKey(group);
    }

    /** True while the group has a partition that needs a look. */
    boolean isPending(String group) {
        return pending.containsKey(group);
    }

    /** Partitions with a source commit not settled yet. */
    int unsettledPositions() {
        return since.size();
    }

    boolean inFlight(String group) {
        return inFlight.containsKey(group);
    }

    int inFlightCount() {
        return inFlight.size();
    }

    void startFlight(String group, List<PlannedPartition> plan) {
        inFlight.put(group, plan);
        markedInFlight.remove(group); // those of the last flight not settled by it stayed pending: planned now
    }

    List<PlannedPartition> endFlight(String group) {
        List<PlannedPartition> plan = inFlight.remove(group);
        return plan == null ? List.of() : plan;
    }
}
