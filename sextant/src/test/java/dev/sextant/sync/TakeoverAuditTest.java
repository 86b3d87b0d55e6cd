package dev.sextant.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.apply.GroupApplier;
import dev.sextant.apply.GroupOutcome;
import dev.sextant.apply.PlannedPartition;
import dev.sextant.apply.WriteLease;
import dev.sextant.domain.GroupKind;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.state.InMemoryStores;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import dev.sextant.state.PositionStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class TakeoverAuditTest {

    /** Records what each round asked the destination for. */
    private static final class RecordingApplier implements GroupApplier {
        final List<Set<String>> rounds = new ArrayList<>();

        @Override
        public void apply(Map<String, List<PlannedPartition>> plans, WriteLease lease, Consumer<GroupOutcome> done) {
            throw new AssertionError("the audit only reads");
        }

        @Override
        public CompletableFuture<List<PositionKey>> overwritten(Map<String, List<PlannedPartition>> applied) {
            rounds.add(Set.copyOf(applied.keySet()));
            return CompletableFuture.completedFuture(List.of());
        }
    }

    private final IndexedPositions positions = new IndexedPositions(PositionStore.of(
            InMemoryStores.bytesStore("positions")));
    private final RecordingApplier applier = new RecordingApplier();

    /** The task's positions: {@code groups} groups of two partitions, each applied. */
    private void applied(int groups) {
        for (int g = 0; g < groups; g++) {
            for (int p = 0; p < 2; p++) {
                positions.put(new PositionKey("g" + g, "orders", p), PartitionPosition.committed(100, 1_000)
                        .settled(100, 100, PositionStatus.APPLIED, 2_000));
            }
        }
    }

    private TakeoverAudit audit() {
        return new TakeoverAudit(0, positions, g -> GroupKind.CONSUMER, t -> "source." + t, k -> applier,
                new SextantMetrics(new SimpleMeterRegistry()));
    }

    private static void round(TakeoverAudit audit, long now) {
        assertTrue(audit.due(now), "due at " + now);
        audit.read(now, g -> false);
    }

    @Test
    void aSmallTaskIsReadWholeEveryRoundUntilTheWindowEnds() {
        TakeoverAudit audit = audit();
        applied(10);
        assertFalse(audit.due(0), "the first round comes one interval after the assignment");
        round(audit, TakeoverAudit.INTERVAL_MS);
        round(audit, 2 * TakeoverAudit.INTERVAL_MS);
        assertEquals(2, applier.rounds.size());
        assertEquals(10, applier.rounds.get(0).size());
        assertEquals(applier.rounds.get(0), applier.rounds.get(1));
        assertFalse(audit.due(TakeoverAudit.WINDOW_MS));
    }

    @Test
    void aLargeTaskIsReadInSlicesThatTogetherCoverEveryGroup() {
        TakeoverAudit audit = audit();
        int groups = 5 * TakeoverAudit.GROUPS_PER_ROUND;
        applied(groups);
        for (int r = 1; r <= 5; r++) {
            round(audit, r * TakeoverAudit.INTERVAL_MS);
        }
        Set<String> seen = new HashSet<>();
        for (Set<String> read : applier.rounds) {
            assertTrue(read.size() < 2 * TakeoverAudit.GROUPS_PER_ROUND,
                    "a round reads about one slice: " + read.size());
            for (String group : read) {
                assertTrue(seen.add(group), group + " read twice within one cycle");
            }
        }
        assertEquals(groups, seen.size(), "five rounds of five slices read every group once");
    }

    @Test
    void theWindowStretchesSoEverySliceIsReadAfterAnOldWriteCanNoLongerLand() {
        TakeoverAudit audit = audit();
        int slices = 20; // 20 x 5 s = 100 s a cycle
        applied(slices * TakeoverAudit.GROUPS_PER_ROUND);
        round(audit, TakeoverAudit.INTERVAL_MS);
        long end = 60_000 + slices * TakeoverAudit.INTERVAL_MS;
        assertTrue(end > TakeoverAudit.WINDOW_MS);
        assertTrue(audit.due(end - 1), "still running after the usual window");
        assertFalse(audit.due(end));
    }
}
