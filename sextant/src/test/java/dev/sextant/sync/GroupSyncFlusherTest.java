package dev.sextant.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.apply.GroupApplier;
import dev.sextant.apply.GroupOutcome;
import dev.sextant.apply.PlannedPartition;
import dev.sextant.apply.WriteLease;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Which groups a task's flush takes, what it hands the appliers, and what it does when a flush fails. */
class GroupSyncFlusherTest {

    private static final String GROUP = "billing";

    private final InMemoryTask task = new InMemoryTask();
    private final RecordingApplier applier = new RecordingApplier();
    private final GroupSyncFlusher flusher = task.flusher(applier);
    private final PositionKey orders0 = new PositionKey(GROUP, "orders", 0);

    /** Takes every plan and answers none; {@link #failure}, when set, is thrown instead. */
    private static final class RecordingApplier implements GroupApplier {

        final List<String> sent = new ArrayList<>();
        final List<WriteLease> leases = new ArrayList<>();
        int unanswered;
        RuntimeException failure;

        @Override
        public void apply(Map<String, List<PlannedPartition>> plans, WriteLease lease, Consumer<GroupOutcome> done) {
            if (failure != null) {
                throw failure;
            }
            sent.addAll(plans.keySet());
            leases.add(lease);
        }

        @Override
        public int unanswered() {
            return unanswered;
        }
    }

    /** Each group has a new source commit. */
    private void fresh(String... groups) {
        for (String group : groups) {
            task.commit(new PositionKey(group, "orders", 0), 100);
        }
    }

    /** Each group is only planned again (a closer sync, a refresh): no commit of its own waits. */
    private void replanned(String... groups) {
        for (String group : groups) {
            task.pending.mark(new PositionKey(group, "orders", 0));
        }
    }

    private List<String> due(boolean backlog) {
        return flusher.dueGroups(task.now(), backlog);
    }

    @Test
    void dueGroupsTakeNoMoreThanTheUnansweredLimitLeaves() {
        fresh("a", "b", "c");

        applier.unanswered = UnansweredLimit.MIN - 2;
        assertEquals(List.of("a", "b"), due(false));

        applier.unanswered = UnansweredLimit.MIN + 5;
        assertEquals(List.of(), due(false), "more unanswered than the limit: none");
    }

    @Test
    void replansStopAtHalfTheUnansweredLimitButOneGoesAtEveryFlush() {
        fresh("new");
        replanned("r0", "r1", "r2");

        assertEquals(List.of("new", "r0", "r1", "r2"), due(false));

        applier.unanswered = UnansweredLimit.MIN / 2 + 10;
        assertEquals(List.of("new", "r0"), due(false), "the other half stays for new commits, but none starves");
    }

    @Test
    void groupsInFlightTakeTheirRoom() {
        for (int g = 0; g < GroupSyncFlusher.MAX_GROUPS_IN_FLIGHT - 1; g++) {
            task.pending.startFlight("flying-" + g, List.of());
        }
        fresh("a", "b");

        assertEquals(List.of("a"), due(false));
    }

    @Test
    void whileABacklogIsReadAGroupIsPlannedAtMostEveryBacklogInterval() {
        task.mirrored("orders", 1);
        fresh(GROUP);
        flusher.flush(true);
        assertEquals(List.of(GROUP), applier.sent);
        task.pending.endFlight(GROUP); // its write was answered
        task.commit(orders0, 200);

        task.advance(Backoffs.BACKLOG_GROUP_INTERVAL_MS - 1);
        assertEquals(List.of(), due(true));
        task.advance(1);
        assertEquals(List.of(GROUP), due(true));
    }

    @Test
    void onceTheBacklogIsReadAGroupIsDueAtEveryFlush() {
        task.mirrored("orders", 1);
        fresh(GROUP);
        flusher.flush(true);
        task.pending.endFlight(GROUP);
        task.commit(orders0, 200);

        task.advance(1);
        assertEquals(List.of(GROUP), due(false));
        assertEquals(List.of(GROUP), due(true), "a later backlog starts afresh");
    }

    @Test
    void nothingIsPlannedUntilTheDestinationsClusterIsReadAgainAfterAnOutage() {
        task.mirrored("orders", 1);
        fresh(GROUP);
        task.destination.unreachable = true;
        task.view.refreshNow(); // fails: what the view knew stays, the cluster behind the address is not known

        flusher.flush(false);
        assertEquals(List.of(), applier.sent, "a cluster rebuilt at the same address is only told apart by its id");

        task.destination.unreachable = false;
        task.view.refreshNow();
        flusher.flush(false);
        assertEquals(List.of(GROUP), applier.sent);
        assertTrue(task.pending.inFlight(GROUP));
    }

    @Test
    void nothingIsPlannedForADestinationThatIsNotTheClusterWrittenToSoFar() {
        task.mirrored("orders", 1);
        fresh(GROUP);
        task.view.pin("the-cluster-before");

        flusher.flush(false);

        assertEquals(List.of(), applier.sent, "until an operator's rebaseline");
        assertTrue(task.pending.isPending(GROUP));
    }

    @Test
    void aFlushThatFailsAfterPlanningReleasesItsGroupsForARetryAfterABackoff() {
        task.mirrored("orders", 1);
        fresh(GROUP);
        applier.failure = new IllegalStateException("the Admin client was closed");

        assertThrows(IllegalStateException.class, () -> flusher.flush(false));
        applier.failure = null;
        flusher.flush(false); // takes in the transient failure it was answered with

        assertFalse(task.pending.inFlight(GROUP), "not left in flight for as long as the task lives");
        assertTrue(task.pending.isPending(GROUP));
        assertEquals(List.of(), applier.sent, "backing off");
        assertEquals(1, task.counter("sextant.apply.retries"));

        task.advance(Backoffs.RETRY_MS);
        flusher.flush(false);
        assertEquals(List.of(GROUP), applier.sent);
    }

    @Test
    void aWriteMayBeSentForTheWriteLeaseAfterItWasPlanned() {
        task.mirrored("orders", 1);
        fresh(GROUP);
        flusher.flush(false);
        WriteLease lease = applier.leases.get(0);

        task.advance(task.settings.writeLeaseMs());
        assertTrue(lease.valid());
        task.advance(1);
        assertFalse(lease.valid(), "another instance may own the group by now");
    }

    @Test
    void nothingPlannedIsSentOnceTheTaskIsClosed() {
        task.mirrored("orders", 1);
        fresh(GROUP);
        flusher.flush(false);
        WriteLease lease = applier.leases.get(0);

        flusher.close();

        assertFalse(lease.valid());
    }

    @Test
    void recoveryMarksPendingWhatTheStoreHasNotWrittenYet() {
        PositionKey applied = new PositionKey("audit", "orders", 0);
        task.positions.put(orders0, PartitionPosition.committed(200, 1_000, 7));
        task.positions.put(applied, PartitionPosition.committed(100, 500, 3)
                .settled(100, 100, PositionStatus.APPLIED, 600));

        flusher.recover();

        assertEquals(List.of(orders0), task.pending.keys(GROUP));
        assertEquals(1_000, task.pending.pendingSince(orders0), "its latest commit stands in for the first");
        assertFalse(task.pending.isPending("audit"));
    }
}
