package dev.sextant.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.apply.DestinationFeatures;
import dev.sextant.apply.DestinationGroup;
import dev.sextant.apply.DestinationView.PartitionPresence;
import dev.sextant.apply.StreamsGroupSupport;
import dev.sextant.domain.GroupKind;
import dev.sextant.domain.LogRange;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionStatus;
import dev.sextant.sync.PartitionDecision.Guard;
import dev.sextant.sync.PartitionDecision.Result;
import dev.sextant.sync.PartitionDecision.Verdict;
import dev.sextant.translate.OffsetTranslation;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Every verdict of the decision on one pending partition, and the order of its checks. */
class PartitionDecisionTest {

    private static final long NOW = 1_000_000;
    private static final long COMMITTED_AT = 999_000;

    /** A new commit at 200, never applied. */
    private final PartitionPosition pending = PartitionPosition.committed(200, COMMITTED_AT);
    /** 200 applied as 180, translated through a sync 10 records below it. */
    private final PartitionPosition appliedBounded = new PartitionPosition(200, COMMITTED_AT, 180, 10, 180, 200,
            NOW - 1, -1, PositionStatus.APPLIED);
    /** 200 applied as 190, exactly. */
    private final PartitionPosition appliedExact = new PartitionPosition(200, COMMITTED_AT, 190, 0, 190, 200, NOW - 1,
            -1, PositionStatus.APPLIED);

    private static Optional<OffsetTranslation> exact(long destinationOffset) {
        return Optional.of(OffsetTranslation.exact(200, destinationOffset));
    }

    private static Result decide(PartitionPosition pos, Optional<OffsetTranslation> translation, Guard guard,
                                 PartitionPresence presence) {
        return PartitionDecision.decide(pos, translation, guard, presence, new LogRange(0, 1_000_000_000L), NOW);
    }

    @Test
    void aTranslatedPositionOnAMirroredPartitionIsPlannedWithItsTranslation() {
        Result result = decide(pending, Optional.of(OffsetTranslation.bounded(200, 185, 4)), Guard.NONE,
                PartitionPresence.PRESENT);

        assertEquals(Verdict.PLAN, result.verdict());
        assertEquals(185, result.next().translatedOffset());
        assertEquals(4, result.next().bound());
        assertEquals(PositionStatus.PENDING, result.next().status(), "settled by the destination's answer only");
    }

    @Test
    void aPartitionWhoseLogEndIsNotKnownYetWaitsRatherThanRiskWritingBeyondIt() {
        Result result = PartitionDecision.decide(pending, exact(190), Guard.NONE, PartitionPresence.PRESENT,
                LogRange.UNKNOWN, NOW);
        assertEquals(Verdict.WAIT, result.verdict());
    }

    @Test
    void aPositionWrittenAtTheMirrorsEndIsPlannedAgainOnlyOnceTheEndMovedPastIt() {
        // 200 translates to 190; the mirror ended at 150 when it was written
        PartitionPosition clamped = new PartitionPosition(200, COMMITTED_AT, 190, 0, 150, 200, NOW - 1, -1,
                PositionStatus.APPLIED);
        assertTrue(clamped.clamped());
        assertEquals(Verdict.SETTLE, PartitionDecision.decide(clamped, exact(190), Guard.NONE,
                PartitionPresence.PRESENT, new LogRange(0, 150), NOW).verdict(),
                "the end has not moved: nothing to write");
        assertEquals(Verdict.PLAN, PartitionDecision.decide(clamped, exact(190), Guard.NONE,
                PartitionPresence.PRESENT, new LogRange(0, 170), NOW).verdict());
    }

    @Test
    void withoutATranslationAnOffsetToApplyIsParkedAsUntranslatable() {
        Result result = decide(pending, Optional.empty(), Guard.NONE, null);

        assertEquals(Verdict.PARK, result.verdict());
        assertEquals(PositionStatus.UNTRANSLATABLE, result.next().status());
        assertEquals(NOW, result.next().pendingSince(), "its wait starts now: the dead-letter timeout counts from it");
    }

    @Test
    void aTranslationTheHistoryNoLongerCoversIsDroppedNeitherServedNorWritten() {
        // translated earlier (then refused by a guard), its syncs forgotten since: no translation now
        PartitionPosition guarded = appliedExact.withCommit(260, COMMITTED_AT + 1)
                .withTranslation(OffsetTranslation.exact(260, 250)).withStatus(PositionStatus.GROUP_ACTIVE, NOW - 1);

        Result result = decide(guarded, Optional.empty(), Guard.NONE, null);

        assertEquals(Verdict.PARK, result.verdict());
        assertEquals(PositionStatus.UNTRANSLATABLE, result.next().status());
        assertFalse(result.next().hasTranslation(), "not through syncs the history forgot: " + result.next());
        assertEquals(190, result.next().appliedOffset(), "what the destination holds stays known");
    }

    @Test
    void anUntranslatableOffsetIsParkedEvenUnderAGuard() {
        Result result = decide(pending, Optional.empty(), Guard.GROUP_ACTIVE, null);

        assertEquals(Verdict.PARK, result.verdict());
        assertEquals(PositionStatus.UNTRANSLATABLE, result.next().status());
    }

    @Test
    void aMissingMirrorPartitionParksItAsTopicNotMirrored() {
        Result result = decide(pending, exact(190), Guard.NONE, PartitionPresence.ABSENT);

        assertEquals(Verdict.PARK, result.verdict());
        assertEquals(PositionStatus.TOPIC_NOT_MIRRORED, result.next().status());
        assertEquals(190, result.next().translatedOffset(), "the translation is recorded all the same");
        assertEquals(NOW, result.next().pendingSince());
    }

    @Test
    void aPartitionTheViewHasNotLookedUpYetWaitsWithItsTranslationRecorded() {
        Result result = decide(pending, exact(190), Guard.NONE, PartitionPresence.UNKNOWN);

        assertEquals(Verdict.WAIT, result.verdict());
        assertEquals(PositionStatus.PENDING, result.next().status());
        assertEquals(190, result.next().translatedOffset());
        assertEquals(-1, result.next().pendingSince(), "not a problem: no dead-letter clock runs");
    }

    @Test
    void aGuardRecordsItsStatusAndIsNeverPlannedAgainst() {
        Result active = decide(pending, exact(190), Guard.GROUP_ACTIVE, PartitionPresence.PRESENT);
        Result conflict = decide(pending, exact(190), Guard.TYPE_CONFLICT, PartitionPresence.PRESENT);

        assertEquals(Verdict.GUARDED, active.verdict());
        assertEquals(PositionStatus.GROUP_ACTIVE, active.next().status());
        assertEquals(NOW, active.next().pendingSince());
        assertEquals(Verdict.GUARDED, conflict.verdict());
        assertEquals(PositionStatus.TYPE_CONFLICT, conflict.next().status());
    }

    @Test
    void aGuardComesBeforeTheDestinationPartition() {
        Result result = decide(pending, exact(190), Guard.GROUP_ACTIVE, PartitionPresence.ABSENT);

        assertEquals(Verdict.GUARDED, result.verdict());
        assertEquals(PositionStatus.GROUP_ACTIVE, result.next().status());
    }

    @Test
    void aRefusedPositionIsPlannedOnceItsGuardIsGone() {
        PartitionPosition refused = pending.withStatus(PositionStatus.GROUP_ACTIVE, NOW - 5_000);

        Result result = decide(refused, exact(190), Guard.NONE, PartitionPresence.PRESENT);

        assertEquals(Verdict.PLAN, result.verdict());
    }

    @Test
    void anAppliedExactPositionSettlesWhateverElseIsKnown() {
        assertFalse(PartitionDecision.wantsTranslation(appliedExact), "no sync can bring it closer");

        Result result = decide(appliedExact, exact(195), Guard.GROUP_ACTIVE, PartitionPresence.PRESENT);

        assertEquals(Verdict.SETTLE, result.verdict());
        assertSame(appliedExact, result.next());
    }

    @Test
    void anAppliedBoundedPositionSettlesWhenTheNewTranslationIsNoBetterThanWhatTheDestinationHolds() {
        assertTrue(PartitionDecision.wantsTranslation(appliedBounded));

        Result same = decide(appliedBounded, Optional.of(OffsetTranslation.bounded(200, 180, 10)), Guard.NONE,
                PartitionPresence.PRESENT);
        Result guarded = decide(appliedBounded, exact(175), Guard.GROUP_ACTIVE, PartitionPresence.PRESENT);

        assertEquals(Verdict.SETTLE, same.verdict());
        assertSame(appliedBounded, same.next());
        assertEquals(Verdict.SETTLE, guarded.verdict(), "nothing to write: the guard is not recorded");
        assertSame(appliedBounded, guarded.next());
    }

    @Test
    void anAppliedBoundedPositionWithACloserTranslationIsPlanned() {
        Result result = decide(appliedBounded, exact(190), Guard.NONE, PartitionPresence.PRESENT);

        assertEquals(Verdict.PLAN, result.verdict());
        assertEquals(190, result.next().translatedOffset());
        assertEquals(0, result.next().bound());
    }

    @Test
    void anAppliedBoundedPositionWithoutATranslationKeepsWhatItHas() {
        Result result = decide(appliedBounded, Optional.empty(), Guard.NONE, null);

        assertEquals(Verdict.SETTLE, result.verdict());
        assertSame(appliedBounded, result.next());
    }

    @Test
    void aPositionWithSomethingToApplyWantsATranslation() {
        assertTrue(PartitionDecision.wantsTranslation(pending));
        assertTrue(PartitionDecision.wantsTranslation(appliedExact.withStatus(PositionStatus.DESTINATION_DIVERGED,
                NOW)), "a retried status needs a write without a new commit");
    }

    @Test
    void theGuardIsTheTypeConflictFirstThenTheMembers() {
        DestinationGroup activeShare = new DestinationGroup("g", GroupKind.SHARE, "share", true, "STABLE");
        DestinationGroup activeConsumer = new DestinationGroup("g", GroupKind.CONSUMER, "consumer", true, "STABLE");
        DestinationGroup emptyConsumer = new DestinationGroup("g", GroupKind.CONSUMER, "classic", false, "EMPTY");
        DestinationGroup connect = new DestinationGroup("g", null, "classic/connect", false, "EMPTY");

        assertEquals(Guard.NONE, Guard.of(Optional.empty(), GroupKind.CONSUMER), "a group new to the destination");
        assertEquals(Guard.TYPE_CONFLICT, Guard.of(Optional.of(activeShare), GroupKind.CONSUMER));
        assertEquals(Guard.TYPE_CONFLICT, Guard.of(Optional.of(connect), GroupKind.CONSUMER),
                "a type Sextant never writes");
        assertEquals(Guard.GROUP_ACTIVE, Guard.of(Optional.of(activeConsumer), GroupKind.CONSUMER));
        assertEquals(Guard.NONE, Guard.of(Optional.of(emptyConsumer), GroupKind.CONSUMER));
        assertEquals(Guard.TYPE_CONFLICT, Guard.of(Optional.of(emptyConsumer), GroupKind.SHARE));
    }

    @Test
    void aStreamsGroupIsGuardedByTheDestinationsGroupThenByWhetherItTakesStreamsGroups() {
        StreamsGroupSupport supported = StreamsGroupSupport.of(new DestinationFeatures(1, 33), Optional.empty());
        StreamsGroupSupport refused = StreamsGroupSupport.of(new DestinationFeatures(1, 29), Optional.empty());
        DestinationGroup emptyStreams = new DestinationGroup("g", GroupKind.CONSUMER, "streams", false, "EMPTY");
        DestinationGroup liveStreams = new DestinationGroup("g", GroupKind.CONSUMER, "streams", true, "STABLE");

        assertEquals(Guard.NONE, Guard.of(Optional.of(emptyStreams), GroupKind.CONSUMER),
                "an empty streams group takes an admin commit");
        assertEquals(Guard.GROUP_ACTIVE, Guard.of(Optional.of(liveStreams), GroupKind.CONSUMER),
                "a live streams group is never written");
        assertEquals(Guard.NONE, Guard.ofStreams(supported));
        assertEquals(Guard.DESTINATION_UNSUPPORTED, Guard.ofStreams(refused));
        assertEquals(Guard.UNKNOWN, Guard.ofStreams(StreamsGroupSupport.UNKNOWN));
    }

    @Test
    void anUnknownGuardWaitsWithoutAStatus() {
        Result result = decide(pending, exact(190), Guard.UNKNOWN, PartitionPresence.PRESENT);
        assertEquals(Verdict.WAIT, result.verdict());
        assertEquals(PositionStatus.PENDING, result.next().status());
    }
}
