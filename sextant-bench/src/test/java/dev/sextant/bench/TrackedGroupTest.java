package dev.sextant.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TrackedGroupTest {

    private static final TrackedGroup.Translator NO_SYNCS = (topic, partition, offset) -> -1;

    @Test
    void readsTheSourceOffsetFromBothSystemsMetadata() {
        assertEquals(1234, TrackedGroup.sourceOffsetOf("bench src=1234"));
        assertEquals(77, TrackedGroup.sourceOffsetOf("sextant/sextant-bench-1000 src=77"));
        assertEquals(-1, TrackedGroup.sourceOffsetOf(""));
        assertEquals(-1, TrackedGroup.sourceOffsetOf(null));
        assertEquals(5, TrackedGroup.sourceOffsetOf(TrackedGroup.metadataFor(5)));
    }

    @Test
    void aCommitResolvesWhenEveryPartitionShowsItOrALaterOne() {
        TrackedGroup g = new TrackedGroup("g", "t", "source.t", 2, false);
        g.committed(new long[] {100, 200}, 1_000, true);
        g.committed(new long[] {300, 400}, 2_000, true);
        List<Long> latencies = new ArrayList<>();

        g.observe(new long[] {100, -1}, new long[] {90, -1}, 5_000, 6_000, NO_SYNCS, (x, p, s, d) -> { },
                latencies::add);
        assertTrue(latencies.isEmpty(), "partition 1 shows nothing yet");

        // the destination skipped straight to the second commit: both resolve, each from its own commit time
        g.observe(new long[] {300, 400}, new long[] {250, 390}, 7_000, 8_000, NO_SYNCS, (x, p, s, d) -> { },
                latencies::add);
        assertEquals(List.of(7_000L, 6_000L), latencies);
        assertFalse(g.hasOutstanding());
    }

    @Test
    void aPollSentBeforeTheCommitReturnedCannotResolveIt() {
        TrackedGroup g = new TrackedGroup("g", "t", "source.t", 1, false);
        g.committed(new long[] {10}, 5_000, true);
        List<Long> latencies = new ArrayList<>();
        g.observe(new long[] {10}, new long[] {10}, 4_000, 6_000, NO_SYNCS, (x, p, s, d) -> { }, latencies::add);
        assertTrue(latencies.isEmpty());
        g.observe(new long[] {10}, new long[] {10}, 6_000, 6_500, NO_SYNCS, (x, p, s, d) -> { }, latencies::add);
        assertEquals(List.of(1_500L), latencies);
    }

    @Test
    void anUnchangedTranslationCountsAsShown() {
        // MirrorMaker leaves a partition alone when the new commit translates to the offset it already holds
        TrackedGroup g = new TrackedGroup("g", "t", "source.t", 1, false);
        g.committed(new long[] {150}, 1_000, true);
        List<Long> latencies = new ArrayList<>();
        TrackedGroup.Translator best = (topic, partition, offset) -> offset == 150 ? 101 : -1;
        g.observe(new long[] {120}, new long[] {100}, 2_000, 2_100, best, (x, p, s, d) -> { }, latencies::add);
        assertTrue(latencies.isEmpty(), "100 is worse than the best translation 101");
        g.observe(new long[] {120}, new long[] {101}, 3_000, 3_100, best, (x, p, s, d) -> { }, latencies::add);
        assertEquals(List.of(2_100L), latencies);
    }

    @Test
    void reportsEachChangedDestinationValueOnce() {
        TrackedGroup g = new TrackedGroup("g", "t", "source.t", 1, false);
        List<long[]> changes = new ArrayList<>();
        TrackedGroup.ChangeObserver observer = (x, p, s, d) -> changes.add(new long[] {p, s, d});
        g.observe(new long[] {50}, new long[] {40}, 1, 2, NO_SYNCS, observer, l -> { });
        g.observe(new long[] {50}, new long[] {40}, 3, 4, NO_SYNCS, observer, l -> { });
        g.observe(new long[] {60}, new long[] {60}, 5, 6, NO_SYNCS, observer, l -> { });
        assertEquals(2, changes.size());
        assertEquals(10, changes.get(0)[1] - changes.get(0)[2]);
    }
}
