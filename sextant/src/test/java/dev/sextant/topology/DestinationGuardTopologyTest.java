package dev.sextant.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.apply.DestinationFeatures;
import dev.sextant.apply.DestinationGroup;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.GroupKind;
import dev.sextant.domain.Reason;
import dev.sextant.state.PositionStatus;
import dev.sextant.testing.CoordinatorRecords;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * What the destination's state holds back, each reported once as a dead letter while other groups go on: an active
 * group, a group of the other type, offsets someone else committed, a topic not mirrored yet; and an unreachable
 * destination, which delays the writes but drops none.
 */
class DestinationGuardTopologyTest extends GroupSyncFixture {

    @Test
    void neverWritesToAnActiveGroupAndReportsItOnce() {
        start(true, true);
        destination.topic("source.orders", 1);
        destination.activeConsumerGroup("billing");
        commit("billing", "orders", 0, 10);
        flush();
        commit("billing", "orders", 0, 20);
        tick(2_000);
        flush();

        assertEquals(0, destination.alterCalls.get());
        List<DeadLetterRecord> records = deadLetters.readValuesToList();
        assertEquals(1, records.size(), "one record per (group, reason) transition");
        assertEquals(Reason.GROUP_ACTIVE, records.get(0).reason());
        assertEquals("billing", records.get(0).group());
        assertEquals("consumer", records.get(0).groupType());
        assertEquals(PositionStatus.GROUP_ACTIVE, position("billing", "orders", 0).status());

        destination.emptyConsumerGroup("billing"); // the consumer left
        tick(2_000);
        flush();
        assertEquals(20L, destination.committed("billing", "source.orders", 0));
        assertEquals(PositionStatus.APPLIED, position("billing", "orders", 0).status());
    }

    @Test
    void aShareGroupOfTheSameNameIsATypeConflictAndOtherGroupsStillSync() {
        start(true, true);
        destination.topic("source.orders", 1);
        destination.shareGroup("billing");
        commit("billing", "orders", 0, 10);
        commit("shipping", "orders", 0, 33);
        flush();

        assertNull(destination.committed("billing", "source.orders", 0));
        assertEquals(33L, destination.committed("shipping", "source.orders", 0));
        DeadLetterRecord record = deadLetters.readValue();
        assertEquals(Reason.TYPE_CONFLICT, record.reason());
        assertEquals("billing", record.group());
        assertEquals(10L, record.partitions().get(0).sourceOffset());
        assertTrue(deadLetters.isEmpty());
    }

    @Test
    void aKafkaStreamsGroupIsWrittenOnAnEmptyStreamsGroupAndNeverOnALiveOne() {
        start(true, true);
        destination.topic("source.orders", 1);
        destination.groups.put("wordcount", new DestinationGroup("wordcount", GroupKind.CONSUMER, "streams", true,
                "STABLE"));
        pipe(commits, CoordinatorRecords.streamsGroup("wordcount"));
        commit("wordcount", "orders", 0, 10);
        flush();

        assertNull(destination.committed("wordcount", "source.orders", 0), "a live streams group is never written");
        DeadLetterRecord record = deadLetters.readValue();
        assertEquals(Reason.GROUP_ACTIVE, record.reason());
        assertEquals("streams", record.groupType());

        destination.groups.put("wordcount", new DestinationGroup("wordcount", GroupKind.CONSUMER, "streams", false,
                "EMPTY")); // the application stopped there
        tick(2_000);
        flush();
        assertEquals(10L, destination.committed("wordcount", "source.orders", 0));
        assertEquals(PositionStatus.APPLIED, position("wordcount", "orders", 0).status());
    }

    @Test
    void aKafkaStreamsGroupIsNotWrittenOnADestinationThatCannotTakeItAndOtherGroupsStillSync() {
        destination.features = new DestinationFeatures(1, 29); // Kafka 4.2: 4.2.0 loses converted offsets
        start(true, true);
        destination.topic("source.orders", 1);
        pipe(commits, CoordinatorRecords.streamsGroup("wordcount"));
        commit("wordcount", "orders", 0, 10);
        commit("billing", "orders", 0, 33);
        flush();

        assertNull(destination.committed("wordcount", "source.orders", 0));
        assertEquals(33L, destination.committed("billing", "source.orders", 0), "a consumer group is written");
        assertEquals(PositionStatus.DESTINATION_UNSUPPORTED, position("wordcount", "orders", 0).status());
        DeadLetterRecord record = deadLetters.readValue();
        assertEquals(Reason.DESTINATION_UNSUPPORTED, record.reason());
        assertEquals("streams", record.groupType());
        assertTrue(record.detail().contains("KAFKA-20254"), record.detail());
        assertTrue(deadLetters.isEmpty());
    }

    @Test
    void aKafkaStreamsGroupWaitsSilentlyUntilTheDestinationsFeaturesAreRead() {
        destination.features = DestinationFeatures.UNKNOWN;
        start(true, true);
        destination.topic("source.orders", 1);
        pipe(commits, CoordinatorRecords.streamsGroup("wordcount"));
        commit("wordcount", "orders", 0, 10);
        flush();
        tick(PENDING_TIMEOUT);
        flush();

        assertNull(destination.committed("wordcount", "source.orders", 0));
        assertEquals(PositionStatus.PENDING, position("wordcount", "orders", 0).status());
        assertTrue(deadLetters.isEmpty(), "not knowing yet is no refusal");
    }

    @Test
    void offsetsCommittedBySomeoneElseAreNeverOverwritten() {
        start(true, true);
        destination.topic("source.orders", 1);
        destination.offsets.put("billing", new ConcurrentHashMap<>(Map.of(
                new TopicPartition("source.orders", 0),
                new OffsetAndMetadata(5, ""))));
        commit("billing", "orders", 0, 10);
        flush();

        assertEquals(5L, destination.committed("billing", "source.orders", 0));
        assertEquals(Reason.DESTINATION_DIVERGED, deadLetters.readValue().reason());
    }

    @Test
    void waitsForTheMirrorTopicThenReportsItOnceAndKeepsRetrying() {
        start(true, true);
        commit("billing", "orders", 0, 10);
        flush();
        assertEquals(PositionStatus.TOPIC_NOT_MIRRORED, position("billing", "orders", 0).status());
        assertTrue(deadLetters.isEmpty());

        tick(PENDING_TIMEOUT);
        flush();
        DeadLetterRecord record = deadLetters.readValue();
        assertEquals(Reason.TOPIC_NOT_MIRRORED, record.reason());
        assertTrue(deadLetters.isEmpty());

        destination.topic("source.orders", 1); // MirrorMaker 2 created it
        flush();
        flush();
        assertEquals(10L, destination.committed("billing", "source.orders", 0));
    }

    @Test
    void anUnreachableDestinationDelaysButDropsNothing() {
        start(true, true);
        destination.topic("source.orders", 1);
        view.refreshNow();
        destination.unreachable = true;
        commit("billing", "orders", 0, 10);
        flush();
        tick(3_000);
        flush();
        assertNull(destination.committed("billing", "source.orders", 0));
        assertEquals(PositionStatus.PENDING, position("billing", "orders", 0).status());

        destination.unreachable = false;
        tick(2_000);
        flush();
        assertEquals(10L, destination.committed("billing", "source.orders", 0));
    }

    @Test
    void theOldestUnappliedCommitAgesWhileTheDestinationIsDownEvenAsCommitsKeepComing() {
        start(true, true);
        destination.topic("source.orders", 1);
        commit("billing", "orders", 0, 10);
        flush();
        assertEquals(10L, destination.committed("billing", "source.orders", 0));
        assertEquals(1.0, registry.get("sextant.destination.up").gauge().value());

        destination.unreachable = true;
        for (int second = 1; second <= 20; second++) {
            commit("billing", "orders", 0, 10 + second); // the group keeps committing: its latest commit stays fresh
            tick(1_000);
        }
        double age = registry.get("sextant.sync.oldest.pending.age").gauge().value();
        assertTrue(age >= 18, "the first unapplied commit is ~20 s old: " + age);
        assertEquals(0.0, registry.get("sextant.destination.up").gauge().value());

        destination.unreachable = false;
        // retried after a growing, jittered pause of at most Backoffs.MAX_RETRY_MS
        for (int second = 0;
             second <= 40 && !Long.valueOf(30).equals(destination.committed("billing", "source.orders", 0));
             second++) {
            tick(1_000);
        }
        assertEquals(30L, destination.committed("billing", "source.orders", 0));
        tick(1_000);
        assertEquals(0.0, registry.get("sextant.sync.oldest.pending.age").gauge().value());
    }

    @Test
    void aWrittenCommitLeavesTheOldestPendingAgeWithinAFewFlushesNotASecond() {
        start(true, true);
        destination.topic("source.orders", 1);
        commit("billing", "orders", 0, 10);
        tick(INTERVAL); // the flush that writes it: its walk found the commit unwritten
        tick(INTERVAL); // the flush that takes the answer in
        assertEquals(10L, destination.committed("billing", "source.orders", 0));
        tick(INTERVAL);
        tick(INTERVAL);
        assertEquals(0.0, registry.get("sextant.sync.oldest.pending.age").gauge().value(),
                "once written, the commit is not counted on for the rest of the second");
    }
}
