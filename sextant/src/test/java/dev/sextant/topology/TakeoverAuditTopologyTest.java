package dev.sextant.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.apply.OffsetOwnership;
import dev.sextant.state.PositionStatus;
import dev.sextant.sync.TakeoverAudit;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * Writes that race with another instance's: the takeover audit writes over a late write of an older commit (and
 * leaves foreign, newer or same-offset ones alone, and ends after its window), and no write replaces an offset whose
 * mark carries a newer source commit.
 */
class TakeoverAuditTopologyTest extends GroupSyncFixture {

    @Test
    void aLateWriteOfAnOlderCommitAfterATakeoverIsOverwrittenWithTheNewerOne() {
        start(true, true);
        destination.topic("source.orders", 1);
        commit("billing", "orders", 0, 300);
        long olderCommit = clock.millis();
        tick(1_000);
        commit("billing", "orders", 0, 500);
        flush();
        assertEquals(500L, destination.committed("billing", "source.orders", 0));

        // the instance that owned the task before: its write of the older commit reaches the broker now
        destination.offsets.get("billing").put(new TopicPartition("source.orders", 0),
                new OffsetAndMetadata(300,
                        new OffsetOwnership(APP).metadataFor(olderCommit, 300)));
        tick(TakeoverAudit.INTERVAL_MS);
        flush();

        assertEquals(500L, destination.committed("billing", "source.orders", 0), "the newer commit written again");
        assertTrue(destination.metadata("billing", "source.orders", 0).contains(" src=500"));
        assertEquals(PositionStatus.APPLIED, position("billing", "orders", 0).status());
        assertEquals(1.0, registry.get("sextant.stale.writes.repaired").counter().count());
        assertTrue(deadLetters.isEmpty());
    }

    @Test
    void aNewerCommitThatTranslatesToTheSameOffsetIsNoLateWriteForTheAudit() {
        start(false, true);
        destination.topic("source.orders", 1);
        sync("orders", 0, 100, 90);
        sync("orders", 0, 200, 190);
        commit("billing", "orders", 0, 150);
        flush();
        assertEquals(91L, destination.committed("billing", "source.orders", 0));
        tick(1_000);
        commit("billing", "orders", 0, 160); // a lagging consumer: the same translation, 91, under a newer commit
        flush();
        int writes = destination.alterCalls.get();

        tick(TakeoverAudit.INTERVAL_MS);
        flush();
        tick(TakeoverAudit.INTERVAL_MS);
        flush();
        assertEquals(writes, destination.alterCalls.get(), "nothing rewritten");
        assertTrue(registry.find("sextant.stale.writes.repaired").counters().isEmpty()
                || registry.get("sextant.stale.writes.repaired").counter().count() == 0);
    }

    @Test
    void theTakeoverAuditLeavesForeignAndNewerOffsetsAloneAndEndsAfterItsWindow() {
        start(true, true);
        destination.topic("source.orders", 2);
        commit("billing", "orders", 0, 300);
        commit("billing", "orders", 1, 300);
        flush();
        var p0 = new TopicPartition("source.orders", 0);
        var p1 = new TopicPartition("source.orders", 1);
        // a newer Sextant commit (this instance has not read it yet) and a consumer's own commit
        destination.offsets.get("billing").put(p0, new OffsetAndMetadata(400,
                new OffsetOwnership(APP).metadataFor(clock.millis() + 10_000, 400)));
        destination.offsets.get("billing").put(p1, new OffsetAndMetadata(350, ""));
        int writes = destination.alterCalls.get();
        tick(TakeoverAudit.INTERVAL_MS);
        flush();
        assertEquals(writes, destination.alterCalls.get(), "nothing to repair");
        assertEquals(400L, destination.committed("billing", "source.orders", 0));
        assertEquals(350L, destination.committed("billing", "source.orders", 1));

        // past the window, an older mark is left for the next commit to replace
        tick(TakeoverAudit.WINDOW_MS);
        destination.offsets.get("billing").put(p0, new OffsetAndMetadata(100,
                new OffsetOwnership(APP).metadataFor(0, 100)));
        int reads = destination.listOffsetCalls.get();
        tick(TakeoverAudit.INTERVAL_MS);
        flush();
        assertEquals(reads, destination.listOffsetCalls.get(), "no audit reads after the window");
        assertEquals(100L, destination.committed("billing", "source.orders", 0));
    }

    @Test
    void aWriteNeverReplacesAnOffsetThatCarriesANewerSourceCommit() {
        start(true, true);
        destination.topic("source.orders", 1);
        // what the instance that owns the group now wrote, or what was written before this commit was replayed
        long newerCommit = clock.millis() + 60_000;
        destination.offsets.put("billing", new ConcurrentHashMap<>(Map.of(
                new TopicPartition("source.orders", 0),
                new OffsetAndMetadata(500,
                        new OffsetOwnership(APP).metadataFor(newerCommit, 500)))));
        commit("billing", "orders", 0, 300); // an older commit, rewound or not
        flush();

        assertEquals(500L, destination.committed("billing", "source.orders", 0), "never moved backwards");
        assertEquals(PositionStatus.SUPERSEDED, position("billing", "orders", 0).status());
        assertTrue(deadLetters.isEmpty(), "not a conflict: the destination is ahead");

        tick(61_000);
        commit("billing", "orders", 0, 700); // newer than the mark
        flush();
        assertEquals(700L, destination.committed("billing", "source.orders", 0));
        assertTrue(destination.metadata("billing", "source.orders", 0).contains(" src=700"));
    }
}
