package dev.sextant.history;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sextant.source.RecordRange;
import dev.sextant.translate.IntervalEvidence.Verdict;
import dev.sextant.translate.OffsetSyncPoint;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

class IntervalCheckTest {

    private static final OffsetSyncPoint LOWER = new OffsetSyncPoint("t", 0, 10, 110);
    private static final OffsetSyncPoint UPPER = new OffsetSyncPoint("t", 0, 14, 114);

    private static ConsumerRecord<byte[], byte[]> record(long offset, String value, long timestamp,
                                                         TimestampType type, String header) {
        RecordHeaders headers = new RecordHeaders();
        if (header != null) {
            headers.add("h", header.getBytes(StandardCharsets.UTF_8));
        }
        return new ConsumerRecord<>("t", 0, offset, timestamp, type, 0, 0, null,
                value.getBytes(StandardCharsets.UTF_8), headers, Optional.empty());
    }

    private static List<ConsumerRecord<byte[], byte[]>> log(long base, String... values) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            if (values[i] != null) {
                out.add(record(base + i, values[i], 1000 + i, TimestampType.CREATE_TIME, null));
            }
        }
        return out;
    }

    private static Verdict compare(List<ConsumerRecord<byte[], byte[]>> up, List<ConsumerRecord<byte[], byte[]>> down) {
        return IntervalCheck.compare(LOWER, UPPER, new RecordRange(up, 15), new RecordRange(down, 115));
    }

    @Test
    void theSameRecordsAtTheSameDistancesProveTheInterval() {
        assertEquals(Verdict.PROVEN, compare(log(10, "a", "b", "c", "d", "e"), log(110, "a", "b", "c", "d", "e")));
    }

    @Test
    void aGapOnBothSidesAtTheSameDistanceIsNoShift() {
        assertEquals(Verdict.PROVEN, compare(log(10, "a", null, "c", "d", "e"), log(110, "a", null, "c", "d", "e")));
    }

    @Test
    void aShiftInsideRefutesIt() {
        // source 11 is a marker; the mirror wrote "d" twice: equal lengths, shifted between
        assertEquals(Verdict.REFUTED, compare(log(10, "a", null, "c", "d", "e"), log(110, "a", "c", "d", "d", "e")));
    }

    @Test
    void aDifferentValueRefutesIt() {
        assertEquals(Verdict.REFUTED, compare(log(10, "a", "b", "c", "d", "e"), log(110, "a", "b", "x", "d", "e")));
    }

    @Test
    void aRecordMissingOnOneSideRefutesIt() {
        assertEquals(Verdict.REFUTED, compare(log(10, "a", "b", "c", "d", "e"), log(110, "a", "b", "c", "d")));
    }

    @Test
    void aReadCutShortProvesNothing() {
        assertEquals(Verdict.UNKNOWN, IntervalCheck.compare(LOWER, UPPER,
                new RecordRange(log(10, "a", "b"), 12), new RecordRange(log(110, "a", "b"), 112)));
    }

    @Test
    void timestampsAndHeadersCountUnlessTheBrokerStampedItsOwnTime() {
        ConsumerRecord<byte[], byte[]> created = record(12, "c", 5, TimestampType.CREATE_TIME, "x");
        assertEquals(true, IntervalCheck.same(created, record(112, "c", 5, TimestampType.CREATE_TIME, "x")));
        assertEquals(false, IntervalCheck.same(created, record(112, "c", 6, TimestampType.CREATE_TIME, "x")));
        assertEquals(false, IntervalCheck.same(created, record(112, "c", 5, TimestampType.CREATE_TIME, "y")));
        assertEquals(false, IntervalCheck.same(created, record(112, "c", 5, TimestampType.CREATE_TIME, null)));
        assertEquals(true, IntervalCheck.same(created, record(112, "c", 99, TimestampType.LOG_APPEND_TIME, "x")));
    }
}
