package dev.sextant.cutover;

import dev.sextant.client.SextantClient;
import dev.sextant.state.PositionStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;

/**
 * Whether the destination holds the group's last source commit, as the running sync reports it
 * ({@code GET /v1/groups/{group}}): a pure verdict, asked until it is {@link State#SYNCED} or a guard refuses.
 *
 * <p>A partition is synced when the sync's position is at the fenced source offset, is {@code APPLIED}, and what it
 * applied is its translation (not a write held at the mirror's end while the mirror catches up). A share group's fence
 * reads the stored share-partition start offset, which the share coordinator moves lazily (records acknowledged
 * above it often stay there), while the sync keeps the effective start offset past them: never below the stored one of
 * the same state, and the stored one only moves forward; so a share partition is at its fenced offset once the sync's
 * start offset is at or above it. The guards the sync
 * reports (members or another type on the destination, offsets someone else committed, a replaced source, a
 * destination that cannot take the group) refuse the cutover as they refuse the sync.
 */
final class SyncedCheck {

    enum State {
        /** Every partition synced. */
        SYNCED,
        /** Not yet: the sync has not read, translated or written the last commit everywhere. */
        WAITING,
        /** A guard of the sync stands in the way: waiting does not help. */
        REFUSED,
        /** The running instance did not answer: nothing is known of the sync (not a sign it fell behind). */
        UNANSWERED
    }

    /** The statuses of the sync that are its guards. */
    private static final Set<String> GUARDS = Stream.of(PositionStatus.GROUP_ACTIVE, PositionStatus.TYPE_CONFLICT,
            PositionStatus.DESTINATION_DIVERGED, PositionStatus.SOURCE_CHANGED,
            PositionStatus.DESTINATION_UNSUPPORTED).map(Enum::name).collect(Collectors.toUnmodifiableSet());

    /**
     * @param reason   with {@link State#REFUSED}, the guard's status
     * @param detail   what is not synced yet, or what refused
     * @param worstBound the largest replay bound of the synced partitions (0: every one exact)
     */
    record Verdict(State state, String reason, String detail, long worstBound) {
    }

    private SyncedCheck() {
    }

    /**
     * @param fenced    the group's committed source offsets, as fenced (only the partitions the sync moves)
     * @param positions the sync's positions of the group
     */
    static Verdict check(Map<TopicPartition, Long> fenced, List<SextantClient.Partition> positions) {
        return check(fenced, positions, false);
    }

    /**
     * @param fenced       the group's committed source offsets, or a share group's stored start offsets, as fenced
     *                     (only the partitions the sync moves)
     * @param positions    the sync's positions of the group
     * @param startOffsets true for a share group: a position at or above its fenced start offset is at it
     */
    static Verdict check(Map<TopicPartition, Long> fenced, List<SextantClient.Partition> positions,
                         boolean startOffsets) {
        Map<TopicPartition, SextantClient.Partition> byPartition = new HashMap<>();
        positions.forEach(p -> byPartition.put(new TopicPartition(p.topic(), p.partition()), p));
        List<String> waiting = new ArrayList<>();
        long worstBound = 0;
        for (Map.Entry<TopicPartition, Long> e : fenced.entrySet()) {
            SextantClient.Partition p = byPartition.get(e.getKey());
            if (p != null && GUARDS.contains(p.status())) {
                return new Verdict(State.REFUSED, p.status(), e.getKey() + " is " + p.status()
                        + " in the sync", worstBound);
            }
            if (p == null || (startOffsets ? p.sourceOffset() < e.getValue() : p.sourceOffset() != e.getValue())) {
                waiting.add(e.getKey() + ": the sync has not read the " + (startOffsets ? "share state at start "
                        + "offset " : "commit of ") + e.getValue() + " yet");
            } else if (!PositionStatus.APPLIED.name().equals(p.status()) || p.appliedOffset() == null
                    || !p.appliedOffset().equals(p.translatedOffset())) {
                waiting.add(e.getKey() + ": " + p.status() + (p.appliedOffset() == null ? ""
                        : ", " + p.appliedOffset() + " written") + (p.translatedOffset() == null ? ""
                        : ", " + p.translatedOffset() + " to write"));
            } else {
                worstBound = Math.max(worstBound, p.bound() == null ? 0 : p.bound());
            }
        }
        if (!waiting.isEmpty()) {
            return new Verdict(State.WAITING, null, String.join("; ", waiting.stream().limit(5).toList())
                    + (waiting.size() > 5 ? "; and " + (waiting.size() - 5) + " more" : ""), worstBound);
        }
        return new Verdict(State.SYNCED, null, null, worstBound);
    }
}
