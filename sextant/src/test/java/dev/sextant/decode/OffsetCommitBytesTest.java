package dev.sextant.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sextant.decode.ConsumerOffsetsRecord.OffsetCommit;
import dev.sextant.decode.ConsumerOffsetsRecord.OffsetDeleted;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** What {@link OffsetCommitBytes} writes, the log's decoder reads back as written, for any commit. */
class OffsetCommitBytesTest {

    @Test
    void aCommitAndItsTombstoneReadBackAsWritten() throws Exception {
        Random random = new Random(50);
        for (int i = 0; i < 1_000; i++) {
            String group = "group-" + random.nextInt(100) + (i % 7 == 0 ? "" : "-ü");
            String topic = "topic." + random.nextInt(20);
            int partition = random.nextInt(64);
            long offset = random.nextLong(Long.MAX_VALUE);
            int epoch = random.nextInt(10) - 1;
            String metadata = i % 3 == 0 ? "" : "sextant/app=" + random.nextInt();
            long at = random.nextLong(4_000_000_000_000L);
            byte[] key = OffsetCommitBytes.key(group, topic, partition);

            assertEquals(new OffsetCommit(group, topic, partition, offset, epoch, metadata, at),
                    ConsumerOffsetsDecoder.decode(key, OffsetCommitBytes.value(offset, epoch, metadata, at)));
            assertEquals(new OffsetDeleted(group, topic, partition), ConsumerOffsetsDecoder.decode(key, null));
        }
    }

    @Test
    void noMetadataIsWrittenAsEmpty() throws Exception {
        assertEquals(new OffsetCommit("g", "t", 0, 5, -1, "", 7), ConsumerOffsetsDecoder.decode(
                OffsetCommitBytes.key("g", "t", 0), OffsetCommitBytes.value(5, -1, null, 7)));
    }
}
