package dev.sextant.translate;

/**
 * A source committed offset translated to the destination partition.
 *
 * <p>Invariant: {@code destinationOffset} never overshoots the record the source consumer would read next, and
 * {@code bound} is the most records a consumer resuming at {@code destinationOffset} can re-read ({@code 0} for
 * {@link Precision#EXACT}).
 *
 * @param sourceOffset      the committed offset on the source partition (the next record to read)
 * @param destinationOffset where a consumer resumes on the destination partition
 * @param precision         exact, or bounded by {@code bound} records
 * @param bound             records a resumed consumer may replay, at most
 */
public record OffsetTranslation(long sourceOffset, long destinationOffset, Precision precision, long bound) {

    public OffsetTranslation {
        if (bound < 0) {
            throw new IllegalArgumentException("bound must be >= 0, got " + bound);
        }
        if ((precision == Precision.EXACT) != (bound == 0)) {
            throw new IllegalArgumentException("precision " + precision + " does not match bound " + bound);
        }
    }

    public static OffsetTranslation exact(long sourceOffset, long destinationOffset) {
        return new OffsetTranslation(sourceOffset, destinationOffset, Precision.EXACT, 0);
    }

    public static OffsetTranslation bounded(long sourceOffset, long destinationOffset, long bound) {
        return bound == 0
                ? exact(sourceOffset, destinationOffset)
                : new OffsetTranslation(sourceOffset, destinationOffset, Precision.BOUNDED, bound);
    }
}
