package dev.sextant.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.source.RecordRange;
import dev.sextant.source.RecordRanges.Stretch;
import dev.sextant.translate.OffsetSyncPoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class IntervalBatchTest {

    private static SyncInterval interval(int partition, long lower, long upper, long shift) {
        return new SyncInterval(new OffsetSyncPoint("orders", partition, lower, lower + shift),
                new OffsetSyncPoint("orders", partition, upper, upper + shift));
    }

    @Test
    void intervalsOfAPartitionShareOneStretchOnEachCluster() {
        IntervalBatch plan = new IntervalBatch(1_000);
        SyncInterval a = interval(0, 100, 150, 900);
        SyncInterval b = interval(0, 150, 220, 900);
        SyncInterval c = interval(1, 10, 40, 0);
        assertEquals(IntervalBatch.Offer.TAKEN, plan.offer(a));
        assertEquals(IntervalBatch.Offer.TAKEN, plan.offer(b));
        assertEquals(IntervalBatch.Offer.TAKEN, plan.offer(c));

        assertEquals(List.of(a, b, c), plan.taken());
        assertEquals(Map.of(new TopicPartition("orders", 0), new Stretch(100, 221, 121),
                new TopicPartition("orders", 1), new Stretch(10, 41, 31)), IntervalBatch.upstream(plan.taken()));
        assertEquals(Map.of(new TopicPartition("src.orders", 0), new Stretch(1000, 1121, 121),
                new TopicPartition("src.orders", 1), new Stretch(10, 41, 31)),
                IntervalBatch.downstream(plan.taken(), topic -> "src." + topic));
    }

    /**
     * A partition's read never covers more than the longest read allowed, nor more records between its intervals
     * than the interval it takes in: a far interval waits for a later batch.
     */
    @Test
    void anIntervalThatWouldStretchTheReadTooFarWaitsForALaterBatch() {
        IntervalBatch plan = new IntervalBatch(1_000);
        SyncInterval near = interval(0, 100, 150, 0);
        SyncInterval close = interval(0, 180, 230, 0); // 29 records between: fewer than its own 51
        SyncInterval apart = interval(0, 400, 450, 0); // 169 between: more than its own
        SyncInterval far = interval(0, 5_000, 5_050, 0);
        SyncInterval tooLong = interval(0, 0, 2_000, 0);

        assertEquals(IntervalBatch.Offer.TAKEN, plan.offer(near));
        assertEquals(IntervalBatch.Offer.TAKEN, plan.offer(close));
        assertEquals(IntervalBatch.Offer.LATER, plan.offer(apart));
        assertEquals(IntervalBatch.Offer.LATER, plan.offer(far));
        assertEquals(IntervalBatch.Offer.TOO_LONG, plan.offer(tooLong));
        assertEquals(List.of(near, close), plan.taken());
    }

    @Test
    void aSliceHoldsTheIntervalsOwnRecordsAndHowFarTheWholeReadGot() {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (long offset = 100; offset < 221; offset += offset == 130 ? 5 : 1) { // a gap: a transaction marker
            records.add(new ConsumerRecord<>("orders", 0, offset, null, new byte[0]));
        }
        RecordRange read = new RecordRange(records, 221);

        RecordRange slice = IntervalBatch.slice(read, 131, 150);

        assertEquals(135, slice.records().get(0).offset());
        assertEquals(150, slice.records().get(slice.records().size() - 1).offset());
        assertEquals(16, slice.records().size());
        assertTrue(slice.covers(151));
    }
}
