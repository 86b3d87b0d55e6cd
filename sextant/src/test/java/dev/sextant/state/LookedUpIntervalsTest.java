package dev.sextant.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sextant.translate.OffsetSyncPoint;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class LookedUpIntervalsTest {

    private final NewestSyncs newest = new NewestSyncs();
    /** The history of orders-0, as the store would seek it. */
    private final TreeMap<Long, OffsetSyncPoint> history = new TreeMap<>();
    private int seeks;
    private final LookedUpIntervals intervals = new LookedUpIntervals(newest,
            (topic, partition, offset) -> {
                seeks++;
                return Optional.ofNullable(history.floorEntry(offset)).map(Map.Entry::getValue);
            },
            (topic, partition, offset) -> {
                seeks++;
                return Optional.ofNullable(history.higherEntry(offset)).map(Map.Entry::getValue);
            });

    LookedUpIntervalsTest() {
        for (long u = 0; u <= 2_000; u += 100) {
            history.put(u, sync(u));
        }
    }

    private static OffsetSyncPoint sync(long upstream) {
        return new OffsetSyncPoint("orders", 0, upstream, upstream + 7);
    }

    private void lookUp(long offset) {
        assertEquals(Optional.of(sync(offset / 100 * 100)), intervals.latestAtOrBelow("orders", 0, offset));
        assertEquals(Optional.of(sync(offset / 100 * 100 + 100)), intervals.earliestAbove("orders", 0, offset));
    }

    @Test
    void anIntervalLookedUpOnceIsAnsweredWithoutSeekingAgain() {
        lookUp(150);
        assertEquals(2, seeks, "the sync below, then the one above");
        lookUp(150);
        lookUp(120);
        lookUp(199);
        assertEquals(2, seeks, "anywhere inside the interval, both ends");
        lookUp(250);
        assertEquals(4, seeks, "another interval is sought");
    }

    @Test
    void aChangeToThePartitionsHistoryMakesItSeekAgain() {
        lookUp(150);
        history.put(160L, sync(160));
        newest.stored(sync(160)); // below the head: counted as a change
        assertEquals(Optional.of(sync(160)), intervals.latestAtOrBelow("orders", 0, 170));
        assertEquals(3, seeks);
        assertEquals(Optional.of(sync(200)), intervals.earliestAbove("orders", 0, 170));
        assertEquals(4, seeks);
    }

    @Test
    void keepsTheLastIntervalsOfAPartitionUpToItsLimitReplacingTheOldest() {
        for (int i = 0; i < LookedUpIntervals.PER_PARTITION; i++) {
            lookUp(i * 100 + 50);
        }
        int sought = seeks;
        for (int i = 0; i < LookedUpIntervals.PER_PARTITION; i++) {
            lookUp(i * 100 + 50);
        }
        assertEquals(sought, seeks, "all of them kept");

        lookUp(LookedUpIntervals.PER_PARTITION * 100 + 50); // one more: the oldest makes room
        sought = seeks;
        lookUp(150);
        assertEquals(sought, seeks, "the second oldest still kept");
        lookUp(50);
        assertEquals(sought + 2, seeks, "the oldest was replaced");
    }

    @Test
    void aPartitionsIntervalsAnswerNoOtherPartition() {
        lookUp(150);
        intervals.latestAtOrBelow("orders", 1, 150);
        assertEquals(3, seeks);
    }
}
