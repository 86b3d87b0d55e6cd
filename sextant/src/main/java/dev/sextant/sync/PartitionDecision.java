package dev.sextant.sync;

import dev.sextant.apply.DestinationGroup;
import dev.sextant.apply.DestinationView.PartitionPresence;
import dev.sextant.apply.GroupGuard;
import dev.sextant.apply.StreamsGroupSupport;
import dev.sextant.domain.GroupKind;
import dev.sextant.domain.LogRange;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionStatus;
import dev.sextant.translate.OffsetTranslation;
import java.util.Optional;

/**
 * What a flush does with one pending partition of a group, from what is known of it: its position (with what the
 * destination holds, {@link PartitionPosition#appliedOffset()}), its translation, the group's guard and whether the
 * destination has the partition. The checks run in this order, and the first that applies decides:
 *
 * <ol>
 *   <li>nothing to apply and no bounded translation a newer sync could improve: {@link Verdict#SETTLE};</li>
 *   <li>no translation: {@link Verdict#PARK} as {@code UNTRANSLATABLE} when there is something to apply, its old
 *       translation dropped (made through syncs the history forgot since, it is neither served nor written), else
 *       {@link Verdict#SETTLE} (an applied position keeps what it has);</li>
 *   <li>an applied position whose new translation, kept within the mirror partition's log, is no better than what
 *       the destination holds: {@link Verdict#SETTLE};</li>
 *   <li>a guard on the group: {@link Verdict#GUARDED}, or {@link Verdict#WAIT} while it is not known yet
 *       ({@link Guard#UNKNOWN});</li>
 *   <li>the destination partition: unknown to the view, or its log end not known yet, {@link Verdict#WAIT}; absent
 *       {@link Verdict#PARK} as {@code TOPIC_NOT_MIRRORED}; present {@link Verdict#PLAN}.</li>
 * </ol>
 *
 * <p>What is planned is written inside the mirror partition's log ({@link LogRange#clamp}, through
 * {@link dev.sextant.apply.TranslatedPosition#within}): a consumer committed beyond the end would skip the records
 * producers append there after a promotion.
 *
 * Pure: the caller applies the verdict (store, pending set, backoffs).
 */
final class PartitionDecision {

    enum Verdict {
        /**
         * Write the translation now. The position carries it; the partition stays pending until the destination's
         * answer settles it.
         */
        PLAN,
        /**
         * Nothing left to do until the partition changes again (a new commit, or a newer sync for a bounded
         * translation): it leaves the pending set, and its position is what it was.
         */
        SETTLE,
        /**
         * Waits on something outside Sextant, an offset sync covering the offset ({@code UNTRANSLATABLE}) or the
         * mirror topic ({@code TOPIC_NOT_MIRRORED}): the status is recorded and the partition is looked at again a
         * little later, not at every flush.
         */
        PARK,
        /**
         * The group's guard refuses any write: the guard's status is recorded, the partition stays pending, and the
         * whole group backs off. Never planned against a guard.
         */
        GUARDED,
        /**
         * The view has not looked the destination partition up yet (it does at its next refresh): the translation is
         * recorded and the partition stays pending for the next flush.
         */
        WAIT
    }

    /** What stands in the way of every write of a group, as the destination view shows it. */
    enum Guard {
        NONE(null),
        /** The group exists on the destination as another type: a group is never written over another type. */
        TYPE_CONFLICT(PositionStatus.TYPE_CONFLICT),
        /** The group has members on the destination: its offsets are left alone until it is empty. */
        GROUP_ACTIVE(PositionStatus.GROUP_ACTIVE),
        /** A Kafka Streams group the destination cannot take ({@link dev.sextant.apply.StreamsGroupSupport}). */
        DESTINATION_UNSUPPORTED(PositionStatus.DESTINATION_UNSUPPORTED),
        /**
         * A Kafka Streams group while the destination's features are not read yet: nothing is written, nothing is
         * reported, and the group is looked at again at the next flush.
         */
        UNKNOWN(null);

        private final PositionStatus status;

        Guard(PositionStatus status) {
            this.status = status;
        }

        /** The guard on a group of type {@code type} that the destination lists as {@code there}. */
        static Guard of(Optional<DestinationGroup> there, GroupKind type) {
            return switch (GroupGuard.judge(there, type)) {
                case NONE -> NONE;
                case TYPE_CONFLICT -> TYPE_CONFLICT;
                case GROUP_ACTIVE -> GROUP_ACTIVE;
            };
        }

        /**
         * The guard on a Kafka Streams group that the destination group itself does not guard ({@link #of} gave
         * {@link #NONE}): whether the destination takes streams groups at all.
         */
        static Guard ofStreams(StreamsGroupSupport support) {
            return switch (support.verdict()) {
                case SUPPORTED -> NONE;
                case REFUSED -> DESTINATION_UNSUPPORTED;
                case UNKNOWN -> UNKNOWN;
            };
        }
    }

    /**
     * @param verdict what to do with the partition
     * @param next    its position after the decision: equal to the one decided on when nothing changes
     */
    record Result(Verdict verdict, PartitionPosition next) {
    }

    private PartitionDecision() {
    }

    /**
     * True when the position has something to apply, or an applied bounded translation a newer sync may bring
     * closer: only then is a translation worth looking up.
     */
    static boolean wantsTranslation(PartitionPosition pos) {
        return pos.needsApply() || pos.status() == PositionStatus.APPLIED && (pos.bound() > 0 || pos.clamped());
    }

    /**
     * @param translation the position's translation now, or empty when no offset sync covers it (or none was looked
     *                    up: {@link #wantsTranslation})
     * @param presence    whether the destination has the partition; read only with a translation, so it may be null
     *                    without one
     * @param log         the destination partition's log as the view knows it (an end of -1: not known yet)
     */
    static Result decide(PartitionPosition pos, Optional<OffsetTranslation> translation, Guard guard,
                         PartitionPresence presence, LogRange log, long now) {
        if (!wantsTranslation(pos)) {
            return settle(pos);
        }
        if (translation.isEmpty()) {
            return pos.needsApply() ? new Result(Verdict.PARK,
                    pos.withoutTranslation().withStatus(PositionStatus.UNTRANSLATABLE, now)) : settle(pos);
        }
        OffsetTranslation t = translation.get();
        if (!pos.needsApply() && log.clamp(t.destinationOffset()) <= pos.appliedOffset()) {
            return settle(pos);
        }
        PartitionPosition translated = pos.withTranslation(t);
        if (guard == Guard.UNKNOWN) {
            return new Result(Verdict.WAIT, translated);
        }
        if (guard != Guard.NONE) {
            return new Result(Verdict.GUARDED, translated.withStatus(guard.status, now));
        }
        return switch (presence) {
            case UNKNOWN -> new Result(Verdict.WAIT, translated);
            case ABSENT -> new Result(Verdict.PARK, translated.withStatus(PositionStatus.TOPIC_NOT_MIRRORED, now));
            case PRESENT -> new Result(log.end() < 0 ? Verdict.WAIT : Verdict.PLAN, translated);
        };
    }

    private static Result settle(PartitionPosition pos) {
        return new Result(Verdict.SETTLE, pos);
    }
}
