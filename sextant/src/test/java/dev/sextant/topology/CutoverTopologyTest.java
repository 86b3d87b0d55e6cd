package dev.sextant.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.sextant.config.OwnTopicNames;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.Reason;
import dev.sextant.state.CutoverRecord;
import io.micrometer.core.instrument.Counter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.TestInputTopic;
import org.junit.jupiter.api.Test;

/**
 * A group cut over to the destination ({@code sextant cutover}) is never moved from the source again: a later source
 * commit is a {@code CUT_OVER} dead letter and a refused position, never a write; a tombstone gives it back.
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
