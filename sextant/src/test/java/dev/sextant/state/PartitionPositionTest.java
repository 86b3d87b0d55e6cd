package dev.sextant.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PartitionPositionTest {

    @Test
    void theCommitsLogPositionSurvivesTheStoreAndANewCommit() {
        PartitionPosition pos = PartitionPosition.committed(120, 1_000, 4_711)
                .withStatus(PositionStatus.APPLIED, 2_000).settled(118, 120, PositionStatus.APPLIED, 2_000);
        PartitionPosition read = PartitionPosition.fromBytes(pos.toBytes());
        assertEquals(pos, read);
        assertEquals(4_711, read.commitLogOffset());
        assertEquals(4_800, read.withCommit(130, 1_100, 4_800).commitLogOffset());
    }

    @Test
    void aPositionStoredBeforeTheLogPositionWasAddedReadsWithItUnknown() {
        PartitionPosition pos = new PartitionPosition(120, 1_000, 118, 3, 118, 120, 2_000, -1,
                PositionStatus.APPLIED, 4_711);
        byte[] old = Arrays.copyOf(pos.toBytes(), 1 + 8 * 8 + 1); // format 1 as the previous release wrote it
        PartitionPosition read = PartitionPosition.fromBytes(old);
        assertEquals(-1, read.commitLogOffset());
        assertEquals(120, read.sourceOffset());
        assertEquals(PositionStatus.APPLIED, read.status());
        // and the previous release, which reads the fields it knows, finds them where they were
        ByteBuffer buf = ByteBuffer.wrap(pos.toBytes());
        assertEquals(1, buf.get());
        assertEquals(120, buf.getLong());
    }

    @Test
    void theDestinationsCommitTimeMovesOnlyWithAWrite() {
        PartitionPosition written = PartitionPosition.committed(120, 1_000)
                .settled(118, 120, PositionStatus.APPLIED, true, 2_000);
        assertEquals(2_000, written.appliedAt(), "a write: the destination took it now");
        PartitionPosition found = written.withCommit(120, 5_000).settled(118, 120, PositionStatus.APPLIED, false,
                9_000);
        assertEquals(2_000, found.appliedAt(), "the same offset found there: still the time it was written at");
        PartitionPosition unknown = written.withCommit(130, 5_000).settled(128, 130, PositionStatus.APPLIED, false,
                9_000);
        assertEquals(0, unknown.appliedAt(), "another offset found there, written by no write of this position: "
                + "counted as written long ago, so the refresh writes it at its next scan");
        assertEquals(9_000, written.settled(125, 120, PositionStatus.REWIND_SKIPPED, false, 9_000).appliedAt(),
                "a rewind not followed keeps the time of its answer, as before");
    }
}
