package dev.sextant.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.Reason;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.state.PositionStatus;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/**
 * The offset-sync history translations read, inside the topology: what enters it (not syncs that do not describe the
 * logs, not a sync read again), what is pruned below the source's floor, what a downstream going back contradicts, and
 * when it is reset: a replaced source log, or a source topic recreated (told by its topic id) with the writes through
 * the old incarnation's syncs reported.
 */
class OffsetSyncHistoryTopologyTest extends GroupSyncFixture {

    @Test
    void afterASourceLogIsReplacedNoCommitTranslatesThroughTheOldLogsSyncs() {
        start(false, true);
        destination.topic("source.orders", 1);
        sync("orders", 0, 500, 490);
        recreateSourceTopic("orders", 0, 11);
        sync("orders", 0, 10, 600); // upstream went back, downstream on, the source log is short: a new log

        commit("billing", "orders", 0, 700);
        flush();

        assertEquals(601L, destination.committed("billing", "source.orders", 0));
    }

    @Test
    void prunesHistoryBelowTheFloorButKeepsTheSyncThatTranslatesIt() {
        start(false, true);
        destination.topic("source.orders", 1);
        for (long u = 0; u <= 1000; u += 100) {
            sync("orders", 0, u, u + 5);
        }
        floorAnswer.put(new TopicPartition("orders", 0), 450L);
        tick(PRUNE_INTERVAL);
        tick(1_000);
        tick(1_000);

        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(OffsetSyncStore.NAME);
        OffsetSyncStore history = OffsetSyncStore.reader(store);
        assertEquals(400, history.oldest("orders", 0).orElseThrow().upstreamOffset());
        assertEquals(1000, history.newest("orders", 0).orElseThrow().upstreamOffset());
        assertEquals(4.0, registry.get("sextant.history.pruned").counter().count());

        commit("billing", "orders", 0, 450); // the floor itself still translates
        flush();
        assertEquals(406L, destination.committed("billing", "source.orders", 0));
    }

    @Test
    void aSyncReadAgainAfterARestartKeepsTheHistoryButANewLogResetsIt() {
        start(false, true);
        sync("orders", 0, 100, 1000);
        sync("orders", 0, 200, 1100);
        sync("orders", 0, 300, 1200);
        sync("orders", 0, 200, 1100); // read again: the writer's input offset was not committed before a crash
        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(OffsetSyncStore.NAME);
        OffsetSyncStore history = OffsetSyncStore.reader(store);
        assertEquals(100, history.oldest("orders", 0).orElseThrow().upstreamOffset(), "history intact");

        sync("orders", 0, 50, 1300); // upstream back, downstream on, the source log still reaches 300: MM2 restarted
        assertEquals(100, history.oldest("orders", 0).orElseThrow().upstreamOffset(), "one record's say-so: kept");
        assertEquals(300, history.newest("orders", 0).orElseThrow().upstreamOffset(), "the first copies' syncs stay");
        assertTrue(deadLetters.isEmpty(), "copied again is normal, not poison");
        assertEquals(1.0, registry.get("sextant.offset.syncs.remirrored").counter().count());

        recreateSourceTopic("orders", 0, 6);
        sync("orders", 0, 5, 1300); // the source topic was recreated: its log is now shorter than the history
        assertEquals(5, history.oldest("orders", 0).orElseThrow().upstreamOffset(), "old log forgotten");
        assertEquals(5, history.newest("orders", 0).orElseThrow().upstreamOffset());
    }

    @Test
    void aSourceTopicRecreatedWithALongerLogIsToldByItsTopicIdAndTheOldSyncsNoLongerTranslate() {
        ordersWithSyncsUpTo300AndItsIdRecorded();
        commit("billing", "orders", 0, 250);
        flush();
        assertEquals(201L, destination.committed("billing", "source.orders", 0));

        // deleted and created again; MirrorMaker 2 goes on from its old position: nothing in the syncs or the log
        // ends tells the new incarnation from the old one
        sourceIdsByName.put("orders", Uuid.randomUuid());
        sourceEnds.put(new TopicPartition("orders", 0), 2_000L);
        commit("early", "orders", 0, 150); // on the new incarnation, read before the check
        flush();
        assertEquals(101L, destination.committed("early", "source.orders", 0), "through the old syncs, for now");
        sync("orders", 0, 400, 400); // read since the last check: may be the new incarnation's, kept

        tick(5_000);
        flush();

        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(OffsetSyncStore.NAME);
        OffsetSyncStore history = OffsetSyncStore.reader(store);
        assertEquals(400, history.oldest("orders", 0).orElseThrow().upstreamOffset(), "the old incarnation's gone");
        assertEquals(1.0, registry.get("sextant.offset.sync.history.resets").counter().count());
        assertEquals(PositionStatus.UNTRANSLATABLE, position("early", "orders", 0).status(),
                "applied through syncs that are gone: reported, not clean");
        assertEquals(101L, destination.committed("early", "source.orders", 0), "the destination keeps what it has");
        commit("late", "orders", 0, 450);
        flush();
        assertEquals(401L, destination.committed("late", "source.orders", 0), "through the new incarnation's syncs");
    }

    /**
     * A source topic recreated and mirrored again from its start by a MirrorMaker 2 task that noticed the deletion:
     * the new incarnation's first syncs go back upstream and on downstream, the shape of records copied again, so
     * they are skipped; they ask for the topic's id at the next tick, and the new id keeps them as the new history.
     * Before, they were lost with the skip (MirrorMaker 2's topic keeps only a partition's newest sync), the id was
     * asked only at the 5 s check, and a commit on the new incarnation in between was written through the old syncs.
     */
    @Test
    void aSourceTopicMirroredAgainFromItsStartKeepsTheNewIncarnationsSyncsThatLookedCopiedAgain() {
        ordersWithSyncsUpTo300AndItsIdRecorded();
        flush();

        sourceIdsByName.put("orders", Uuid.randomUuid());
        sourceEnds.put(new TopicPartition("orders", 0), 2_000L);
        sync("orders", 0, 0, 301);
        sync("orders", 0, 100, 401);
        sync("orders", 0, 200, 501);
        assertEquals(3.0, registry.get("sextant.offset.syncs.remirrored").counter().count(), "skipped as copied again");
        tick(1_000);

        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(OffsetSyncStore.NAME);
        OffsetSyncStore history = OffsetSyncStore.reader(store);
        assertEquals(1.0, registry.get("sextant.offset.sync.history.resets").counter().count(),
                "the new id seen at the next tick");
        assertEquals(301, history.oldest("orders", 0).orElseThrow().downstreamOffset(),
                "the new incarnation's first sync kept");
        assertEquals(200, history.newest("orders", 0).orElseThrow().upstreamOffset(), "the old incarnation's gone");
        commit("new", "orders", 0, 150);
        flush();
        assertEquals(402L, destination.committed("new", "source.orders", 0), "among the new incarnation's records");
    }

    /**
     * A write translated through the old incarnation's syncs and still unanswered when the recreation is found: once
     * the destination answers, the position is planned again rather than settling as applied (seen in CI: a commit
     * on the new incarnation below the old syncs stayed {@code APPLIED}).
     */
    @Test
    void aWriteInFlightWhenTheHistoryIsForgottenIsPlannedAgainOnceAnswered() {
        ordersWithSyncsUpTo300AndItsIdRecorded();
        flush();

        sourceIdsByName.put("orders", Uuid.randomUuid());
        sourceEnds.put(new TopicPartition("orders", 0), 2_000L);
        destination.holdWrites = true;
        commit("early", "orders", 0, 150); // on the new incarnation, planned through the old syncs
        flush();
        assertEquals(1, destination.heldWrites(), "the write is in flight");
        sync("orders", 0, 400, 400);
        tick(5_000); // the check sees the new id: the history is forgotten while the write is unanswered
        flush();

        destination.holdWrites = false;
        destination.releaseWrites();
        flush();
        flush();
        assertEquals(101L, destination.committed("early", "source.orders", 0), "written before the check answered");
        assertEquals(PositionStatus.UNTRANSLATABLE, position("early", "orders", 0).status(),
                "translated through syncs that are gone: reported, not clean");
    }

    @Test
    void theIdATopicsHistoryBelongsToIsTheOneSeenWhenItsFirstSyncWasCheckedNotAtTheFirstPeriodicCheck() {
        start(false, true);
        destination.topic("source.orders", 1);
        sourceIdsByName.put("orders", Uuid.randomUuid());
        sync("orders", 0, 100, 100);
        sync("orders", 0, 200, 200);
        // recreated before any periodic check: that check must not take the new id for the one the history began with
        sourceIdsByName.put("orders", Uuid.randomUuid());
        tick(5_000);
        flush();

        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(OffsetSyncStore.NAME);
        assertTrue(OffsetSyncStore.reader(store).newest("orders", 0).isEmpty(), "the old incarnation's syncs gone");
        assertEquals(1.0, registry.get("sextant.offset.sync.history.resets").counter().count());
    }

    @Test
    void aSyncThatMovesTheDownstreamBackForgetsTheSyncsItContradicts() {
        start(false, true);
        destination.topic("source.orders", 1);
        sync("orders", 0, 100, 1000);
        sync("orders", 0, 200, 1100);
        sync("orders", 0, 300, 1200);
        sync("orders", 0, 400, 1150); // the mirror was truncated: upstream on, downstream back below 1200
        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(OffsetSyncStore.NAME);
        OffsetSyncStore history = OffsetSyncStore.reader(store);
        assertTrue(history.latestAtOrBelow("orders", 0, 350).orElseThrow().downstreamOffset() < 1150,
                "a commit below the new sync translates below its downstream offset");
        assertEquals(200, history.latestAtOrBelow("orders", 0, 399).orElseThrow().upstreamOffset(),
                "300 -> 1200 contradicted and forgotten");
        assertEquals(400, history.newest("orders", 0).orElseThrow().upstreamOffset());
        assertEquals(1.0, registry.get("sextant.offset.syncs.contradicted").counter().count());

        commit("billing", "orders", 0, 350);
        flush();
        assertEquals(1101L, destination.committed("billing", "source.orders", 0), "200 -> 1100, +1: not past 1150");
        assertTrue(deadLetters.isEmpty());
    }

    @Test
    void syncsThatDoNotDescribeTheLogsNeverEnterTheHistory() {
        start(false, true);
        destination.topic("source.orders", 1);
        sync("orders", 0, 100, 100);
        rawSync("orders", 0, Long.MAX_VALUE - 5, 200);   // would freeze the history: later syncs look like re-reads
        rawSync("orders", 0, 300, Long.MAX_VALUE);        // would overflow downstream + 1
        rawSync("orders", 0, -7, 5);
        rawSync("gone", 0, 10, 10);                       // a topic the source does not have
        missingSourceTopics.add("gone");
        sync("orders", 0, 400, 400);                      // a genuine sync after the poison still counts

        commit("billing", "orders", 0, 450);
        flush();

        assertEquals(401L, destination.committed("billing", "source.orders", 0), "translated with the 400 sync");
        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(OffsetSyncStore.NAME);
        assertEquals(400, OffsetSyncStore.reader(store).newest("orders", 0).orElseThrow().upstreamOffset());
        assertEquals(4.0, registry.get("sextant.offset.syncs.rejected").counter().count());
        List<DeadLetterRecord> refused = deadLetters.readValuesToList();
        assertEquals(2, refused.size(), "one per source partition per minute: orders-0 and gone-0");
        assertTrue(refused.stream().allMatch(r -> r.reason() == Reason.INVALID_OFFSET_SYNC), refused.toString());
    }

    private void ordersWithSyncsUpTo300AndItsIdRecorded() {
        start(false, true);
        destination.topic("source.orders", 1);
        sourceIdsByName.put("orders", Uuid.randomUuid());
        sync("orders", 0, 100, 100);
        sync("orders", 0, 200, 200);
        sync("orders", 0, 300, 300);
        tick(5_000);
    }

    private void recreateSourceTopic(String topic, int partition, long newEnd) {
        sourceEnds.put(new TopicPartition(topic, partition), newEnd);
    }
}
