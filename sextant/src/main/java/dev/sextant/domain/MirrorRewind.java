package dev.sextant.domain;

/**
 * Where a mirror partition last went back under the same topic id, as the offset-sync history recorded it: an unclean
 * leader election truncated it, and MirrorMaker 2 then copied source record {@code upstreamOffset} to
 * {@code downstreamOffset}, where records it had copied before stood (the offset sync that moved the downstream back,
 * whose contradicted predecessors the history forgot).
 *
 * <p>Invariant ({@link #outdates}): an offset written for a source offset below {@code upstreamOffset} at or past
 * {@code downstreamOffset} was translated through syncs the rewind contradicts, and is wrong now: the records it
 * pointed at are gone, and the mirror holds later source records there (at or after {@code upstreamOffset}), which a
 * consumer resuming there would skip up to. A translation made after the rewind does not land past it: every sync
 * below {@code upstreamOffset} left in the history lies below {@code downstreamOffset} (the history takes none there
 * later), so a commit below {@code upstreamOffset} translates below {@code downstreamOffset}, or to it when bounded.
 * An offset written for a source offset at or past {@code upstreamOffset} is a translation through syncs made after
 * the rewind.
 *
 * @param upstreamOffset   the source offset of the sync that moved the downstream back
 * @param downstreamOffset its downstream offset: where the mirror went back to
 */
public record MirrorRewind(long upstreamOffset, long downstreamOffset) {

    /** No rewind recorded: outdates nothing. */
    public static final MirrorRewind NONE = new MirrorRewind(-1, -1);

    /**
     * True when an offset written at {@code offset} for source offset {@code sourceOffset} (a commit's, as a
     * destination mark names it) was translated through the syncs this rewind contradicts: it is neither a floor nor
     * a position to keep.
     */
    public boolean outdates(long sourceOffset, long offset) {
        return sourceOffset < upstreamOffset && offset >= downstreamOffset;
    }
}
