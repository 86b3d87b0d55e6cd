package dev.sextant.apply;

import dev.sextant.domain.MirrorRewind;
import dev.sextant.state.PositionKey;
import org.apache.kafka.common.TopicPartition;

/**
 * One partition of a group to write: where its source position translates to on the destination, inside the mirror
 * partition's log. Made only by {@link TranslatedPosition#within} (and {@link TranslatedPosition#applied} for what
 * stands), so every write the sync or a command sends is planned the same way.
 *
 * @param bound           the translation's replay bound, written into Sextant's mark; -1 when not known
 * @param commitLogOffset where the source commit is in {@code __consumer_offsets}, written into the mark to order
 *                        commits by the log rather than by the coordinator's clock; -1 when not known
 * @param again           Sextant applied this very commit at this offset before and writes it again on purpose
 *                        (before the destination's offsets retention deletes it, or after it vanished): written even
 *                        when the destination holds that offset, which renews the offset's commit time there
 * @param appliedOffset   the destination offset Sextant applied last for the partition, -1 for none (or not known to
 *                        the writer): share offsets carry no mark, so this is what tells a share start offset Sextant
 *                        left from one someone else moved ({@link ShareGroupApplier})
 * @param rewind          where the mirror partition last went back, as the history the plan was translated through
 *                        recorded it ({@link MirrorRewind#NONE}: never, or not known to the one who planned): an
 *                        offset of Sextant's the destination holds that it outdates is written over, whatever else
 *                        it says (see {@link GroupWrite})
 */
public record PlannedPartition(PositionKey key, TopicPartition destination, long sourceOffset, long commitTimestamp,
                               long translatedOffset, long bound, long commitLogOffset, boolean again,
                               long appliedOffset, MirrorRewind rewind) {

    /** A write of a partition Sextant applied nothing for, as far as the writer knows, and of no known rewind. */
    public PlannedPartition(PositionKey key, TopicPartition destination, long sourceOffset, long commitTimestamp,
                            long translatedOffset, long bound, long commitLogOffset, boolean again) {
        this(key, destination, sourceOffset, commitTimestamp, translatedOffset, bound, commitLogOffset, again, -1,
                MirrorRewind.NONE);
    }

    /** A plan that knows of no rewind of the mirror partition (tests: Sextant plans through TranslatedPosition). */
    public PlannedPartition(PositionKey key, TopicPartition destination, long sourceOffset, long commitTimestamp,
                            long translatedOffset, long bound, long commitLogOffset, boolean again,
                            long appliedOffset) {
        this(key, destination, sourceOffset, commitTimestamp, translatedOffset, bound, commitLogOffset, again,
                appliedOffset, MirrorRewind.NONE);
    }

    /** A plan of a partition Sextant applied nothing for, as far as the writer knows. */
    public PlannedPartition(PositionKey key, TopicPartition destination, long sourceOffset, long commitTimestamp,
                            long translatedOffset, long bound, long commitLogOffset, boolean again,
                            MirrorRewind rewind) {
        this(key, destination, sourceOffset, commitTimestamp, translatedOffset, bound, commitLogOffset, again, -1,
                rewind);
    }
}
