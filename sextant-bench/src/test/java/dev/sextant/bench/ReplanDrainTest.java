package dev.sextant.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplanDrainTest {

    private final ObjectMapper json = new ObjectMapper();

    private JsonNode line(long t, double replanned, double oldest) {
        return json.createObjectNode().put("t", t).put("replannedWrites", replanned)
                .put("oldestPendingAgePeak", oldest);
    }

    @Test
    void countsTheSpansRePlansAndTheOldestCommitsWaitWhileTheyWereWritten() {
        List<JsonNode> lines = List.of(
                line(1_000, 5, 9.0),     // before the span: its count is the start, its age not counted
                line(2_000, 5, 0.3),
                line(3_000, 40, 0.8),    // re-plans written
                line(4_000, 90, 1.4),    // re-plans written
                line(5_000, 90, 2.5),    // none: the highest age, but not while re-plans were written
                line(6_000, 95, 0.2),
                line(7_000, 200, 7.0));  // after the span
        ReplanDrain drain = ReplanDrain.of(lines, 1_500, 6_000);
        assertEquals(90, drain.replannedWrites());
        assertEquals(3, drain.secondsWithReplans());
        assertEquals(2.5, drain.oldestMaxSeconds());
        assertEquals(1.4, drain.oldestWhileReplansSeconds());
    }

    @Test
    void aSpanWithoutLinesHasNoFigures() {
        assertSame(ReplanDrain.NONE, ReplanDrain.of(List.of(line(1_000, 5, 0.1)), 1_500, 6_000));
        assertEquals(Double.NaN, ReplanDrain.of(List.of(line(2_000, 5, 0.1)), 1_500, 6_000)
                .oldestWhileReplansSeconds());
    }
}
