package dev.sextant.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class VanishedGroupsTest {

    /** Answers each read with the partitions it was asked about that {@link #gone} holds. */
    private static final class ReadingApplier implements GroupApplier {
        final List<Set<String>> reads = new ArrayList<>();
        final Set<PositionKey> gone = new HashSet<>();

        @Override
        public void apply(Map<String, List<PlannedPartition>> plans, WriteLease lease, Consumer<GroupOutcome> done) {
            throw new AssertionError("only reads");
        }

        @Override
        public CompletableFuture<List<PositionKey>> overwritten(Map<String, List<PlannedPartition>> applied) {
            reads.add(Set.copyOf(applied.keySet()));
            return CompletableFuture.completedFuture(applied.values().stream().flatMap(List::stream)
                    .map(PlannedPartition::key).filter(gone::contains).toList());
        }
    }

    private final IndexedPositions positions = new IndexedPositions(PositionStore.of(
            InMemoryStores.bytesStore("positions")));
    private final Set<String> listedGroups = new HashSet<>();
    private final AtomicLong listedAt = new AtomicLong(-1);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ReadingApplier applier = new ReadingApplier();
    private final VanishedGroups vanished = new VanishedGroups(positions,
            g -> g.startsWith("share") ? GroupKind.SHARE : GroupKind.CONSUMER, listedAt::get, listedGroups::contains,
            t -> "source." + t, applier, new SextantMetrics(registry));

    private PositionKey applied(String group, int partition, long at) {
        PositionKey key = new PositionKey(group, "orders", partition);
        positions.put(key, PartitionPosition.committed(100, 10).settled(100, 100, PositionStatus.APPLIED, at));
        return key;
    }

    @Test
    void anUnlistedGroupWhoseOffsetsTheReadFindsGoneIsWrittenAgain() {
        PositionKey gone0 = applied("gone", 0, 1_000);
        PositionKey gone1 = applied("gone", 1, 1_000);
        applied("kept", 0, 1_000);
        applied("moving", 0, 1_000); // unlisted while its coordinator moves, but there
        listedGroups.add("kept");
        applier.gone.addAll(List.of(gone0, gone1));
        listedAt.set(5_000);
        PendingGroups pending = new PendingGroups();

        vanished.markDue(5_100, pending);
        assertEquals(List.of(Set.of("gone", "moving")), applier.reads, "only unlisted groups are read");
        vanished.markDue(5_200, pending);

        assertEquals(Set.of(gone0, gone1), Set.copyOf(pending.keys("gone")), "every partition found gone");
        assertEquals(List.of("gone"), pending.due(5_200, 10), "the group listed but not found gone stays applied");
        assertEquals(PositionStatus.PENDING, positions.get(gone0).status());
        assertEquals(2.0, registry.get("sextant.offsets.vanished").counter().count());
    }

    @Test
    void aGroupAnsweredSinceTheListingStartedOrInFlightOrShareIsNotRead() {
        applied("late", 0, 1_000);
        applied("late", 1, 6_000); // written after the listing started: it may have made the group
        applied("flying", 0, 1_000);
        applied("share-g", 0, 1_000);
        positions.put(new PositionKey("waiting", "orders", 0), PartitionPosition.committed(100, 10));

        assertEquals(Map.of(), vanished.unlisted(5_000, "flying"::equals));
    }

    @Test
    void eachListingIsWalkedOnceAndNotMoreOftenThanTheInterval() {
        applied("gone", 0, 1_000);
        PendingGroups pending = new PendingGroups();
        vanished.markDue(5_000, pending);
        assertTrue(applier.reads.isEmpty(), "no listing yet: nothing is known gone");

        listedAt.set(4_000);
        vanished.markDue(5_000, pending);
        vanished.markDue(5_500, pending);
        assertEquals(1, applier.reads.size(), "the same listing is walked once");
        listedAt.set(5_400);
        vanished.markDue(5_500, pending);
        assertEquals(1, applier.reads.size(), "a new listing within the interval waits");
        vanished.markDue(5_000 + VanishedGroups.CHECK_INTERVAL_MS, pending);
        assertEquals(2, applier.reads.size(), "then it is walked");
    }

    @Test
    void aLargerTaskIsWalkedLessOften() {
        assertEquals(2_000, VanishedGroups.checkInterval(999));
        assertEquals(8_000, VanishedGroups.checkInterval(3_600), "100,000 groups x 2 partitions over 50 tasks");
        assertEquals(VanishedGroups.CHECK_INTERVAL_MAX_MS, VanishedGroups.checkInterval(64_000));
    }
}
