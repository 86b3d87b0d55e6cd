package dev.sextant.translate;

/**
 * What the records say about the stretch between two offset syncs of one partition whose deltas are equal
 * ({@code U2 - U1 == D2 - D1}): whether MirrorMaker 2 copied it one record for one, so that a commit inside it maps
 * linearly. Equal deltas alone do not prove it: an upstream record MirrorMaker 2 skipped (a transaction marker, a
 * compacted gap) and one it wrote twice (a restart) inside the same interval cancel out in the deltas, and the
 * linear mapping then points one record too far for commits between the two.
 *
 * <p>Asking may start a check elsewhere (the answer is {@link Verdict#UNKNOWN} until it ends); an implementation
 * never blocks the caller on I/O.
 */
public interface IntervalEvidence {

    /** What is known of an interval. */
    enum Verdict {
        /** Every record inside was found at the same distance from the lower sync on both sides. */
        PROVEN,
        /** A record inside was missing or different on one side: the interval is not linear. */
        REFUTED,
        /** Not checked (yet), or it cannot be: keep the bounded rule. */
        UNKNOWN
    }

    /** Interpolation off: every interval keeps the bounded rule. */
    IntervalEvidence NONE = (lower, upper) -> Verdict.UNKNOWN;

    /** Equal deltas are taken as proof without reading records ({@code translation.interpolation=unverified}). */
    IntervalEvidence TRUSTED = (lower, upper) -> Verdict.PROVEN;

    /**
     * @param lower a sync of the partition
     * @param upper the next sync above it, with {@code upper - lower} equal upstream and downstream
     */
    Verdict verdict(OffsetSyncPoint lower, OffsetSyncPoint upper);
}
