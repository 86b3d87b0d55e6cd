package dev.sextant.apply;

/**
 * A share partition's start offset as the destination lists it ({@code listShareGroupOffsets}), with the lag it
 * reports beside it.
 *
 * <p>The broker (4.2 and later, KIP-1226) computes the lag as the partition's high watermark, less the start offset,
 * less the records above the start offset delivered completely (acknowledged or archived). The share coordinator
 * moves the stored start offset lazily: a share consumer's acknowledgements often leave it where it was (seen live: a
 * start offset of 461 with every record above it acknowledged, lag 0), so the start offset alone does not show that
 * someone consumed there; the lag does. A write of the start offset ({@code alterShareGroupOffsets}) leaves no
 * record delivered above it.
 *
 * @param lag -1 when the destination does not report it (brokers before 4.2, or a partition without state)
 */
public record ShareStart(long startOffset, long lag) {

    /**
     * How many records above the start offset were delivered completely there, at least, given a log end offset read
     * before this start offset was listed: the high watermark the broker used was at or above it, so this never counts
     * more than there are. -1 when not known.
     */
    public long completedAtLeast(long endBefore) {
        if (lag < 0 || endBefore < 0 || startOffset < 0) {
            return -1;
        }
        return Math.max(0, endBefore - startOffset - lag);
    }
}
