package dev.sextant.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What the commit window asked of Sextant's write path and whether it kept up, from its timeline (a line a second, see
 * {@link SextantProbeMain}) over the window: group writes a second (its own count of {@code alterConsumerGroupOffsets}
 * calls), wire requests per group write (every request its destination Admin clients sent, reads and coordinator
 * lookups included, over those writes), the adaptive write limit on average, and the age of the oldest new commit
 * not yet written: its least-squares slope over the window (seconds of age per second: about 0 while Sextant keeps
 * up, about 1 while a backlog grows without end) and its value at the window's end.
 *
 * @param writesPerSec        group writes per second over the window
 * @param wireRequestsPerWrite wire requests of the destination Admin clients per group write (NaN without writes)
 * @param writeLimitMean      the adaptive write limit, mean of the window's lines
 * @param pendingAgeSlope     the oldest pending commit's age, least-squares slope over the window (s/s)
 * @param pendingAgeEndSeconds the oldest pending commit's age in the window's last line
 * @param pendingAgeMaxSeconds and at its highest in the window
 */
record WindowLoad(double writesPerSec, double wireRequestsPerWrite, double writeLimitMean, double pendingAgeSlope,
                  double pendingAgeEndSeconds, double pendingAgeMaxSeconds) {

    static final WindowLoad NONE = new WindowLoad(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
            Double.NaN);

    /** Reads {@code timeline} (JSON lines) over {@code [fromMs, toMs]}; {@link #NONE} without one. */
    static WindowLoad read(Path timeline, long fromMs, long toMs) {
        return Files.exists(timeline) ? of(ReplanDrain.lines(timeline), fromMs, toMs) : NONE;
    }

    static WindowLoad of(List<JsonNode> lines, long fromMs, long toMs) {
        List<JsonNode> in = lines.stream().filter(l -> l.path("t").asLong() >= fromMs && l.path("t").asLong() <= toMs)
                .toList();
        if (in.size() < 2) {
            return NONE;
        }
        JsonNode first = in.get(0);
        JsonNode last = in.get(in.size() - 1);
        double seconds = (last.path("t").asLong() - first.path("t").asLong()) / 1000.0;
        double writes = writes(last) - writes(first);
        double wire = last.path("wireAdminRequests").asDouble(-1) - first.path("wireAdminRequests").asDouble(-1);
        double limitSum = 0;
        double ageMax = 0;
        // least squares of age over time (seconds from the window's start)
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        for (JsonNode line : in) {
            double x = (line.path("t").asLong() - fromMs) / 1000.0;
            double y = age(line);
            sx += x;
            sy += y;
            sxx += x * x;
            sxy += x * y;
            limitSum += line.path("writes").path("destination.write.limit").asDouble(0);
            ageMax = Math.max(ageMax, y);
        }
        int n = in.size();
        double denominator = n * sxx - sx * sx;
        double slope = denominator == 0 ? Double.NaN : (n * sxy - sx * sy) / denominator;
        return new WindowLoad(seconds > 0 ? writes / seconds : Double.NaN, writes > 0 ? wire / writes : Double.NaN,
                limitSum / n, slope, age(last), ageMax);
    }

    private static double age(JsonNode line) {
        return line.path("writes").path("sync.oldest.pending.age").asDouble(0);
    }

    private static double writes(JsonNode line) {
        JsonNode calls = line.path("adminRequests");
        return calls.path("alterConsumerGroupOffsets").asDouble(0) + calls.path("alterShareGroupOffsets").asDouble(0);
    }
}
