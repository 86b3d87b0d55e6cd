package dev.sextant.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.Reason;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.TestInputTopic;
import org.junit.jupiter.api.Test;

/**
 * Records the topology cannot decode, on {@code __consumer_offsets} or its own share-positions topic: counted and
 * dead-lettered (one per kind and interval), and the stream goes on.
 */
class UndecodableRecordTopologyTest extends GroupSyncFixture {

    @Test
    void undecodableRecordsAreCountedAndDeadLetteredWithoutStoppingTheStream() {
        start(true, true);
        destination.topic("source.orders", 1);
        commits.pipeInput(new byte[] {0, 99, 1, 2}, new byte[] {0, 0});
        commit("billing", "orders", 0, 10);
        flush();

        DeadLetterRecord record = deadLetters.readValue();
        assertEquals(Reason.UNDECODABLE, record.reason());
        assertTrue(record.detail().contains("__consumer_offsets"), record.detail());
        assertEquals(10L, destination.committed("billing", "source.orders", 0));
        assertEquals(1.0, registry.get("sextant.records.undecodable").counter().count());
    }

    @Test
    void recordsANewerBrokerWritesAreOneDeadLetterPerIntervalWithACount() {
        start(true, true);
        for (int i = 0; i < 50; i++) {
            commits.pipeInput(new byte[] {0, 99, 1, 2}, new byte[] {0, 0}); // key type 99: unknown to 4.4
        }
        commits.pipeInput(new byte[] {0, 98, 1, 2}, new byte[] {0, 0}); // another kind: its own dead letter
        assertEquals(2, deadLetters.readValuesToList().size(), "one per kind, not one per record");

        tick(UndecodableRecords.INTERVAL_MS);
        commits.pipeInput(new byte[] {0, 99, 1, 2}, new byte[] {0, 0});
        DeadLetterRecord next = deadLetters.readValue();
        assertTrue(next.detail().contains("and 49 more like it"), next.detail());
        assertTrue(deadLetters.isEmpty());
        assertEquals(52.0, registry.get("sextant.records.undecodable").counter().count());
    }

    @Test
    void poisonOnTheSharePositionsTopicIsDeadLetteredAndTheStreamGoesOn() {
        start(true, true);
        destination.topic("source.orders", 1);
        TestInputTopic<byte[], byte[]> sharePositions = driver.createInputTopic(APP + "-share-positions",
                Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer());
        sharePositions.pipeInput("shipping".getBytes(StandardCharsets.UTF_8), new byte[] {1, 2, 3});
        sharePositions.pipeInput(null, new byte[36]);
        sharePositions.pipeInput("shipping".getBytes(StandardCharsets.UTF_8), (byte[]) null);
        commit("billing", "orders", 0, 10);
        flush();

        DeadLetterRecord record = deadLetters.readValue();
        assertEquals(Reason.UNDECODABLE, record.reason());
        assertTrue(record.detail().contains("share position of 3 bytes"), record.detail());
        assertEquals(3.0, registry.get("sextant.records.undecodable").tag("topic", APP + "-share-positions")
                .counter().count());
        assertEquals(10L, destination.committed("billing", "source.orders", 0), "a normal group still syncs");
    }
}
