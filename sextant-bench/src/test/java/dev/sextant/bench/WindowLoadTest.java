package dev.sextant.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class WindowLoadTest {

    private final ObjectMapper json = new ObjectMapper();

    private JsonNode line(long t, double writes, double wire, double limit, double age) {
        ObjectNode line = json.createObjectNode().put("t", t).put("wireAdminRequests", wire);
        line.putObject("adminRequests").put("alterConsumerGroupOffsets", writes);
        line.putObject("writes").put("destination.write.limit", limit).put("sync.oldest.pending.age", age);
        return line;
    }

    @Test
    void aBacklogThatGrowsThroughTheWindowHasASlopeNearOne() {
        List<JsonNode> lines = List.of(
                line(0, 0, 0, 4, 0),            // before the window
                line(1_000, 100, 250, 6, 0.5),
                line(2_000, 600, 1_250, 8, 1.5),
                line(3_000, 1_100, 2_250, 8, 2.5),
                line(4_000, 1_600, 3_250, 10, 3.5),
                line(9_000, 9_000, 99_000, 16, 0)); // after it
        WindowLoad load = WindowLoad.of(lines, 1_000, 4_000);
        assertEquals(500, load.writesPerSec(), 1e-9);
        assertEquals(2.0, load.wireRequestsPerWrite(), 1e-9);
        assertEquals(8, load.writeLimitMean(), 1e-9);
        assertEquals(1.0, load.pendingAgeSlope(), 1e-9);
        assertEquals(3.5, load.pendingAgeEndSeconds(), 1e-9);
        assertEquals(3.5, load.pendingAgeMaxSeconds(), 1e-9);
    }

    @Test
    void keepingUpIsAFlatAge() {
        List<JsonNode> lines = List.of(line(1_000, 0, 0, 8, 0.2), line(2_000, 100, 220, 8, 0.3),
                line(3_000, 200, 440, 8, 0.2));
        WindowLoad load = WindowLoad.of(lines, 1_000, 3_000);
        assertEquals(0, load.pendingAgeSlope(), 1e-9);
        assertEquals(2.2, load.wireRequestsPerWrite(), 1e-9);
    }

    @Test
    void fewerThanTwoLinesSayNothing() {
        assertSame(WindowLoad.NONE, WindowLoad.of(List.of(line(1_000, 0, 0, 4, 0)), 1_000, 3_000));
    }
}
