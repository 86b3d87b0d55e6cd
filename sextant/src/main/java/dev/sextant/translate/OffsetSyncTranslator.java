package dev.sextant.translate;

import java.util.Optional;

/**
 * Translates through MirrorMaker 2's offset syncs, with MirrorMaker 2's rule and for the same reason: take the
 * newest sync whose upstream offset {@code U} is at or below the committed offset {@code C}; resume at its
 * downstream offset {@code D} when {@code C == U}, else at {@code D + 1}. Records between {@code U + 1} and
 * {@code C - 1} were mirrored after {@code D} but where exactly is unknown, so resuming at {@code D + 1} re-reads
 * at most {@code C - U - 1} of them and never skips one.
 *
 * <pre>
 *   source    U ........ C            (the consumer committed C: it read everything below)
 *             |          |
 *   mirror    D  D+1 ... ?            resume at D+1: at most C-U-1 records read twice, none lost
 * </pre>
 *
 * <p>Unlike MirrorMaker 2, which keeps 64 syncs per partition spaced ever more widely into the past, the history
 * handed in here is complete, so the bound is the spacing of syncs around {@code C} (MirrorMaker 2's
 * {@code offset.lag.max}) however far behind the consumer is. Pure: no I/O beyond what {@link SyncHistory} does.
 */
public final class OffsetSyncTranslator implements OffsetTranslator {

    private final SyncHistory history;

    public OffsetSyncTranslator(SyncHistory history) {
        this.history = history;
    }

    @Override
    public Optional<OffsetTranslation> translate(String sourceTopic, int partition, long offset) {
        return history.latestAtOrBelow(sourceTopic, partition, offset)
                .filter(sync -> sync.downstreamOffset() < Long.MAX_VALUE) // D + 1 must not wrap (syncs are checked
                .map(sync -> apply(sync, offset));                        // before they enter; older history was not)
    }

    static OffsetTranslation apply(OffsetSyncPoint sync, long committed) {
        if (committed == sync.upstreamOffset()) {
            return OffsetTranslation.exact(committed, sync.downstreamOffset());
        }
        return OffsetTranslation.bounded(committed, sync.downstreamOffset() + 1, committed - sync.upstreamOffset() - 1);
    }
}
