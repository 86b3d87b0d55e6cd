package dev.sextant.topology;

import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.decode.UndecodableRecordException;
import dev.sextant.domain.Reason;
import dev.sextant.metrics.SextantMetrics;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

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

    static final long INTERVAL_MS = 60_000;

    private record Window(long startedAt, long suppressed) {
    }

    private final SyncSettings settings;
    private final SextantMetrics metrics;
    private final Map<String, Window> windows = new ConcurrentHashMap<>();

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
        Window[] previous = {null};
        boolean[] write = {false};
        windows.compute(topic + "|" + e.problem() + "|" + e.signature(), (k, w) -> {
            if (w == null || now - w.startedAt() >= INTERVAL_MS) {
                previous[0] = w;
                write[0] = true;
                return new Window(now, 0);
            }
            return new Window(w.startedAt(), w.suppressed() + 1);
        });
        if (!write[0]) {
            return Optional.empty();
        }
        Window before = previous[0];
        String detail = "record at " + where + ": " + e.getMessage() + (before != null && before.suppressed() > 0
                ? " (and " + before.suppressed() + " more like it since " + Instant.ofEpochMilli(before.startedAt())
                        + ", counted but not written here)" : "");
        String group = e.group().orElse(null);
        return Optional.of(new DeadLetterRecord(group, groupKind, Reason.UNDECODABLE, List.of(), detail, null, now,
                settings.instance()));
    }
}
