package dev.sextant.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.decode.OffsetCommitBytes;
import dev.sextant.state.PositionStatus;
import dev.sextant.translate.Precision;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.TestInputTopic;
import org.junit.jupiter.api.Test;

/**
 * {@code source.offsets.read=admin}: the commits the Admin API poll writes to {@code <application.id>-source-commits}
 * go through the same topology as the log's ({@link ConsumerGroupSyncTopologyTest}): translated, marked, guarded and
 * queried the same; a deleted offset deletes the position; {@code __consumer_offsets} is not read at all.
 */
class AdminCommitsTopologyTest extends GroupSyncFixture {

    /** A commit as {@link dev.sextant.source.AdminCommitPoller} writes it: seen by the poll now. */
    private void polled(String group, String topic, int partition, long offset) {
        commits.pipeInput(OffsetCommitBytes.key(group, topic, partition),
                OffsetCommitBytes.value(offset, 3, "", clock.millis()), clock.instant());
    }

    @Test
    void aPolledCommitIsTranslatedAndWrittenWithSextantsMark() {
        adminCommits = true;
        start(false, true);
        destination.topic("source.orders", 2);
        sync("orders", 0, 100, 90);
        sync("orders", 0, 200, 190);

        polled("billing", "orders", 0, 200);
        polled("billing", "orders", 1, 0); // no sync for partition 1 yet
        flush();

        assertEquals(190L, destination.committed("billing", "source.orders", 0));
        String mark = destination.metadata("billing", "source.orders", 0);
        assertTrue(mark.startsWith("sextant/" + APP), mark);
        assertFalse(mark.contains(" o="), "no place in __consumer_offsets: ordered by time, " + mark);
        assertEquals(Precision.EXACT, position("billing", "orders", 0).precision());
        assertEquals(PositionStatus.UNTRANSLATABLE, position("billing", "orders", 1).status());

        polled("billing", "orders", 0, 150); // a rewind, seen by a later poll: through the sync (100, 90), bounded
        flush();
        assertEquals(91L, destination.committed("billing", "source.orders", 0), "follows the source back");
    }

    @Test
    void aDeletedOffsetDeletesThePosition() {
        adminCommits = true;
        start(true, true);
        destination.topic("source.orders", 1);
        polled("billing", "orders", 0, 10);
        flush();
        assertEquals(10L, destination.committed("billing", "source.orders", 0));

        commits.pipeInput(OffsetCommitBytes.key("billing", "orders", 0), null, clock.instant());
        flush();
        assertNull(position("billing", "orders", 0));
    }

    @Test
    void consumerOffsetsIsNotAnInput() {
        adminCommits = true;
        start(true, true);
        TestInputTopic<byte[], byte[]> log = driver.createInputTopic("__consumer_offsets",
                Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer());
        assertThrows(IllegalArgumentException.class, () -> log.pipeInput(OffsetCommitBytes.key("g", "orders", 0),
                OffsetCommitBytes.value(1, 0, "", clock.millis())));
    }
}
