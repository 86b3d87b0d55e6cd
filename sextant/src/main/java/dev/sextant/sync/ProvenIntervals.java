package dev.sextant.sync;

import dev.sextant.history.IntervalProofs;
import dev.sextant.history.SyncInterval;
import dev.sextant.translate.IntervalEvidence;
import java.util.List;
import java.util.Optional;

/**
 * Intervals between two offset syncs proven against the records since the last flush: the applied bounded positions
 * inside each are planned again, and now translate exactly. A task that fell further behind than the proofs kept
 * plans every bounded position again.
 */
final class ProvenIntervals implements ReplanTrigger {

    private final IntervalProofs proofs;
    private final BoundedPositions bounded;
    /** How many proofs this task has re-planned for. */
    private long seen;

    /** @param evidence the instance's interval evidence: only {@link IntervalProofs} proves anything later */
    ProvenIntervals(IntervalEvidence evidence, BoundedPositions bounded) {
        this.proofs = evidence instanceof IntervalProofs p ? p : null;
        this.bounded = bounded;
        this.seen = proofs == null ? 0 : proofs.proven();
    }

    @Override
    public void markDue(long now, PendingGroups pending) {
        if (proofs == null || proofs.proven() == seen) {
            return;
        }
        Optional<List<SyncInterval>> proven = proofs.provenSince(seen);
        if (proven.isEmpty()) { // fell behind the proofs kept: every bounded position is worth another look
            seen = proofs.proven();
            bounded.all().forEach(pending::mark);
            return;
        }
        seen += proven.get().size();
        for (SyncInterval interval : proven.get()) {
            bounded.inside(interval.partition(), interval.lower().upstreamOffset(), interval.upper().upstreamOffset())
                    .forEach(pending::mark);
        }
    }
}
