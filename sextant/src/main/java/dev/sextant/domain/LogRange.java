package dev.sextant.domain;

/**
 * Where a destination partition's log lies, as last read: the offsets a consumer can resume at. Either end is -1
 * when not known.
 *
 * @param start the log start offset: records below it are gone (retention, deletion)
 * @param end   the log end offset: the offset the next record appended gets
 */
public record LogRange(long start, long end) {

    /** Neither end known: offsets are kept as they are. */
    public static final LogRange UNKNOWN = new LogRange(-1, -1);

    /**
     * {@code offset} kept inside the log, each end only where known. Not beyond the end: after a promotion producers
     * append there, and a consumer committed beyond it would skip what they append. Not below the start: a consumer
     * committed below it finds no record there and falls back to {@code auto.offset.reset} (with {@code latest}, it
     * skips the whole log).
     */
    public long clamp(long offset) {
        long kept = start >= 0 ? Math.max(offset, start) : offset;
        return end >= 0 ? Math.min(kept, end) : kept;
    }
}
