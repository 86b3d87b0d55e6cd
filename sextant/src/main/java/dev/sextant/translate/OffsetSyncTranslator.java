package dev.sextant.translate;

import java.util.Optional;

/**
 * Translates through MirrorMaker 2's offset syncs. The base rule is MirrorMaker 2's, for the same reason: take the
 * newest sync whose upstream offset {@code U} is at or below the committed offset {@code C}; resume at its
 * downstream offset {@code D} when {@code C == U}, else at {@code D + 1}. Records between {@code U + 1} and
 * {@code C - 1} were mirrored after {@code D} but where exactly is unknown, so resuming at {@code D + 1} re-reads
 * at most {@code C - U - 1} of them and never skips one.
 *
 * <pre>
 *   source    U ........ C ...... U2        (the consumer committed C: it read everything below)
 *             |          |        |
 *   mirror    D  D+1 ... ? ...... D2        resume at D+1: at most C-U-1 records read twice, none lost
 * </pre>
 *
 * <p>Interpolation: when the next sync above {@code C}, {@code (U2, D2)}, lies as far above {@code (U, D)} on both
 * sides ({@code U2 - U == D2 - D}) and the {@link IntervalEvidence} says the records in between were copied one
 * for one, record {@code C} sits at {@code D + (C - U)} and the translation is exact. MirrorMaker 2 emits a sync
 * whenever the upstream skips an offset or the downstream goes back, so an interval without either has equal
 * deltas; equal deltas can also come from a skip and a duplicate that cancel out, which only the records tell.
 * Without a proof (none asked for, not checked yet, or refuted) the base rule holds.
 *
 * <p>Unlike MirrorMaker 2, which keeps 64 syncs per partition spaced ever more widely into the past, the history
 * handed in here is complete, so the bound is the spacing of syncs around {@code C} (MirrorMaker 2's
 * {@code offset.lag.max}) however far behind the consumer is. Pure: no I/O beyond what {@link SyncHistory} and
 * {@link IntervalEvidence} do.
 */
public final class OffsetSyncTranslator implements OffsetTranslator {

    private final SyncHistory history;
    private final IntervalEvidence evidence;

    /** The base rule only: no interpolation. */
    public OffsetSyncTranslator(SyncHistory history) {
        this(history, IntervalEvidence.NONE);
    }

    public OffsetSyncTranslator(SyncHistory history, IntervalEvidence evidence) {
        this.history = history;
        this.evidence = evidence;
    }

    @Override
    public Optional<OffsetTranslation> translate(String sourceTopic, int partition, long offset) {
        Optional<OffsetSyncPoint> lower = history.latestAtOrBelow(sourceTopic, partition, offset)
                .filter(sync -> sync.downstreamOffset() < Long.MAX_VALUE); // D + 1 must not wrap (syncs are checked
        if (lower.isEmpty()) {                                             // before they enter; older history was not)
            return Optional.empty();
        }
        OffsetSyncPoint sync = lower.get();
        if (offset != sync.upstreamOffset() && evidence != IntervalEvidence.NONE) {
            Optional<OffsetSyncPoint> upper = history.earliestAbove(sourceTopic, partition, offset);
            if (upper.isPresent() && proven(sync, upper.get())) {
                return Optional.of(OffsetTranslation.exact(offset, sync.downstreamOffset() + offset
                        - sync.upstreamOffset()));
            }
        }
        return Optional.of(apply(sync, offset));
    }

    /** True when the two syncs bound an interval copied one for one, proven by the evidence. */
    private boolean proven(OffsetSyncPoint lower, OffsetSyncPoint upper) {
        return linear(lower, upper) && evidence.verdict(lower, upper) == IntervalEvidence.Verdict.PROVEN;
    }

    /** Equal deltas on both sides, the next sync strictly above: the shape a one-for-one copy leaves. */
    public static boolean linear(OffsetSyncPoint lower, OffsetSyncPoint upper) {
        long up = upper.upstreamOffset() - lower.upstreamOffset();
        return up > 0 && upper.downstreamOffset() - lower.downstreamOffset() == up;
    }

    static OffsetTranslation apply(OffsetSyncPoint sync, long committed) {
        if (committed == sync.upstreamOffset()) {
            return OffsetTranslation.exact(committed, sync.downstreamOffset());
        }
        return OffsetTranslation.bounded(committed, sync.downstreamOffset() + 1, committed - sync.upstreamOffset() - 1);
    }
}
