package dev.sextant.apply;

import dev.sextant.domain.GroupKind;
import dev.sextant.domain.Reason;
import java.util.Optional;

/**
 * The guards every writer of a group's offsets asks before it plans a write (the sync's {@code WritePlanner},
 * {@code failover}, {@code failover --from-source}, {@code adopt}, {@code rebaseline --source}) and the cutover's last
 * check of the destination, in one order: the type, then the members. Each writer words the refusal for its own
 * report; what refuses is decided here, so a writer added later asks the same chain and cannot leave a guard out.
 *
 * <p>Invariant: a group is never written over a group of another type on the destination, nor while it has members
 * there (its consumers own its offsets then). The guards of the partitions (ownership of the offsets there, a newer
 * commit, the exact floor, a rewind) follow in the appliers, whoever planned the write.
 */
public enum GroupGuard {

    /** Nothing on the destination stands in the way of the group's write. */
    NONE(null),
    /** The destination has the group as another type. */
    TYPE_CONFLICT(Reason.TYPE_CONFLICT),
    /** The group has members on the destination. */
    GROUP_ACTIVE(Reason.GROUP_ACTIVE);

    private final Reason reason;

    GroupGuard(Reason reason) {
        this.reason = reason;
    }

    /** The dead-letter reason of the refusal; null for {@link #NONE}. */
    public Reason reason() {
        return reason;
    }

    /**
     * @param there   the group as the destination lists it; empty when it does not
     * @param written the type of the group the writer would write
     */
    public static GroupGuard judge(Optional<DestinationGroup> there, GroupKind written) {
        if (there.isEmpty()) {
            return NONE;
        }
        if (there.get().type() != written) {
            return TYPE_CONFLICT;
        }
        return there.get().active() ? GROUP_ACTIVE : NONE;
    }
}
