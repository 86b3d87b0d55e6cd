package dev.sextant.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sextant.state.PositionKey;
import java.util.List;
import org.junit.jupiter.api.Test;

class PendingGroupsTest {

    private static PositionKey key(String group) {
        return new PositionKey(group, "orders", 0);
    }

    @Test
    void groupsWithANewCommitGoAheadOfGroupsThatAreOnlyReplanned() {
        PendingGroups pending = new PendingGroups();
        pending.mark(key("closer")); // a closer translation of an applied commit
        pending.mark(key("refresh"));
        pending.mark(key("new"), 1_000);
        pending.mark(key("newer"), 2_000);

        assertEquals(List.of("new", "newer", "closer", "refresh"), pending.due(0, 10, 10, g -> true));
    }

    @Test
    void replannedGroupsKeepAQuarterOfTheRoomWhileNewCommitsWait() {
        PendingGroups pending = new PendingGroups();
        for (int g = 0; g < 8; g++) {
            pending.mark(key("replan-" + g));
            pending.mark(key("new-" + g), 1_000);
        }

        assertEquals(List.of("new-0", "new-1", "new-2", "new-3", "new-4", "new-5", "replan-0", "replan-1"),
                pending.due(0, 8, 8, g -> true));
        assertEquals(List.of("new-0", "new-1", "new-2"), pending.due(0, 3, 3, g -> true),
                "too little room to share: new commits only");
    }

    @Test
    void aGroupIsReplannedOnceItsCommitIsSettled() {
        PendingGroups pending = new PendingGroups();
        pending.mark(key("a"), 1_000);
        pending.mark(key("b"));
        assertEquals(List.of("a", "b"), pending.due(0, 10, 10, g -> true));

        pending.settled(key("a"), -1); // written; the partition stays marked for another look (say, a proof came)
        pending.mark(key("b"), 2_000);
        assertEquals(List.of("b", "a"), pending.due(0, 10, 10, g -> true));
    }

    @Test
    void groupsInFlightBackingOffOrNotEligibleAreNotDue() {
        PendingGroups pending = new PendingGroups();
        pending.mark(key("flying"), 1_000);
        pending.mark(key("waiting"), 1_000);
        pending.mark(key("paced"), 1_000);
        pending.mark(key("due"));
        pending.startFlight("flying", List.of());
        pending.backoff("waiting", 500);

        assertEquals(List.of("due"), pending.due(0, 10, 10, g -> !g.equals("paced")));
        assertEquals(List.of("waiting", "due"), pending.due(500, 10, 10, g -> !g.equals("paced")));
    }

    /**
     * Re-plans have a room of their own within the flush's: the instance keeps part of its unanswered writes for new
     * commits, so one task's re-plans cannot take the room other tasks' new commits need.
     */
    @Test
    void replannedGroupsStayWithinTheirOwnRoom() {
        PendingGroups pending = new PendingGroups();
        for (int g = 0; g < 8; g++) {
            pending.mark(key("replan-" + g));
        }
        pending.mark(key("new"), 1_000);

        assertEquals(List.of("new", "replan-0", "replan-1"), pending.due(0, 8, 2, g -> true));
        assertEquals(List.of("new"), pending.due(0, 8, 0, g -> true), "no room for re-plans: new commits only");
    }
}
