package dev.sextant.sync;

import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.deadletter.DeadLetterThrottle;
import dev.sextant.domain.GroupKind;
import dev.sextant.domain.Reason;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.state.CutoverRecord;
import dev.sextant.state.Cutovers;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What the sync does with a group that was cut over to the destination ({@code sextant cutover --apply}): it never
 * moves it from the source again. A new commit on the source (a consumer still running there, an {@code assign()}
 * job nobody stopped) is not taken in: it is counted ({@code sextant_positions_refused_total{reason="CUT_OVER"}}) and
 * reported as a {@code CUT_OVER} dead letter, at most one per group per minute. A record of
 * {@code __consumer_offsets} read again after a restart is not a new commit, and is not reported.
 *
 * <p>Invariant: while the group is cut over, its stored positions stay as they were when it was cut over, so
 * {@code /v1/groups/{group}} shows what the destination was given.
 */
final class CutoverHold {

    private final Cutovers cutovers;
    private final SyncSettings settings;
    private final SextantMetrics metrics;
    private final Consumer<DeadLetterRecord> deadLetters;
    private final DeadLetterThrottle throttle = new DeadLetterThrottle();

    CutoverHold(Cutovers cutovers, SyncSettings settings, SextantMetrics metrics,
                Consumer<DeadLetterRecord> deadLetters) {
        this.cutovers = cutovers;
        this.settings = settings;
        this.metrics = metrics;
        this.deadLetters = deadLetters;
    }

    /** True when the group was cut over: the sync leaves it alone. */
    boolean holds(String group) {
        return cutovers.cutOver(group);
    }

    /**
     * A source commit of a cut-over group, not taken in.
     *
     * @param stored    the partition's position as the sync holds it, or null
     * @param logOffset where the commit is in its input (-1: not known)
     */
    void refuse(PositionKey key, GroupKind kind, String typeLabel, long offset, long timestamp, long logOffset,
                PartitionPosition stored) {
        if (stored != null && (logOffset >= 0 && logOffset <= stored.commitLogOffset()
                || offset == stored.sourceOffset() && timestamp == stored.commitTimestamp())) {
            return; // read again after a restart: not a new commit
        }
        Optional<CutoverRecord> cut = cutovers.of(key.group());
        if (cut.isEmpty()) {
            return;
        }
        metrics.refused(kind, Reason.CUT_OVER, 1);
        long now = settings.clock().millis();
        Optional<String> admitted = throttle.admit(key.group(), now);
        if (admitted.isEmpty()) {
            return;
        }
        Long given = cut.get().partitions().stream()
                .filter(p -> p.topic().equals(key.topic()) && p.partition() == key.partition())
                .map(CutoverRecord.Partition::destinationOffset).findFirst().orElse(null);
        metrics.deadLetter(Reason.CUT_OVER);
        deadLetters.accept(new DeadLetterRecord(key.group(), typeLabel, Reason.CUT_OVER,
                List.of(new DeadLetterRecord.PartitionDetail(key.topic(), key.partition(), offset, null, given)),
                "group was cut over to the destination at " + Instant.ofEpochMilli(cut.get().cutAt())
                        + " ('sextant cutover'); this commit on the source is not written there: a consumer still "
                        + "runs against the source, or something commits for it; stop it, or give the group back to "
                        + "the sync with 'sextant cutover --undo --apply'" + admitted.get(),
                timestamp >= 0 ? timestamp : null, now, settings.instance()));
    }
}
