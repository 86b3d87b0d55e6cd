package dev.sextant.apply;

import java.util.OptionalLong;

/**
 * Whether the destination's offset is a floor a planned write must not go below: it is Sextant's exact translation
 * ({@code b=0} in its mark) of the planned commit or of an older one, and the plan lies below it. A pure verdict.
 *
 * <p>Why it holds: the mark says record S of the source partition is at D on the mirror. The plan's commit C is at or
 * after S (the mark's commit is not newer, and S &le; C), so the consumer read every record before C, S among them
 * when S &lt; C: on the mirror it resumes at or after D, never below. A plan below D is a bounded translation made
 * without the proof the exact one had (a restart, a state wipe or a task that moved lost it; the proof is in
 * memory): written, it would move the destination back and replay records the destination already held past. Kept,
 * the destination stays at D, with a bound of C - S (0 for the same commit).
 *
 * <p>Where the floor is not kept: a mark that is not exact (or predates {@code b=}), a mark of a newer commit (the
 * guard of superseded writes decides), a source offset above the plan's (a rewind of the source: {@code sync.rewind}
 * decides), and an exact plan below an exact mark (the two disagree: the mirror changed under them; the ordinary
 * rules decide). The mark describes the log it was written on: deleting a mirror topic deletes its committed offsets
 * with it, so a recreated mirror never carries an old floor; a mirror that went back under the same topic id (an
 * unclean leader election truncated it) keeps them, and a mark written through the syncs that rewind contradicts is
 * no floor either ({@link dev.sextant.domain.MirrorRewind#outdates}: {@link GroupWrite} writes over it before asking
 * here).
 */
final class ExactFloor {

    private ExactFloor() {
    }

    /**
     * @param mark        the mark of the offset the destination holds for the partition
     * @param heldOffset  that offset
     * @param part        the planned write
     * @return the replay bound of keeping {@code heldOffset} for the plan's commit; empty when the plan is written
     *         (or refused) by the ordinary rules
     */
    static OptionalLong keep(OffsetOwnership.Mark mark, long heldOffset, PlannedPartition part) {
        boolean exactMark = mark.bound() == 0;
        boolean below = part.translatedOffset() < heldOffset;
        boolean planExact = part.bound() == 0;
        boolean notNewer = !mark.newerThan(part) && mark.sourceOffset() <= part.sourceOffset();
        if (!exactMark || !below || planExact || !notNewer) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(part.sourceOffset() - mark.sourceOffset());
    }
}
