package dev.sextant.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.sextant.domain.GroupKind;
import dev.sextant.domain.Reason;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The one chain every writer asks: the type first, then the members. */
class GroupGuardTest {

    private static DestinationGroup group(GroupKind type, boolean active) {
        return new DestinationGroup("g", type, type.label(), active, active ? "Stable" : "Empty");
    }

    @Test
    void aGroupTheDestinationDoesNotListStandsInNobodysWay() {
        assertEquals(GroupGuard.NONE, GroupGuard.judge(Optional.empty(), GroupKind.CONSUMER));
        assertNull(GroupGuard.NONE.reason());
    }

    @Test
    void anEmptyGroupOfTheSameTypeIsWritten() {
        assertEquals(GroupGuard.NONE, GroupGuard.judge(Optional.of(group(GroupKind.SHARE, false)), GroupKind.SHARE));
    }

    @Test
    void membersOnTheDestinationRefuse() {
        GroupGuard guard = GroupGuard.judge(Optional.of(group(GroupKind.CONSUMER, true)), GroupKind.CONSUMER);
        assertEquals(GroupGuard.GROUP_ACTIVE, guard);
        assertEquals(Reason.GROUP_ACTIVE, guard.reason());
    }

    @Test
    void anotherTypeRefusesBeforeItsMembersAreLookedAt() {
        assertEquals(GroupGuard.TYPE_CONFLICT,
                GroupGuard.judge(Optional.of(group(GroupKind.SHARE, true)), GroupKind.CONSUMER));
        assertEquals(GroupGuard.TYPE_CONFLICT,
                GroupGuard.judge(Optional.of(group(GroupKind.CONSUMER, false)), GroupKind.SHARE));
        assertEquals(Reason.TYPE_CONFLICT, GroupGuard.TYPE_CONFLICT.reason());
    }
}
