package dev.sextant.state;

import dev.sextant.translate.OffsetTranslation;
import dev.sextant.translate.Precision;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * What Sextant knows of one partition of one group: the source position, its latest translation and what the
 * destination holds. {@code -1} stands for "none" in every offset and time field.
 *
 * <p>Invariant: the position needs a write on the destination while {@code appliedSourceOffset != sourceOffset} or
 * the status is retried ({@link PositionStatus#retried()}); the store is changelogged, so a restart loses no pending
 * position.
 */
public record PartitionPosition(
        long sourceOffset,
        long commitTimestamp,
        long translatedOffset,
        long bound,
        long appliedOffset,
        long appliedSourceOffset,
        long appliedAt,
        long pendingSince,
        PositionStatus status,
        long commitLogOffset) {

    private static final byte FORMAT = 1;
    /** Format 1 as first written; {@code commitLogOffset} was appended to it later, and is -1 where it is absent. */
    private static final int SIZE_WITHOUT_LOG_OFFSET = 1 + 8 * 8 + 1;
    private static final int SIZE = SIZE_WITHOUT_LOG_OFFSET + 8;
    /**
     * The status byte is the index in this table, not the enum's ordinal: a new status is appended here (wherever it
     * sits in the enum), so a byte already stored keeps its meaning. Frozen as commit 15fc7f1 wrote the ordinals; two
     * statuses had been inserted mid-enum before (3079068, 47df44a), so a position stored by a build older than those
     * in one of the statuses after TYPE_CONFLICT reads as another one (docs/operations.md, "What an upgrade keeps").
     */
    private static final PositionStatus[] STATUS_CODES = {
        PositionStatus.PENDING, PositionStatus.APPLIED, PositionStatus.UNTRANSLATABLE,
        PositionStatus.TOPIC_NOT_MIRRORED, PositionStatus.GROUP_ACTIVE, PositionStatus.TYPE_CONFLICT,
        PositionStatus.DESTINATION_UNSUPPORTED, PositionStatus.SOURCE_CHANGED, PositionStatus.DESTINATION_DIVERGED,
        PositionStatus.REWIND_SKIPPED, PositionStatus.SUPERSEDED};
    /** {@link #STATUS_CODES} inverted, for the write path (every position written); -1: a status without a code. */
    private static final byte[] CODE_BY_ORDINAL = new byte[PositionStatus.values().length];

    static {
        Arrays.fill(CODE_BY_ORDINAL, (byte) -1);
        for (int code = 0; code < STATUS_CODES.length; code++) {
            CODE_BY_ORDINAL[STATUS_CODES[code].ordinal()] = (byte) code;
        }
    }

    /** A position whose commit's place in {@code __consumer_offsets} is not known. */
    public PartitionPosition(long sourceOffset, long commitTimestamp, long translatedOffset, long bound,
                             long appliedOffset, long appliedSourceOffset, long appliedAt, long pendingSince,
                             PositionStatus status) {
        this(sourceOffset, commitTimestamp, translatedOffset, bound, appliedOffset, appliedSourceOffset, appliedAt,
                pendingSince, status, -1);
    }

    public static PartitionPosition committed(long sourceOffset, long commitTimestamp) {
        return committed(sourceOffset, commitTimestamp, -1);
    }

    /**
     * @param commitLogOffset where the commit is in {@code __consumer_offsets} (one partition holds a group, so it
     *                        orders the group's commits), -1 when not known (share positions)
     */
    public static PartitionPosition committed(long sourceOffset, long commitTimestamp, long commitLogOffset) {
        return new PartitionPosition(sourceOffset, commitTimestamp, -1, -1, -1, -1, -1, -1, PositionStatus.PENDING,
                commitLogOffset);
    }

    /** A new source commit: keeps what the destination holds, forgets the old translation. */
    public PartitionPosition withCommit(long offset, long timestamp) {
        return withCommit(offset, timestamp, -1);
    }

    /** A new source commit, at {@code logOffset} in {@code __consumer_offsets} (-1: not known). */
    public PartitionPosition withCommit(long offset, long timestamp, long logOffset) {
        return new PartitionPosition(offset, timestamp, -1, -1, appliedOffset, appliedSourceOffset, appliedAt,
                pendingSince, PositionStatus.PENDING, logOffset);
    }

    public PartitionPosition withTranslation(OffsetTranslation translation) {
        return new PartitionPosition(sourceOffset, commitTimestamp, translation.destinationOffset(),
                translation.bound(), appliedOffset, appliedSourceOffset, appliedAt, pendingSince, status,
                commitLogOffset);
    }

    /**
     * The translation forgotten (no offset sync covers the commit any more), what the destination holds kept: nothing
     * serves a translation through syncs the history forgot.
     */
    public PartitionPosition withoutTranslation() {
        return new PartitionPosition(sourceOffset, commitTimestamp, -1, -1, appliedOffset, appliedSourceOffset,
                appliedAt, pendingSince, status, commitLogOffset);
    }

    public PartitionPosition withStatus(PositionStatus newStatus, long now) {
        long since = newStatus.retried() && newStatus != PositionStatus.PENDING
                ? (pendingSince < 0 ? now : pendingSince) : -1;
        return new PartitionPosition(sourceOffset, commitTimestamp, translatedOffset, bound, appliedOffset,
                appliedSourceOffset, appliedAt, since, newStatus, commitLogOffset);
    }

    /**
     * The destination settled on {@code destinationOffset} for source offset {@code forSourceOffset} (applied, or
     * kept for a rewind that is not followed). If the source moved on meanwhile, the position is pending again.
     */
    public PartitionPosition settled(long destinationOffset, long forSourceOffset, PositionStatus outcome, long now) {
        return settled(destinationOffset, forSourceOffset, outcome, true, now);
    }

    /**
     * As {@link #settled(long, long, PositionStatus, long)}, where {@code written} says whether the destination's
     * commit time moved. {@code appliedAt} is when the destination last took the offset, which its retention counts
     * from: an offset found already there keeps the time it was written at (when this position wrote that offset),
     * else it counts as written long ago (0), so the refresh writes it at its next scan instead of a retention late.
     */
    public PartitionPosition settled(long destinationOffset, long forSourceOffset, PositionStatus outcome,
                                     boolean written, long now) {
        PositionStatus next = forSourceOffset == sourceOffset ? outcome : PositionStatus.PENDING;
        long at = written || outcome != PositionStatus.APPLIED ? now
                : appliedOffset == destinationOffset && appliedAt >= 0 ? appliedAt : 0;
        return new PartitionPosition(sourceOffset, commitTimestamp, translatedOffset, bound, destinationOffset,
                forSourceOffset, at, -1, next, commitLogOffset);
    }

    /**
     * Planned again though its source offset did not move (the history it was translated through was forgotten):
     * nothing of the old translation is kept, neither the translation nor the offset applied through it, so nothing
     * serves it (a re-seeded mirror's old offsets point into a log that is gone); it needs applying.
     */
    public PartitionPosition reopened() {
        return new PartitionPosition(sourceOffset, commitTimestamp, -1, -1, -1, -1, -1, -1,
                PositionStatus.PENDING, commitLogOffset);
    }

    public boolean needsApply() {
        return appliedSourceOffset != sourceOffset || status.retried();
    }

    /**
     * True when the destination holds less than the translation because the translation lay beyond the mirror's log
     * end when it was written: it is written again, closer, as the mirror catches up.
     */
    public boolean clamped() {
        return status == PositionStatus.APPLIED && appliedSourceOffset == sourceOffset && appliedOffset >= 0
                && appliedOffset < translatedOffset;
    }

    public boolean hasTranslation() {
        return translatedOffset >= 0;
    }

    public Precision precision() {
        return bound == 0 ? Precision.EXACT : Precision.BOUNDED;
    }

    public byte[] toBytes() {
        return ByteBuffer.allocate(SIZE).put(FORMAT)
                .putLong(sourceOffset).putLong(commitTimestamp).putLong(translatedOffset).putLong(bound)
                .putLong(appliedOffset).putLong(appliedSourceOffset).putLong(appliedAt).putLong(pendingSince)
                .put(statusCode(status)).putLong(commitLogOffset).array();
    }

    public static PartitionPosition fromBytes(byte[] raw) {
        ByteBuffer buf = ByteBuffer.wrap(raw);
        byte format = buf.get();
        if (format != FORMAT) {
            throw new IllegalStateException("unknown position format " + format);
        }
        return new PartitionPosition(buf.getLong(), buf.getLong(), buf.getLong(), buf.getLong(), buf.getLong(),
                buf.getLong(), buf.getLong(), buf.getLong(), status(buf.get()),
                raw.length >= SIZE ? buf.getLong() : -1); // written before the field was appended: not known
    }

    /** The stored byte of {@code status}: its index in {@link #STATUS_CODES}. */
    static byte statusCode(PositionStatus status) {
        byte code = CODE_BY_ORDINAL[status.ordinal()];
        if (code < 0) {
            throw new IllegalStateException("position status " + status + " has no code in PartitionPosition");
        }
        return code;
    }

    private static PositionStatus status(byte code) {
        if (code < 0 || code >= STATUS_CODES.length) {
            throw new IllegalStateException("unknown position status " + code);
        }
        return STATUS_CODES[code];
    }
}
