package dev.sextant.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SweepReportTest {

    private final ObjectMapper json = new ObjectMapper();

    /** A rate run's results as bench/run writes them: Sextant's sync run, the source's calls, the bare writer. */
    private JsonNode rateRun(int rate, double sourceP99, double p99, double writes, double slope, double end,
                             double idleWrites, double bare) {
        ObjectNode r = json.createObjectNode();
        r.putObject("settings").put("commit_rate", rate).putArray("scales").add(10_000);
        ObjectNode run = r.putArray("runs").addObject().put("system", "sextant").put("scenario", "sync");
        run.putObject("steady_latency_ms").put("p50", p99 / 3).put("p99", p99);
        ObjectNode d = run.putObject("details").put("window_group_commits_per_sec", rate)
                .put("window_group_writes_per_sec", writes).put("window_pending_age_slope", slope)
                .put("window_pending_age_end_s", end).put("idle_recommits", 8_000)
                .put("idle_recommit_destination_writes", idleWrites);
        d.putObject("source_commit_call_ms").put("p50", sourceP99 / 4).put("p99", sourceP99);
        d.putObject("bare_writer").put("best_writes_per_sec", bare);
        return r;
    }

    private List<String> missed(JsonNode report) {
        List<String> out = new ArrayList<>();
        report.path("targets").forEach(t -> {
            if (!t.path("met").asBoolean()) {
                out.add(t.path("target").asText());
            }
        });
        return out;
    }

    @Test
    void theP99TargetHoldsOnlyWhereTheSourceAnswersItsOwnCommitsUnderASecond() {
        JsonNode report = SweepReport.of(List.of(rateRun(500, 400, 900, 500, 0, 0.3, 0, 4_000),
                rateRun(2_000, 2_600, 9_000, 1_900, 0.01, 1.5, 0, 4_000)), json);
        assertEquals(List.of(), missed(report), "2,000/s: the source's own p99 is 2.6 s, so no p99 target there");
        assertTrue(SweepReport.markdown(report).contains("| 2000 |"));
    }

    @Test
    void aGrowingBacklogAndWritesBelowTheCeilingMissTheirTargets() {
        JsonNode report = SweepReport.of(List.of(rateRun(250, 200, 700, 250, 0, 0.2, 3, 4_000),
                rateRun(2_000, 2_600, 60_000, 900, 0.9, 55, 0, 4_000)), json);
        assertEquals(List.of("idle recommits cost no destination write at 250/s", "keeps up at 2000 group commits/s",
                "group writes/s at the highest rate (2000/s) >= 80% of the bare writer's, or all the commits asked "
                        + "for"), missed(report));
    }
}
