package dev.sextant.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.config.OwnTopicNames;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.Reason;
import dev.sextant.state.CutoverRecord;
import dev.sextant.state.PositionStatus;
import io.micrometer.core.instrument.Counter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.TestInputTopic;
import org.junit.jupiter.api.Test;

/**
 * A group cut over to the destination ({@code sextant cutover}) is never moved from the source again: a later source
 * commit is a {@code CUT_OVER} dead letter and a refused position, never a write; a tombstone gives it back. Its
 * offsets there are kept alive as they stand until its consumers commit there.
 */
class CutoverTopologyTest extends GroupSyncFixture {

    @Test
    void aCommitOfACutOverGroupIsADeadLetterNeverAWriteUntilTheGroupIsGivenBack() {
        start(true, true);
        destination.topic("source.orders", 1);
        commit("billing", "orders", 0, 10);
        commit("shipping", "orders", 0, 5);
        flush();
        assertEquals(10L, destination.committed("billing", "source.orders", 0));
        TestInputTopic<byte[], byte[]> cutovers = cutovers();
        cutovers.pipeInput(CutoverRecord.key("billing"), new CutoverRecord("billing", "consumer", clock.millis(),
                30_000, "source-id", List.of(new CutoverRecord.Partition("orders", 0, 10, "source.orders", 10,
                "exact", 0L))).toBytes());
        deadLetters.readValuesToList();

        commit("billing", "orders", 0, 20);
        commit("shipping", "orders", 0, 15);
        flush();
        List<DeadLetterRecord> records = deadLetters.readValuesToList();
        assertEquals(1, records.size(), records.toString());
        assertEquals(Reason.CUT_OVER, records.get(0).reason());
        assertEquals(20L, records.get(0).partitions().get(0).sourceOffset());
        assertEquals(10L, records.get(0).partitions().get(0).destinationOffset(), "what the cutover gave it");
        Counter refused = registry.find("sextant.positions.refused").tag("reason", "CUT_OVER").counter();
        assertEquals(1.0, refused.count());
        assertEquals(1.0, registry.get("sextant.groups.cut.over").gauge().value());

        commit("billing", "orders", 0, 25);
        flush();
        assertEquals(2.0, refused.count(), "every zombie commit is counted");
        assertEquals(List.of(), deadLetters.readValuesToList(), "at most one dead letter per group per minute");
        tick(60_000); // past the offsets refresh: nothing rewrites the cut-over group either
        flush();
        assertEquals(10L, destination.committed("billing", "source.orders", 0), "a zombie commit is not written");
        assertEquals(15L, destination.committed("shipping", "source.orders", 0), "other groups sync on");
        assertEquals(10L, position("billing", "orders", 0).sourceOffset(), "the position stays as cut over");

        cutovers.pipeInput(CutoverRecord.key("billing"), (byte[]) null); // cutover --undo --apply
        commit("billing", "orders", 0, 30);
        flush();
        assertEquals(30L, destination.committed("billing", "source.orders", 0), "the sync moves it again");
        assertEquals(0.0, registry.get("sextant.groups.cut.over").gauge().value());
    }

    @Test
    void aCutOverGroupsOffsetsAreKeptAliveAsTheyStandUntilItsConsumersCommitThere() {
        destination.offsetsRetentionMs = 60_000; // the refresh follows it: every half retention
        start(true, true);
        destination.topic("source.orders", 1);
        commit("billing", "orders", 0, 10);
        flush();
        TestInputTopic<byte[], byte[]> cutovers = cutovers();
        cutovers.pipeInput(CutoverRecord.key("billing"), new CutoverRecord("billing", "consumer", clock.millis(),
                30_000, "source-id", List.of(new CutoverRecord.Partition("orders", 0, 10, "source.orders", 10,
                "exact", 0L))).toBytes());
        int written = destination.alterCalls.get();

        tick(60_000); // past the offsets refresh: written again as it stands, before the retention deletes it
        flush();
        assertTrue(destination.alterCalls.get() > written, "a cut-over group's offsets are refreshed too");
        assertEquals(10L, destination.committed("billing", "source.orders", 0));
        assertTrue(destination.metadata("billing", "source.orders", 0).startsWith("sextant/" + APP + " "));
        assertEquals(PositionStatus.APPLIED, position("billing", "orders", 0).status(),
                "a refresh leaves the state as it is");

        // its consumers start on the destination and commit there: theirs from now on, as the cutover meant
        destination.offsets.get("billing").put(new TopicPartition("source.orders", 0), new OffsetAndMetadata(12, ""));
        tick(60_000);
        flush();
        assertEquals(12L, destination.committed("billing", "source.orders", 0), "never written over");
        assertEquals(List.of(), deadLetters.readValuesToList(), "not a conflict: the cutover's aim");
        int afterConsumers = destination.alterCalls.get();
        tick(60_000);
        flush();
        assertEquals(afterConsumers, destination.alterCalls.get(), "no longer kept alive once its consumers own it");
    }

    @Test
    void aRecordOnTheCutoversTopicThatIsNotOneIsSkippedAndCounted() {
        start(true, true);
        destination.topic("source.orders", 1);
        TestInputTopic<byte[], byte[]> cutovers = cutovers();
        cutovers.pipeInput(CutoverRecord.key("billing"), "not json".getBytes(StandardCharsets.UTF_8));
        cutovers.pipeInput(CutoverRecord.key("billing"), new CutoverRecord("other", "consumer", 1, 0, null,
                List.of()).toBytes());
        commit("billing", "orders", 0, 10);
        flush();
        assertEquals(10L, destination.committed("billing", "source.orders", 0), "not cut over");
        assertEquals(2.0, registry.get("sextant.records.undecodable").counter().count());
        assertNull(registry.find("sextant.positions.refused").tag("reason", "CUT_OVER").counter());
    }

    private TestInputTopic<byte[], byte[]> cutovers() {
        return driver.createInputTopic(new OwnTopicNames(APP).cutovers(), Serdes.ByteArray().serializer(),
                Serdes.ByteArray().serializer());
    }
}
