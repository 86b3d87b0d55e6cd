package dev.sextant.apply;

import dev.sextant.domain.LogRange;
import dev.sextant.domain.MirrorRewind;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import org.apache.kafka.common.TopicPartition;

/**
 * A source position and where it translates to on the destination, before it meets the mirror partition's log: the
 * one way to a {@link PlannedPartition}, for the sync and for every command that writes ({@code failover},
 * {@code adopt}).
 *
 * <p>What {@link #within} plans: the translation kept inside the destination partition's log ({@link LogRange#clamp}),
 * with the records between the translation and the log end it was held back to added to the replay bound (they are
 * replays once mirrored, never skips); the commit the mark names (source offset, commit time, the commit's place in
 * {@code __consumer_offsets}), which the guards compare with what the destination holds; and whether it is the very
 * write applied before, made again on purpose.
 *
 * @param commitTimestamp     when the source commit was made, -1 when not known
 * @param commitLogOffset     where the source commit is in {@code __consumer_offsets}, -1 when not known
 * @param bound               the translation's replay bound, -1 when not known
 * @param appliedSourceOffset the source offset Sextant applied last for the partition, -1 for none
 * @param appliedOffset       the destination offset it applied then, -1 for none
 */
public record TranslatedPosition(PositionKey key, TopicPartition destination, long sourceOffset, long commitTimestamp,
                                 long commitLogOffset, long translatedOffset, long bound, long appliedSourceOffset,
                                 long appliedOffset) {

    /** A position the sync keeps, with its translation and what it applied before. */
    public static TranslatedPosition of(PositionKey key, TopicPartition destination, PartitionPosition pos) {
        return new TranslatedPosition(key, destination, pos.sourceOffset(), pos.commitTimestamp(),
                pos.commitLogOffset(), pos.translatedOffset(), pos.bound(), pos.appliedSourceOffset(),
                pos.appliedOffset());
    }

    /** A translation a command holds (read through the history, or from a running instance), applied by no one. */
    public static TranslatedPosition of(PositionKey key, TopicPartition destination, long sourceOffset,
                                        long commitTimestamp, long translatedOffset, long bound) {
        return new TranslatedPosition(key, destination, sourceOffset, commitTimestamp, -1, translatedOffset, bound,
                -1, -1);
    }

    /** The write of this translation into the destination partition's log as {@code log} says it lies. */
    public PlannedPartition within(LogRange log) {
        return within(log, MirrorRewind.NONE);
    }

    /**
     * As {@link #within(LogRange)}, translated through a history that recorded the mirror partition going back at
     * {@code rewind}: what the destination holds through the syncs it contradicts is no floor to the write.
     */
    public PlannedPartition within(LogRange log, MirrorRewind rewind) {
        long offset = log.clamp(translatedOffset);
        long held = Math.max(0, translatedOffset - offset);
        long writtenBound = bound < 0 && held == 0 ? bound : Math.max(0, bound) + held;
        // the same commit at the same offset as applied before: planned again on purpose (a refresh before the
        // destination's retention deletes it, or it vanished), so written even if it is there
        boolean again = appliedSourceOffset >= 0 && appliedSourceOffset == sourceOffset && appliedOffset == offset;
        return new PlannedPartition(key, destination, sourceOffset, commitTimestamp, offset, writtenBound,
                commitLogOffset, again, appliedOffset, rewind);
    }

    /** True when the translation lies beyond the log's end, and is written at the end. */
    public boolean beyond(LogRange log) {
        return log.end() >= 0 && translatedOffset > log.end();
    }

    /**
     * What Sextant applied for the partition and expects the destination to hold: the applied offset, for the
     * applier to compare with what is there ({@link GroupApplier#overwritten}); never written.
     */
    public PlannedPartition applied() {
        return new PlannedPartition(key, destination, sourceOffset, commitTimestamp, appliedOffset, -1,
                commitLogOffset, false, appliedOffset);
    }
}
