package dev.sextant.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SamplesTest {

    @Test
    void nearestRankQuantiles() {
        Samples s = new Samples();
        for (int i = 100; i >= 1; i--) {
            s.add(i);
        }
        assertEquals(50, s.quantile(0.5));
        assertEquals(99, s.quantile(0.99));
        assertEquals(100, s.quantile(1.0));
        assertEquals(1, s.quantile(0.0));
        assertEquals(100, s.max());
        assertEquals(50.5, s.mean());
    }

    @Test
    void smallAndEmptySets() {
        assertEquals(2, Samples.quantile(new double[] {1, 2, 3, 4}, 0.5));
        assertEquals(4, Samples.quantile(new double[] {1, 2, 3, 4}, 0.99));
        assertEquals(7, Samples.quantile(new double[] {7}, 0.99));
        assertTrue(Double.isNaN(new Samples().quantile(0.5)));
        assertTrue(Double.isNaN(new Samples().max()));
    }

    @Test
    void unresolvedCommitsMakeTheHigherStatisticsLowerBounds() {
        Samples resolved = new Samples();
        for (int i = 1; i <= 97; i++) {
            resolved.add(i);
        }
        Samples censored = new Samples();
        censored.add(500);
        censored.add(600);
        censored.add(700);
        Samples.Censored c = Samples.Censored.of(resolved, censored);
        assertEquals(50, c.p50());
        assertEquals(600, c.p99());
        assertEquals(700, c.max());
        assertEquals(List.of("p99", "max"), c.lowerBounds());
        assertTrue(Samples.Censored.of(resolved, new Samples()).lowerBounds().isEmpty());
    }

    @Test
    void growsPastItsInitialCapacity() {
        Samples s = new Samples();
        for (int i = 0; i < 10_000; i++) {
            s.add(i);
        }
        assertEquals(10_000, s.size());
        assertEquals(9_999, s.max());
    }
}
