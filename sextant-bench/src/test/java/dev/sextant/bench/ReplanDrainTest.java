package dev.sextant.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplanDrainTest {

    private final ObjectMapper json = new ObjectMapper();

    private JsonNode line(long t, double replanned, double writes, double oldest) {
        ObjectNode line = json.createObjectNode().put("t", t).put("replannedWrites", replanned)
                .put("oldestPendingAgePeak", oldest);
        line.putObject("adminRequests").put("alterConsumerGroupOffsets", writes);
        return line;
    }

    @Test
    void theCommitsMadeWhileRePlansWereMostOfTheWritesAreTimed() {
        List<JsonNode> lines = List.of(
                line(1_000, 5, 100, 9.0),     // before the span: its counts are the start, its age not counted
                line(2_000, 5, 200, 0.3),
                line(3_000, 40, 1_200, 2.5),  // 35 re-plans of 1,000 writes: new commits' burst, not a drain
                line(4_000, 90, 1_260, 1.4),  // 50 of 60: a drain, (3,000, 4,000]
                line(5_000, 90, 1_300, 0.5),  // none
                line(6_000, 95, 1_305, 0.2),  // 5 of 5: a drain, (5,000, 6,000]
                line(7_000, 200, 1_400, 7.0)); // after the span
        List<long[]> made = List.of(new long[] {2_500, 3_000}, new long[] {3_100, 400}, new long[] {3_900, 650},
                new long[] {4_500, 5_000}, new long[] {5_001, 300}, new long[] {6_500, 9_000});
        ReplanDrain drain = ReplanDrain.of(lines, 1_500, 6_000, made);
        assertEquals(90, drain.replannedWrites());
        assertEquals(2, drain.drainSeconds());
        assertEquals(2.5, drain.oldestMaxSeconds());
        assertEquals(3, drain.commitsInDrain());
        assertEquals(650, drain.latencyInDrainMs());
    }

    @Test
    void aSpanWithoutLinesHasNoFiguresAndOneWithoutRePlansNoDrain() {
        assertSame(ReplanDrain.NONE, ReplanDrain.of(List.of(line(1_000, 5, 10, 0.1)), 1_500, 6_000, List.of()));
        ReplanDrain none = ReplanDrain.of(List.of(line(2_000, 5, 10, 0.1), line(3_000, 5, 20, 0.4)), 1_500, 6_000,
                List.of(new long[] {2_500, 100}));
        assertEquals(0, none.drainSeconds());
        assertEquals(0.4, none.oldestMaxSeconds());
        assertEquals(0, none.commitsInDrain());
        assertEquals(Double.NaN, none.latencyInDrainMs());
    }
}
