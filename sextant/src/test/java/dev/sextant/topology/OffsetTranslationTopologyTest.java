package dev.sextant.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.Reason;
import dev.sextant.history.IntervalProofs;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionStatus;
import dev.sextant.testing.FakeRecordRanges;
import dev.sextant.testkit.Await;
import dev.sextant.translate.Precision;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * How a commit's source offset becomes a destination offset in the topology: untranslatable until a sync covers it
 * (and reported at the pending timeout), the mirror's log start for an empty partition or, under
 * {@code sync.untranslatable=earliest}, below the oldest sync; bounded by MirrorMaker 2's rule and improved by a newer
 * sync, exact once the records prove the interval between two syncs; never past the mirror's log end.
 */
class OffsetTranslationTopologyTest extends GroupSyncFixture {

    @Test
    void anOffsetOnAnEmptyPartitionIsWrittenAsTheMirrorsLogStart() {
        start(false, true);
        destination.topic("source.orders", 2);
        sync("orders", 0, 100, 90); // partition 1 holds no record, so no sync
        sourceStarts.put(new TopicPartition("orders", 1), 0L);
        destination.ends.put(new TopicPartition("source.orders", 1), 0L);

        commit("billing", "orders", 1, 0);
        flush();
        tick(1_000); // the park of an untranslatable offset; the log starts were fetched meanwhile
        flush();
        assertEquals(0L, destination.committed("billing", "source.orders", 1), "not left to auto.offset.reset");
        PartitionPosition pos = position("billing", "orders", 1);
        assertEquals(PositionStatus.APPLIED, pos.status());
        assertEquals(Precision.EXACT, pos.precision(), "the mirror partition holds nothing to replay");
    }

    @Test
    void anOffsetBelowTheOldestSyncStaysUntranslatableByDefault() {
        belowTheOldestSync();
        assertNull(destination.committed("billing", "source.orders", 0), "refuse: nothing written");
        assertEquals(PositionStatus.UNTRANSLATABLE, position("billing", "orders", 0).status());
    }

    @Test
    void anOffsetBelowTheOldestSyncIsWrittenAsTheMirrorsLogStartUnderEarliest() {
        untranslatableEarliest = true;
        belowTheOldestSync();
        assertEquals(0L, destination.committed("billing", "source.orders", 0), "replays, skips nothing");
        assertEquals(91L, position("billing", "orders", 0).bound(), "at most what the mirror holds");
    }

    @Test
    void anUntranslatableOffsetIsPlannedAtTheFirstFlushAfterASyncCoversIt() {
        start(false, true);
        destination.topic("source.orders", 1);
        commit("billing", "orders", 0, 500); // the partition's first sync is not there yet
        flush();
        assertEquals(PositionStatus.UNTRANSLATABLE, position("billing", "orders", 0).status());

        sync("orders", 0, 450, 440);
        tick(INTERVAL); // well inside the park of the untranslatable offset: the covering sync alone brings it back
        assertEquals(441L, destination.committed("billing", "source.orders", 0), "bounded: the sync plus one");
        flush(); // the answer settles
        assertEquals(PositionStatus.APPLIED, position("billing", "orders", 0).status());
    }

    private void belowTheOldestSync() {
        start(false, true);
        destination.topic("source.orders", 1);
        sync("orders", 0, 100, 90);
        sourceStarts.put(new TopicPartition("orders", 0), 0L);
        commit("billing", "orders", 0, 50);
        flush();
        tick(1_000); // the park of an untranslatable offset
        flush();
    }

    @Test
    void aTranslationBeyondTheMirrorsLogEndIsWrittenAtTheEndThenFollowsItUp() {
        start(false, true);
        destination.topic("source.orders", 1);
        TopicPartition mirror = new TopicPartition("source.orders", 0);
        sync("orders", 0, 100, 90);
        sync("orders", 0, 200, 190);
        flush();
        destination.ends.put(mirror, 150L); // the destination's log was truncated (an unclean election there)

        commit("billing", "orders", 0, 200);
        flush();
        assertEquals(150L, destination.committed("billing", "source.orders", 0),
                "never beyond the end: producers append there after a promotion, and a consumer beyond would skip");
        assertTrue(destination.metadata("billing", "source.orders", 0).contains(" b=40 "),
                "the records from 150 to 190 are replays once mirrored: the bound says so");
        assertEquals(1.0, registry.get("sextant.positions.beyond.log.end").counter().count());
        PartitionPosition clamped = position("billing", "orders", 0);
        assertEquals(PositionStatus.APPLIED, clamped.status());
        assertTrue(clamped.clamped(), clamped.toString());

        destination.ends.put(mirror, 170L);
        flush();
        assertEquals(170L, destination.committed("billing", "source.orders", 0), "follows the mirror's end");
        destination.ends.put(mirror, 400L);
        flush();
        assertEquals(190L, destination.committed("billing", "source.orders", 0), "then the translation itself");
        assertTrue(!position("billing", "orders", 0).clamped());
        int writes = destination.alterCalls.get();
        flush();
        assertEquals(writes, destination.alterCalls.get(), "nothing more to write");
    }

    @Test
    void aCommitReadBeforeItsSyncIsAppliedOnceTheSyncArrives() {
        start(false, true);
        destination.topic("source.orders", 2);
        commit("billing", "orders", 0, 150);
        commit("billing", "orders", 1, 150);
        flush();
        assertEquals(PositionStatus.UNTRANSLATABLE, position("billing", "orders", 0).status());

        sync("orders", 0, 100, 90);
        sync("orders", 0, 200, 190);
        sync("orders", 1, 150, 140);
        tick(1_000); // an untranslatable partition is retried a second later, not at every flush
        flush();

        assertEquals(91L, destination.committed("billing", "source.orders", 0), "below the newest sync: from RocksDB");
        assertEquals(140L, destination.committed("billing", "source.orders", 1), "at the newest sync");
        assertEquals(PositionStatus.APPLIED, position("billing", "orders", 0).status());
    }

    @Test
    void anOffsetBelowTheOldestSyncIsReportedOnceAtThePendingTimeoutWhileTheRestSyncs() {
        start(false, true);
        destination.topic("source.orders", 2);
        sync("orders", 0, 100, 90);
        sync("orders", 1, 0, 0);
        commit("billing", "orders", 0, 5); // below the oldest sync: MirrorMaker 2 never said where it went
        commit("billing", "orders", 1, 0);
        flush();
        assertEquals(0L, destination.committed("billing", "source.orders", 1));
        assertTrue(deadLetters.isEmpty());

        for (long waited = 0; waited < PENDING_TIMEOUT + 1_000; waited += 500) {
            tick(500);
            commit("billing", "orders", 1, 1 + waited / 500); // the group keeps committing meanwhile
        }
        DeadLetterRecord record = deadLetters.readValue();
        assertEquals(Reason.UNTRANSLATABLE, record.reason());
        assertEquals(List.of(0),
                record.partitions().stream().map(DeadLetterRecord.PartitionDetail::partition).toList());
        assertTrue(deadLetters.isEmpty(), "one record per transition");
        flush();
        assertEquals(PositionStatus.APPLIED, position("billing", "orders", 1).status());
        assertEquals(1L + (PENDING_TIMEOUT + 500) / 500, position("billing", "orders", 1).appliedSourceOffset(),
                "the partition that translates followed every commit");
    }

    @Test
    void aNewerSyncImprovesAnAlreadyAppliedBoundedPosition() {
        start(false, true);
        destination.topic("source.orders", 1);
        sync("orders", 0, 0, 0);
        commit("billing", "orders", 0, 500);
        flush();
        assertEquals(1L, destination.committed("billing", "source.orders", 0));

        sync("orders", 0, 499, 499); // MirrorMaker 2 flushed its delayed sync
        tick(1_000);
        flush();

        assertEquals(500L, destination.committed("billing", "source.orders", 0));
        assertEquals(Precision.EXACT, position("billing", "orders", 0).precision());
    }

    /**
     * Starts the topology with interval proofs read from {@code mirror} (the source: a record at every offset), and
     * two syncs of orders-0 with equal deltas: (0, 100) and (1000, 1100).
     */
    private IntervalProofs startProving(FakeRecordRanges mirror) {
        IntervalProofs proofs = new IntervalProofs(new FakeRecordRanges(), mirror, t -> "source." + t, 10_000,
                metrics);
        evidence = proofs;
        start(false, true);
        destination.topic("source.orders", 1);
        sync("orders", 0, 0, 100);
        sync("orders", 0, 1000, 1100);
        return proofs;
    }

    @Test
    void aCommitBetweenSyncsWithEqualDeltasIsWrittenExactlyOnceTheRecordsProveTheInterval() {
        FakeRecordRanges mirror = new FakeRecordRanges();
        mirror.bases.put(new TopicPartition("source.orders", 0), 100L); // source offset n sits at n + 100
        try (IntervalProofs proofs = startProving(mirror)) {
            mirror.hold = new CountDownLatch(1);
            commit("billing", "orders", 0, 500);
            flush();
            // the interval is not proven yet: MirrorMaker 2's rule meanwhile
            assertEquals(101L, destination.committed("billing", "source.orders", 0));

            mirror.hold.countDown();
            Await.until(Duration.ofSeconds(10), "the interval is proven", () -> proofs.proven() == 1);
            flush();
            assertEquals(600L, destination.committed("billing", "source.orders", 0));
            assertEquals(Precision.EXACT, position("billing", "orders", 0).precision());

            // above the newest sync: bounded until the next sync closes the interval and the records prove it
            mirror.hold = new CountDownLatch(1);
            commit("billing", "orders", 0, 1500);
            flush();
            assertEquals(1101L, destination.committed("billing", "source.orders", 0));
            sync("orders", 0, 2000, 2100);
            tick(1_000);
            flush();
            assertEquals(1101L, destination.committed("billing", "source.orders", 0));
            mirror.hold.countDown();
            Await.until(Duration.ofSeconds(10), "the new interval is proven", () -> proofs.proven() == 2);
            flush();
            assertEquals(1600L, destination.committed("billing", "source.orders", 0));
            assertEquals(Precision.EXACT, position("billing", "orders", 0).precision());
        }
    }

    @Test
    void aCommitBetweenSyncsWhoseRecordsDifferKeepsTheBoundedRule() {
        FakeRecordRanges mirror = new FakeRecordRanges();
        mirror.bases.put(new TopicPartition("source.orders", 0), 101L); // shifted inside the interval
        try (IntervalProofs proofs = startProving(mirror)) {
            commit("billing", "orders", 0, 500);
            flush();
            Await.until(Duration.ofSeconds(10), "the interval is refuted",
                    () -> registry.counter("sextant.offset.sync.intervals", "verdict", "refuted").count() == 1.0);
            flush();
            assertEquals(101L, destination.committed("billing", "source.orders", 0));
            assertEquals(Precision.BOUNDED, position("billing", "orders", 0).precision());
        }
    }
}
