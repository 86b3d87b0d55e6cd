package dev.sextant.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sextant.history.IntervalProofs;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import dev.sextant.testing.FakeRecordRanges;
import dev.sextant.translate.IntervalEvidence;
import dev.sextant.translate.IntervalEvidence.Verdict;
import dev.sextant.translate.OffsetSyncPoint;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Which applied bounded positions a proof of an interval between two offset syncs plans again. */
class ProvenIntervalsTest {

    private static final OffsetSyncPoint LOWER = new OffsetSyncPoint("orders", 0, 100, 1_000);
    private static final OffsetSyncPoint UPPER = new OffsetSyncPoint("orders", 0, 200, 1_100);

    /** What {@link IntervalProofs} keeps for a task that fell behind (its package's constant). */
    private static final int KEPT_PROOFS = 100_000;

    private final FakeRecordRanges source = new FakeRecordRanges();
    private final FakeRecordRanges destination = new FakeRecordRanges();
    private final IntervalProofs proofs = IntervalProofs.onCallerThread(source, destination,
            topic -> "source." + topic, 10_000, new SextantMetrics(new SimpleMeterRegistry()));
    private final BoundedPositions bounded = new BoundedPositions(new HashMap<TopicPartition, Long>()::get);
    private final PendingGroups pending = new PendingGroups();

    ProvenIntervalsTest() {
        destination.bases.put(new TopicPartition("source.orders", 0), 900L); // the mirror's records, shifted by 900
    }

    /** Applied at {@code committed} within a bound of 5, in its own group. */
    private PositionKey applied(String group, int partition, long committed) {
        PositionKey key = new PositionKey(group, "orders", partition);
        bounded.track(key, new PartitionPosition(committed, 0, 1_000, 5, 1_000, committed, 0, -1,
                PositionStatus.APPLIED));
        return key;
    }

    private void prove(OffsetSyncPoint lower, OffsetSyncPoint upper) {
        assertEquals(Verdict.PROVEN, proofs.verdict(lower, upper));
    }

    /** The partitions marked since the last call. */
    private Set<PositionKey> markDue(ProvenIntervals trigger, String... groups) {
        trigger.markDue(0, pending);
        Set<PositionKey> due = new HashSet<>();
        for (String group : groups) {
            due.addAll(pending.keys(group));
            pending.done(group);
        }
        return due;
    }

    @Test
    void aProofPlansAgainTheBoundedPositionsStrictlyInsideItsInterval() {
        PositionKey inside = applied("inside", 0, 150);
        applied("at-lower", 0, 100);
        applied("above", 0, 250);
        applied("other-partition", 1, 150);
        ProvenIntervals trigger = new ProvenIntervals(proofs, bounded);
        String[] groups = {"inside", "at-lower", "above", "other-partition"};
        assertEquals(Set.of(), markDue(trigger, groups), "nothing proven yet");

        prove(LOWER, UPPER);

        assertEquals(Set.of(inside), markDue(trigger, groups));
        assertEquals(Set.of(), markDue(trigger, groups), "each proof is taken once");
    }

    @Test
    void proofsMadeBeforeTheTaskStartedAreNotTakenAgain() {
        applied("inside", 0, 150);
        prove(LOWER, UPPER);

        assertEquals(Set.of(), markDue(new ProvenIntervals(proofs, bounded), "inside"));
    }

    @Test
    void eachProofSinceTheLastFlushCounts() {
        PositionKey first = applied("first", 0, 150);
        PositionKey second = applied("second", 0, 250);
        ProvenIntervals trigger = new ProvenIntervals(proofs, bounded);

        prove(LOWER, UPPER);
        prove(UPPER, new OffsetSyncPoint("orders", 0, 300, 1_200));

        assertEquals(Set.of(first, second), markDue(trigger, "first", "second"));
    }

    @Test
    void withoutIntervalProofsNothingIsPlannedAgain() {
        applied("inside", 0, 150);
        ProvenIntervals trigger = new ProvenIntervals(IntervalEvidence.NONE, bounded);

        assertEquals(Set.of(), markDue(trigger, "inside"));
    }

    @Test
    void aTaskThatFellBehindTheProofsKeptPlansEveryBoundedPositionAgain() {
        PositionKey below = applied("below", 0, 50);
        PositionKey elsewhere = applied("elsewhere", 1, 150);
        ProvenIntervals trigger = new ProvenIntervals(proofs, bounded);

        // one more proof than the proofs keep, each of one record above the ones proven so far
        for (long upstream = 1_000; upstream <= 1_000 + KEPT_PROOFS; upstream++) {
            prove(new OffsetSyncPoint("orders", 0, upstream, upstream + 900),
                    new OffsetSyncPoint("orders", 0, upstream + 1, upstream + 901));
        }

        assertEquals(Set.of(below, elsewhere), markDue(trigger, "below", "elsewhere"));
        assertEquals(Set.of(), markDue(trigger, "below", "elsewhere"), "caught up");
    }
}
