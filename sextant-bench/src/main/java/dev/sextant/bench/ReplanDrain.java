package dev.sextant.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether new commits queue behind re-plans, from Sextant's timeline (a line a second, see
 * {@link SextantProbeMain}): over a span, the group writes planned with no new commit behind them
 * ({@code sextant_writes_replanned_total}: bounded positions rewritten exact after a proof, closer syncs, refreshes),
 * and the age of the oldest new commit not yet written ({@code sextant_sync_oldest_pending_age_seconds}, its highest
 * 100 ms snapshot in each second), at its highest over the span and over the seconds in which re-plans were written.
 *
 * @param replannedWrites         re-planned group writes over the span
 * @param secondsWithReplans      timeline seconds in which at least one was written
 * @param oldestMaxSeconds        the oldest new commit's age at its highest over the span
 * @param oldestWhileReplansSeconds the same, over the seconds with re-plans (NaN when there were none)
 */
record ReplanDrain(double replannedWrites, int secondsWithReplans, double oldestMaxSeconds,
                   double oldestWhileReplansSeconds) {

    static final ReplanDrain NONE = new ReplanDrain(Double.NaN, 0, Double.NaN, Double.NaN);

    /** Reads {@code timeline} (JSON lines) for the span {@code (fromMs, toMs]}; {@link #NONE} without one. */
    static ReplanDrain read(Path timeline, long fromMs, long toMs) {
        if (!Files.exists(timeline)) {
            return NONE;
        }
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> lines = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(timeline)) {
                if (!line.isBlank()) {
                    lines.add(json.readTree(line));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + timeline, e);
        }
        return of(lines, fromMs, toMs);
    }

    static ReplanDrain of(List<JsonNode> lines, long fromMs, long toMs) {
        // the count at the span's start: the last line at or before it, else the span's first line
        double start = Double.NaN;
        double last = Double.NaN;
        int withReplans = 0;
        double oldestMax = Double.NaN;
        double oldestWhile = Double.NaN;
        for (JsonNode line : lines) {
            long t = line.path("t").asLong();
            double replanned = line.path("replannedWrites").asDouble(0);
            if (t <= fromMs) {
                start = replanned;
                continue;
            }
            if (t > toMs) {
                break;
            }
            if (Double.isNaN(start)) {
                start = replanned;
            }
            double age = line.path("oldestPendingAgePeak").asDouble(0);
            oldestMax = max(oldestMax, age);
            if (replanned > (Double.isNaN(last) ? start : last)) {
                withReplans++;
                oldestWhile = max(oldestWhile, age);
            }
            last = replanned;
        }
        return Double.isNaN(last) ? NONE : new ReplanDrain(last - start, withReplans, oldestMax, oldestWhile);
    }

    private static double max(double a, double b) {
        return Double.isNaN(a) ? b : Math.max(a, b);
    }
}
