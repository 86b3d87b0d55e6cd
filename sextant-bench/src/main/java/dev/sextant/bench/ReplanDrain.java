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
 * the seconds in which they drained (at least half of that second's group writes were re-plans), how long the
 * caught-up groups' commits made in those seconds took to reach the destination, and the age of the oldest new
 * commit not yet written ({@code sextant_sync_oldest_pending_age_seconds}, its highest 100 ms snapshot in each second)
 * at its highest over the span.
 *
 * @param replannedWrites   re-planned group writes over the span
 * @param drainSeconds      timeline seconds in which re-plans were at least half of the group writes
 * @param oldestMaxSeconds  the oldest new commit's age at its highest over the span
 * @param commitsInDrain    caught-up commits made in those seconds
 * @param latencyInDrainMs  the longest any of them took (NaN when there were none)
 */
record ReplanDrain(double replannedWrites, int drainSeconds, double oldestMaxSeconds, int commitsInDrain,
                   double latencyInDrainMs) {

    static final ReplanDrain NONE = new ReplanDrain(Double.NaN, 0, Double.NaN, 0, Double.NaN);

    /**
     * Reads {@code timeline} (JSON lines) for the span {@code (fromMs, toMs]}; {@link #NONE} without one.
     *
     * @param made each commit of a caught-up group: {when it was made (epoch ms), its latency (ms)}
     */
    static ReplanDrain read(Path timeline, long fromMs, long toMs, List<long[]> made) {
        return Files.exists(timeline) ? of(lines(timeline), fromMs, toMs, made) : NONE;
    }

    /** The timeline's lines (JSON, one a second), in order; blank lines left out. */
    static List<JsonNode> lines(Path timeline) {
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
        return lines;
    }

    static ReplanDrain of(List<JsonNode> lines, long fromMs, long toMs, List<long[]> made) {
        // the counts at the span's start: the last line at or before it, else the span's first line
        double[] start = null;
        double[] last = null;
        long lastT = fromMs;
        List<long[]> drains = new ArrayList<>();
        double oldestMax = Double.NaN;
        for (JsonNode line : lines) {
            long t = line.path("t").asLong();
            double[] now = {line.path("replannedWrites").asDouble(0), writes(line)};
            if (t <= fromMs || start == null) {
                start = now;
                lastT = Math.max(lastT, t);
                if (t <= fromMs) {
                    continue;
                }
            }
            if (t > toMs) {
                break;
            }
            double[] before = last == null ? start : last;
            double replans = now[0] - before[0];
            oldestMax = max(oldestMax, line.path("oldestPendingAgePeak").asDouble(0));
            if (replans > 0 && replans >= (now[1] - before[1]) / 2) {
                drains.add(new long[] {lastT, t});
            }
            last = now;
            lastT = t;
        }
        if (last == null) {
            return NONE;
        }
        List<long[]> inDrain = made.stream()
                .filter(commit -> drains.stream().anyMatch(d -> commit[0] > d[0] && commit[0] <= d[1])).toList();
        return new ReplanDrain(last[0] - start[0], drains.size(), oldestMax, inDrain.size(),
                inDrain.stream().mapToDouble(commit -> commit[1]).max().orElse(Double.NaN));
    }

    private static double max(double a, double b) {
        return Double.isNaN(a) ? b : Math.max(a, b);
    }

    /** Group writes planned so far (Sextant's own count of its alter calls). */
    private static double writes(JsonNode line) {
        JsonNode calls = line.path("adminRequests");
        return calls.path("alterConsumerGroupOffsets").asDouble(0) + calls.path("alterShareGroupOffsets").asDouble(0);
    }
}
