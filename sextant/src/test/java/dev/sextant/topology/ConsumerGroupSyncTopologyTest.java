package dev.sextant.topology;

import static dev.sextant.testing.CoordinatorRecords.classicGroup;
import static dev.sextant.testing.CoordinatorRecords.offsetCommit;
import static dev.sextant.testing.CoordinatorRecords.offsetDeleted;
import static dev.sextant.testing.CoordinatorRecords.shareGroup;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionStatus;
import dev.sextant.sync.Backoffs;
import dev.sextant.sync.UnansweredLimit;
import dev.sextant.testing.CoordinatorRecords;
import dev.sextant.translate.Precision;
import java.time.Duration;
import java.time.Instant;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;

/**
 * A consumer group's commits through the topology to the destination: the translated offset written with Sextant's
 * mark, many commits coalesced into one write per group (a backlog paced, planning held back while the destination has
 * many writes unanswered), an applied offset written again before the destination's retention deletes it, what is
 * filtered out or not a consumer group's commit, a group migrated between protocols, and source rewinds.
 */
class ConsumerGroupSyncTopologyTest extends GroupSyncFixture {

    @Test
    void appliesTheTranslatedOffsetWithSextantsMark() {
        start(false, true);
        destination.topic("source.orders", 3);
        sync("orders", 0, 100, 90);
        sync("orders", 0, 200, 190);

        commit("billing", "orders", 0, 200);
        commit("billing", "orders", 1, 0); // no sync for partition 1 yet
        flush();

        assertEquals(190L, destination.committed("billing", "source.orders", 0));
        assertTrue(destination.metadata("billing", "source.orders", 0).startsWith("sextant/" + APP));
        PartitionPosition p0 = position("billing", "orders", 0);
        assertEquals(PositionStatus.APPLIED, p0.status());
        assertEquals(Precision.EXACT, p0.precision());
        assertEquals(PositionStatus.UNTRANSLATABLE, position("billing", "orders", 1).status());
        assertTrue(deadLetters.isEmpty(), "untranslatable is not reported before the pending timeout");
    }

    /**
     * Commits made a while ago (a backlog: the instance was down, or the source wrote faster than it reads) are
     * written as each group's newest one, a group at most every few seconds, instead of one write per commit; once the
     * commits read are fresh again, the next one goes out at the next flush.
     */
    @Test
    void aBacklogOfCommitsGoesOutAsEachGroupsNewestCommitNotOneWriteEach() {
        start(true, true);
        destination.topic("source.orders", 1);
        long madeAt = clock.millis() - 60_000; // read a minute after they were made
        pipeCommit("billing", 0, 10, madeAt);
        flush();
        assertEquals(10L, destination.committed("billing", "source.orders", 0), "the first goes out at once");
        int writes = destination.alterCalls.get();

        for (long offset = 11; offset <= 30; offset++) { // more of the backlog, over most of the interval
            pipeCommit("billing", 0, offset, madeAt + offset);
            tick(Backoffs.BACKLOG_GROUP_INTERVAL_MS / 25);
        }
        assertEquals(writes, destination.alterCalls.get(), "nothing more within the interval");
        tick(Backoffs.BACKLOG_GROUP_INTERVAL_MS);
        flush();
        assertEquals(30L, destination.committed("billing", "source.orders", 0), "the newest, in one write");
        assertEquals(writes + 1, destination.alterCalls.get());

        commit("billing", "orders", 0, 31); // made now: the backlog is read
        flush();
        assertEquals(31L, destination.committed("billing", "source.orders", 0), "no longer paced");
    }

    /**
     * While the destination has many writes unanswered, no more groups are planned: the rest wait as pending groups,
     * where a newer commit joins its group's one write, instead of queueing behind those writes on what was read for
     * them.
     */
    @Test
    void planningHoldsBackWhileTheDestinationHasManyWritesUnanswered() {
        start(true, true);
        destination.topic("source.orders", 1);
        destination.holdWrites = true;
        int groups = UnansweredLimit.MIN + 10;
        for (int g = 0; g < groups; g++) {
            commit("g" + g, "orders", 0, 10);
        }
        flush();
        assertEquals(UnansweredLimit.MIN, destination.heldWrites(), "no more than the limit handed out");
        String last = "g" + (groups - 1);
        commit(last, "orders", 0, 11); // not planned yet: its newer commit joins its one write
        flush();
        assertEquals(UnansweredLimit.MIN, destination.heldWrites(), "nothing more while none is answered");

        destination.holdWrites = false;
        destination.releaseWrites();
        flush();
        for (int g = 0; g < groups - 1; g++) {
            assertEquals(10L, destination.committed("g" + g, "source.orders", 0), "g" + g);
        }
        assertEquals(11L, destination.committed(last, "source.orders", 0));
        assertEquals(groups, destination.alterCalls.get(), "one write per group");
    }

    private void pipeCommit(String group, int partition, long offset, long madeAt) {
        KeyValue<byte[], byte[]> kv = offsetCommit(group, "orders", partition, offset, madeAt);
        commits.pipeInput(kv.key, kv.value, Instant.ofEpochMilli(madeAt));
    }

    @Test
    void anAppliedOffsetIsWrittenAgainBeforeTheDestinationsRetentionDeletesIt() {
        start(false, true);
        destination.topic("source.orders", 1);
        sync("orders", 0, 100, 90);
        commit("billing", "orders", 0, 100);
        flush();
        assertEquals(90L, destination.committed("billing", "source.orders", 0));
        int writes = destination.alterCalls.get();

        tick(Duration.ofDays(1).toMillis()); // idle, well inside the 7-day default retention: left alone
        flush();
        assertEquals(writes, destination.alterCalls.get());

        tick(Duration.ofDays(3).toMillis()); // past half of it: written again, unchanged
        flush();
        assertEquals(writes + 1, destination.alterCalls.get(), "written again though the offset is there");
        assertEquals(90L, destination.committed("billing", "source.orders", 0));
        assertEquals(PositionStatus.APPLIED, position("billing", "orders", 0).status());
        assertEquals(1.0, registry.get("sextant.offsets.refreshed").counter().count());
    }

    @Test
    void coalescesManyCommitsIntoOneWritePerGroup() {
        start(false, true);
        destination.topic("source.orders", 1);
        sync("orders", 0, 0, 0);
        for (int offset = 1; offset <= 1000; offset++) {
            commit("billing", "orders", 0, offset);
        }
        flush();

        assertEquals(1, destination.alterCalls.get());
        assertEquals(1L, destination.committed("billing", "source.orders", 0), "bounded: sync at 0 -> 0 + 1");
        PartitionPosition p = position("billing", "orders", 0);
        assertEquals(1000, p.sourceOffset());
        assertEquals(Precision.BOUNDED, p.precision());
        assertEquals(999, p.bound());
    }

    @Test
    void filtersExcludedGroupsTopicsAndItsOwnCommits() {
        start(true, true);
        destination.topic("source.orders", 1);
        destination.topic("source.internal-stuff.internal", 1);
        commit("console-consumer-42", "orders", 0, 10);
        commit(APP, "orders", 0, 10);
        commit("billing", "internal-stuff.internal", 0, 10);
        commit("billing", "orders", 0, 10);
        flush();

        assertEquals(1, destination.alterCalls.get());
        assertNull(destination.committed("console-consumer-42", "source.orders", 0));
        assertNull(destination.committed(APP, "source.orders", 0));
        assertNull(destination.committed("billing", "source.internal-stuff.internal", 0));
        assertEquals(10L, destination.committed("billing", "source.orders", 0));
    }

    @Test
    void aGroupMigratedBetweenProtocolsOnlineKeepsItsPositions() {
        start(true, true);
        destination.topic("source.orders", 1);
        pipe(commits, CoordinatorRecords.classicGroup("billing", "consumer"));
        commit("billing", "orders", 0, 10);
        flush();
        assertEquals(10L, destination.committed("billing", "source.orders", 0));

        // classic -> consumer: the broker tombstones the classic record; the offsets survive (no offset tombstone)
        pipe(commits, CoordinatorRecords.classicGroupTombstone("billing"));
        pipe(commits, CoordinatorRecords.consumerGroup("billing"));
        assertEquals(10, position("billing", "orders", 0).sourceOffset(), "the position is kept");
        commit("billing", "orders", 0, 20);
        flush();
        assertEquals(20L, destination.committed("billing", "source.orders", 0));

        // and back: the consumer record tombstoned first, the classic one after
        pipe(commits, CoordinatorRecords.consumerGroupTombstone("billing"));
        assertEquals(20, position("billing", "orders", 0).sourceOffset());
        pipe(commits, CoordinatorRecords.classicGroup("billing", "consumer"));
        commit("billing", "orders", 0, 30);
        flush();
        assertEquals(30L, destination.committed("billing", "source.orders", 0));

        // a real deletion tombstones the offsets too: then the position goes
        pipe(commits, CoordinatorRecords.offsetDeleted("billing", "orders", 0));
        pipe(commits, CoordinatorRecords.classicGroupTombstone("billing"));
        assertEquals(null, position("billing", "orders", 0));
    }

    @Test
    void followsASourceRewindOnlyWhenConfigured() {
        start(true, true);
        destination.topic("source.orders", 1);
        commit("billing", "orders", 0, 100);
        flush();
        commit("billing", "orders", 0, 40); // kafka-consumer-groups --reset-offsets on the source
        flush();
        assertEquals(40L, destination.committed("billing", "source.orders", 0));
    }

    @Test
    void keepsTheHigherDestinationOffsetWhenRewindsAreNotFollowed() {
        start(true, false);
        destination.topic("source.orders", 1);
        commit("billing", "orders", 0, 100);
        flush();
        commit("billing", "orders", 0, 40);
        flush();
        assertEquals(100L, destination.committed("billing", "source.orders", 0));
        assertEquals(PositionStatus.REWIND_SKIPPED, position("billing", "orders", 0).status());
    }

    @Test
    void shareGroupsAndDeletedOffsetsAreNotSyncedAsConsumerGroups() {
        start(true, true);
        destination.topic("source.orders", 1);
        KeyValue<byte[], byte[]> share = shareGroup("shipping");
        commits.pipeInput(share.key, share.value);
        KeyValue<byte[], byte[]> classic = classicGroup("billing", "consumer");
        commits.pipeInput(classic.key, classic.value);
        commit("billing", "orders", 0, 10);
        KeyValue<byte[], byte[]> deleted = offsetDeleted("billing", "orders", 0);
        commits.pipeInput(deleted.key, deleted.value);
        flush();

        assertNull(position("billing", "orders", 0));
        assertEquals(0, destination.alterCalls.get());
    }
}
