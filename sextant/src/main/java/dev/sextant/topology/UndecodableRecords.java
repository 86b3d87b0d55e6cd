package dev.sextant.topology;

import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.deadletter.DeadLetterThrottle;
import dev.sextant.decode.UndecodableRecordException;
import dev.sextant.domain.Reason;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.sync.SyncSettings;
import java.util.List;
import java.util.Optional;

/**
 * Turns input records that cannot be decoded into {@code UNDECODABLE} dead-letter records without flooding the
 * topic: a broker newer than Sextant can write thousands of records of a version it does not know. Every record is
 * counted ({@code sextant.records.undecodable}); per input topic and kind of failure
 * ({@link UndecodableRecordException#signature}) at most one dead-letter record is written per {@link #INTERVAL_MS},
 * and the next one says how many like it were skipped in between.
 *
 * <p>One per instance, shared by its stream threads.
 */
final class UndecodableRecords {

    static final long INTERVAL_MS = DeadLetterThrottle.INTERVAL_MS;

    private final SyncSettings settings;
    private final SextantMetrics metrics;
    private final DeadLetterThrottle throttle = new DeadLetterThrottle();

    UndecodableRecords(SyncSettings settings, SextantMetrics metrics) {
        this.settings = settings;
        this.metrics = metrics;
    }

    /**
     * Counts the record and returns the dead-letter record to write, or empty when one like it was written less
     * than {@link #INTERVAL_MS} ago.
     *
     * @param where     "topic-partition@offset" of the record
     * @param groupKind the dead letter's {@code groupType}, or null when the input says nothing of it
     */
    Optional<DeadLetterRecord> report(String topic, String where, UndecodableRecordException e, String groupKind) {
        metrics.undecodable(topic);
        long now = settings.clock().millis();
        Optional<String> admitted = throttle.admit(topic + "|" + e.problem() + "|" + e.signature(), now);
        if (admitted.isEmpty()) {
            return Optional.empty();
        }
        String detail = "record at " + where + ": " + e.getMessage() + admitted.get();
        String group = e.group().orElse(null);
        return Optional.of(new DeadLetterRecord(group, groupKind, Reason.UNDECODABLE, List.of(), detail, null, now,
                settings.instance()));
    }
}
