package dev.sextant.apply;

import dev.sextant.domain.Reason;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What happened when a group's positions were applied on the destination, handed back to the stream thread that
 * owns the group.
 *
 * @param reason     a group-level refusal (active, type conflict, diverged), or null
 * @param retry      true when the destination could not be reached or answered with a transient error: nothing
 *                   is concluded and the positions stay pending
 * @param partitions per partition: the resulting status and the offset the destination now holds (-1 unknown)
 */
public record GroupOutcome(String group, Reason reason, boolean retry, String detail,
                           Map<PositionKey, PartitionOutcome> partitions) {

    /** Every planned partition refused for the same group-level reason. */
    static GroupOutcome refused(String group, List<PlannedPartition> parts, Reason reason,
                                PositionStatus status, Throwable cause) {
        Map<PositionKey, PartitionOutcome> outcomes = new HashMap<>();
        parts.forEach(p -> outcomes.put(p.key(), new PartitionOutcome(status, -1)));
        return new GroupOutcome(group, reason, false, cause.getClass().getSimpleName() + ": " + cause.getMessage(),
                outcomes);
    }

    /** Nothing concluded (the destination could not be reached, or answered with a transient error). */
    public static GroupOutcome retry(String group, Throwable cause) {
        return new GroupOutcome(group, null, true, cause.toString(), Map.of());
    }

    /**
     * The write was not sent: its lease ran out ({@link WriteLease}). Retried from a new plan if the task still owns
     * the group.
     */
    static GroupOutcome cancelled(String group) {
        return new GroupOutcome(group, null, true, "write lease expired before the offsets were sent", Map.of());
    }

    /**
     * @param written   true when this apply wrote the offset (false when the destination already held it)
     * @param keptBound the replay bound of the offset the destination kept instead of a plan below it (an exact
     *                  translation of this commit or an older one: {@link ExactFloor}); -1 when the plan decided
     */
    public record PartitionOutcome(PositionStatus status, long destinationOffset, boolean written, long keptBound) {

        public PartitionOutcome(PositionStatus status, long destinationOffset, boolean written) {
            this(status, destinationOffset, written, -1);
        }

        public PartitionOutcome(PositionStatus status, long destinationOffset) {
            this(status, destinationOffset, false);
        }

        /** The destination keeps its exact offset; the plan, below it, is not written. */
        static PartitionOutcome keptExact(long destinationOffset, long bound) {
            return new PartitionOutcome(PositionStatus.APPLIED, destinationOffset, false, bound);
        }
    }
}
