package dev.sextant.history;

import dev.sextant.translate.OffsetSyncPoint;

/**
 * Whether an offset sync may enter the history. Offset syncs are untrusted input: anyone allowed to write
 * MirrorMaker 2's offset-syncs topic steers the offsets Sextant writes, so a sync is taken only when it describes the
 * two logs as they are:
 *
 * <ul>
 *   <li>both offsets non-negative;</li>
 *   <li>the source partition exists and its log reaches the upstream offset (MirrorMaker 2 emits a sync for a record
 *       it has mirrored, so the record exists); the destination partition exists and its log reaches the downstream
 *       offset;</li>
 *   <li>an upstream offset below the partition's newest sync either comes with evidence that the source topic was
 *       recreated: its log end is now below that newest sync, so the old history no longer describes it (reset); or
 *       re-reads history already kept (both offsets behind: skipped); or is MirrorMaker 2 copying records again that
 *       it had copied already (downstream ahead: it restarted from its last committed offset after a crash, and the
 *       duplicates land after the first copies). The first copies' syncs stay right, so that one is skipped too,
 *       counted, never a dead letter. One record's say-so never wipes a partition's history;</li>
 *   <li>an upstream offset at or above the newest sync with a downstream offset behind it says the destination went
 *       back (an unclean leader election truncated the mirror, the mirror topic was recreated): the sync is taken,
 *       and the older syncs whose downstream offsets are at or past its own are contradicted (they point at records
 *       the mirror no longer holds where they said) and forgotten. A forged sync of that shape can only make lagging
 *       groups replay more, never skip: forgetting syncs moves translations down, never up.</li>
 * </ul>
 *
 * The log ends are fetched asynchronously; "fresh" means they were fetched after the sync arrived, so a sync that
 * fresh ends do not cover is refused, and one that older ends do not cover waits for fresh ones; so does every sync
 * below the newest one (only fresh ends can tell a recreated topic), and one whose downstream offset is (the fetch of
 * fresh ends reads the mirror's topic id too: a mirror created again is told from one that went back). Pure.
 */
public final class OffsetSyncCheck {

    public enum Verdict {
        /** Into the history. */
        ACCEPT,
        /** The source topic was recreated: forget the partition's history, then take this sync. */
        RESET_AND_ACCEPT,
        /**
         * The destination went back: forget the syncs below this one whose downstream offsets are at or past its
         * own, then take it.
         */
        REWIND_AND_ACCEPT,
        /** MirrorMaker 2 copying records again after a restart: the first copies' syncs stay; skipped, counted. */
        REMIRRORED,
        /** A sync already in the history, read again (after a restart): nothing to do. */
        ALREADY_KNOWN,
        /** Not a sync of these logs: dead-lettered, never in the history. */
        REJECT,
        /** The known log ends are older than the sync: wait for fresh ones. */
        WAIT_FOR_LOG_ENDS
    }

    public record Result(Verdict verdict, String reason) {

        static final Result ACCEPT = new Result(Verdict.ACCEPT, null);
        static final Result WAIT = new Result(Verdict.WAIT_FOR_LOG_ENDS, null);

        static Result reject(String reason) {
            return new Result(Verdict.REJECT, reason);
        }
    }

    /**
     * The log ends of one source partition and of its mirror, as fetched.
     *
     * @param sourceEnd      the source partition's log end offset, or -1 when the partition does not exist
     * @param destinationEnd the mirror partition's log end offset, or -1 when it does not exist
     * @param fresh          fetched after the sync arrived
     */
    public record LogEnds(long sourceEnd, long destinationEnd, boolean fresh) {
    }

    private OffsetSyncCheck() {
    }

    /**
     * @param newest the partition's newest sync in the history, or null
     * @param ends   the log ends known for the partition, or null when none were fetched yet
     */
    public static Result check(long upstream, long downstream, OffsetSyncPoint newest, LogEnds ends,
                               String destination) {
        if (upstream < 0 || downstream < 0) {
            return Result.reject("negative offset");
        }
        if (ends == null) {
            return Result.WAIT;
        }
        String outside = outsideTheLogs(upstream, downstream, ends, destination);
        if (outside != null) {
            return ends.fresh() ? Result.reject(outside) : Result.WAIT;
        }
        if (newest != null && upstream < newest.upstreamOffset()) {
            // whether the topic was recreated since is a question for fresh ends only
            return ends.fresh() ? belowTheNewest(downstream, newest, ends) : Result.WAIT;
        }
        if (newest != null && downstream < newest.downstreamOffset()) {
            // judged on fresh ends only: their fetch also reads the mirror's topic id, and a mirror created again
            // (not one that went back) forgets the whole history first, this sync then starting the new one
            return ends.fresh() ? new Result(Verdict.REWIND_AND_ACCEPT, "the downstream offset " + downstream
                    + " is behind the newest sync's " + newest.downstreamOffset() + " (upstream "
                    + newest.upstreamOffset() + ") while the upstream offset advanced: the mirror went back")
                    : Result.WAIT;
        }
        return Result.ACCEPT;
    }

    /** What of the sync lies outside the two logs (a partition missing, an offset beyond its end), or null. */
    private static String outsideTheLogs(long upstream, long downstream, LogEnds ends, String destination) {
        if (ends.sourceEnd() < 0) {
            return "the source partition does not exist";
        }
        if (ends.destinationEnd() < 0) {
            return "the destination partition " + destination + " does not exist";
        }
        if (upstream > ends.sourceEnd()) {
            return "upstream offset beyond the source log end " + ends.sourceEnd();
        }
        if (downstream > ends.destinationEnd()) {
            return "downstream offset beyond the destination log end " + ends.destinationEnd();
        }
        return null;
    }

    /** A sync whose upstream offset is below the partition's newest one, judged against fresh log ends. */
    private static Result belowTheNewest(long downstream, OffsetSyncPoint newest, LogEnds ends) {
        if (ends.sourceEnd() < newest.upstreamOffset()) {
            return new Result(Verdict.RESET_AND_ACCEPT, "the source log end " + ends.sourceEnd()
                    + " is below the newest sync " + newest.upstreamOffset() + ": the topic was recreated");
        }
        if (downstream < newest.downstreamOffset()) {
            return new Result(Verdict.ALREADY_KNOWN, null);
        }
        return new Result(Verdict.REMIRRORED, "upstream offset below the newest sync " + newest.upstreamOffset()
                + " with the downstream ahead of its " + newest.downstreamOffset() + ": records copied again");
    }
}
