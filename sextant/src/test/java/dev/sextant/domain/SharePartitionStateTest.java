package dev.sextant.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class SharePartitionStateTest {

    private static StateBatch acked(long first, long last) {
        return new StateBatch(first, last, StateBatch.ACKNOWLEDGED, (short) 1);
    }

    private static StateBatch archived(long first, long last) {
        return new StateBatch(first, last, StateBatch.ARCHIVED, (short) 5);
    }

    private static StateBatch available(long first, long last) {
        return new StateBatch(first, last, StateBatch.AVAILABLE, (short) 1);
    }

    @Test
    void uninitialisedStateHasNoStartOffset() {
        assertEquals(-1, SharePartitionState.empty().effectiveStartOffset());
        assertEquals(-1, SharePartitionState.empty().snapshot(-1, List.of()).effectiveStartOffset());
    }

    @Test
    void advancesOverTheAcknowledgedPrefixAsSeenLive() {
        // seen on a 4.4 broker: snapshot SPSO 10, then an update acknowledging 10..29 without moving the SPSO
        SharePartitionState s = SharePartitionState.empty().snapshot(10, List.of()).update(10, List.of(acked(10, 29)));
        assertEquals(10, s.startOffset());
        assertEquals(30, s.effectiveStartOffset());
    }

    @Test
    void archivedRecordsCountAsDoneButAGapOrAnAvailableRecordStops() {
        SharePartitionState s = SharePartitionState.empty().snapshot(0, List.of(acked(0, 9), archived(10, 12),
                available(13, 13), acked(14, 20)));
        assertEquals(13, s.effectiveStartOffset());
        SharePartitionState gap = SharePartitionState.empty().snapshot(0, List.of(acked(0, 9), acked(12, 20)));
        assertEquals(10, gap.effectiveStartOffset(), "10 and 11 were never delivered");
    }

    @Test
    void updatesOverlayOlderBatchesOffsetByOffset() {
        SharePartitionState s = SharePartitionState.empty().snapshot(0, List.of(available(0, 99)))
                .update(-1, List.of(acked(0, 49)));
        assertEquals(50, s.effectiveStartOffset());
        assertEquals(List.of(acked(0, 49), available(50, 99)), s.batches());

        SharePartitionState middle = s.update(-1, List.of(acked(60, 69)));
        assertEquals(List.of(acked(0, 49), available(50, 59), acked(60, 69), available(70, 99)), middle.batches());
        assertEquals(100, middle.update(-1, List.of(acked(50, 59), acked(70, 99))).effectiveStartOffset());
    }

    @Test
    void anUpdateWithAStartOffsetDropsWhatIsBelowIt() {
        SharePartitionState s = SharePartitionState.empty().snapshot(0, List.of(acked(0, 9), available(10, 19)))
                .update(15, List.of());
        assertEquals(List.of(available(15, 19)), s.batches());
        assertEquals(15, s.effectiveStartOffset());
    }

    @Test
    void aSnapshotReplacesEverything() {
        SharePartitionState s = SharePartitionState.empty().snapshot(0, List.of(acked(0, 99)))
                .snapshot(5, List.of(available(5, 9)));
        assertEquals(5, s.effectiveStartOffset());
        assertEquals(List.of(available(5, 9)), s.batches());
    }

    @Test
    void survivesTheStoreRoundTrip() {
        SharePartitionState s = SharePartitionState.empty().snapshot(3, List.of(acked(3, 7), available(8, 8)))
                .forwarded(8);
        assertEquals(s, SharePartitionState.fromBytes(s.toBytes()));
    }
}
