package dev.sextant.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sextant.apply.DestinationView;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.decode.UndecodableRecordException;
import dev.sextant.domain.GroupKind;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.state.GroupRecord;
import dev.sextant.state.GroupStore;
import dev.sextant.state.InMemoryStores;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import dev.sextant.state.PositionStore;
import dev.sextant.state.SharePosition;
import dev.sextant.testing.CoordinatorRecords;
import dev.sextant.testing.InMemoryDestination;
import dev.sextant.testing.MutableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;

/** One task's sync through its entry points: records in, flushes out, across a restart on the same stores. */
class TaskSyncTest {

    private static final String GROUP = "billing";
    private static final String MIRROR = "source.orders";

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T10:00:00Z"));
    private final SyncSettings settings = TaskFakes.settings(clock);
    private final InMemoryDestination destination = new InMemoryDestination();
    private final DestinationView view = new DestinationView(destination, clock);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final SextantMetrics metrics = new SextantMetrics(registry);
    private final SyncRuntime runtime = TaskFakes.runtime(view, destination, Map.of(), metrics);
    private final SyncGauges gauges = SyncGauges.registered(metrics, clock);
    /** The task's changelogged stores: they outlive a task, as they outlive a restart. */
    private final PositionStore positions = PositionStore.of(InMemoryStores.bytesStore("positions"));
    private final GroupStore groups = GroupStore.of(InMemoryStores.stringStore("groups"));
    private final List<DeadLetterRecord> deadLetters = new ArrayList<>();
    private final PositionKey orders0 = new PositionKey(GROUP, "orders", 0);

    TaskSyncTest() {
        destination.topic(MIRROR, 1);
        view.partition(MIRROR, 0); // looked up by the view from its next refresh
        view.refreshNow();
    }

    /** A task of partition 0, opened on the stores. */
    private TaskSync opened() {
        TaskSync sync = new TaskSync(settings, runtime, 0, new TaskSync.Stores(positions, groups, null), gauges,
                deadLetters::add);
        sync.open();
        return sync;
    }

    private static void read(TaskSync sync, KeyValue<byte[], byte[]> record, long logOffset)
            throws UndecodableRecordException {
        sync.consumerOffsets(record.key, record.value, logOffset, 1_000);
    }

    private static void commit(TaskSync sync, long offset, long timestamp, long logOffset)
            throws UndecodableRecordException {
        read(sync, CoordinatorRecords.offsetCommit(GROUP, "orders", 0, offset, timestamp), logOffset);
    }

    private Long written() {
        return destination.committed(GROUP, MIRROR, 0);
    }

    @Test
    void aCommitIsWrittenAtTheNextFlushAndSettledAtTheOneAfter() throws UndecodableRecordException {
        TaskSync sync = opened();

        commit(sync, 42, 1_000, 5);
        assertNull(written(), "nothing is written between flushes");
        sync.flush();

        assertEquals(42L, written(), "identity translation");
        assertEquals(PositionStatus.PENDING, positions.get(orders0).status(), "until its answer is taken in");
        sync.flush();
        assertEquals(PositionStatus.APPLIED, positions.get(orders0).status());
    }

    @Test
    void commitsBetweenTwoFlushesAreOneWrite() throws UndecodableRecordException {
        TaskSync sync = opened();

        commit(sync, 42, 1_000, 5);
        commit(sync, 50, 1_100, 6);
        sync.flush();

        assertEquals(50L, written());
        assertEquals(1, destination.alterCalls.get());
    }

    @Test
    void whatWasNotWrittenBeforeARestartIsWrittenAfterIt() throws UndecodableRecordException {
        TaskSync before = opened();
        commit(before, 42, 1_000, 5);
        before.close();

        opened().flush();

        assertEquals(42L, written());
    }

    @Test
    void aCommitReadAgainAfterARestartDoesNotMoveTheDestinationBack() throws UndecodableRecordException {
        TaskSync before = opened();
        commit(before, 42, 1_000, 5);
        commit(before, 50, 1_100, 6);
        before.flush();
        before.flush();
        before.close();

        TaskSync after = opened();
        commit(after, 42, 1_000, 5); // the input's committed offset was behind the changelog
        after.flush();

        assertEquals(50, positions.get(orders0).sourceOffset(), "not moved back");
        assertEquals(PositionStatus.APPLIED, positions.get(orders0).status());
        assertEquals(50L, written());
        assertEquals(1, destination.alterCalls.get(), "nothing to write again");
    }

    @Test
    void aShareGroupsStartOffsetIsStoredUnderItsTopicsName() throws UndecodableRecordException {
        Uuid ordersId = Uuid.randomUuid();
        TaskSync sync = opened();
        read(sync, CoordinatorRecords.shareGroup("workers"), 1);
        read(sync, CoordinatorRecords.shareGroupTopics("workers", ordersId, "orders", 1), 2);

        sync.sharePosition("workers".getBytes(StandardCharsets.UTF_8),
                new SharePosition(ordersId, 0, 77, 1_000).toBytes(), 9);

        assertEquals(77, positions.get(new PositionKey("workers", "orders", 0)).sourceOffset());
        assertEquals(GroupKind.SHARE, groups.kindOf("workers"));
    }

    @Test
    void aShareStartOffsetThatCannotBeDecodedIsRefusedAndTakesNothingIn() {
        TaskSync sync = opened();

        assertThrows(UndecodableRecordException.class,
                () -> sync.sharePosition("workers".getBytes(StandardCharsets.UTF_8), new byte[3], 9));
        assertThrows(UndecodableRecordException.class, () -> sync.sharePosition(null, new byte[36], 9));
        assertNull(groups.get("workers"));
    }

    @Test
    void theGroupsOfAnOpenTaskAreCountedUntilItIsClosed() throws UndecodableRecordException {
        groups.put("kept", GroupRecord.of(GroupKind.CONSUMER)); // from before a restart

        TaskSync sync = opened();
        assertEquals(1, trackedGroups());
        commit(sync, 42, 1_000, 5);
        assertEquals(2, trackedGroups());

        sync.close();
        assertEquals(0, trackedGroups());
    }

    private double trackedGroups() {
        return registry.get("sextant.groups.tracked").gauge().value();
    }
}
