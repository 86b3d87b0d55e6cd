package dev.sextant.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReportTest {

    @Test
    void ratioIsMm2OverSextantForLowerIsBetterFigures() {
        assertEquals("120×", Report.ratio(60_000.0, 500.0));
        assertEquals("12×", Report.ratio(6_000.0, 500.0));
        assertEquals("2.0×", Report.ratio(1_000.0, 500.0));
        assertEquals("0.50×", Report.ratio(250.0, 500.0));
        assertEquals("∞", Report.ratio(5.0, 0.0));
        assertEquals("1×", Report.ratio(0.0, 0.0));
        assertEquals("n/a", Report.ratio(null, 1.0));
        assertEquals("n/a", Report.ratio(1.0, Double.NaN));
    }

    @Test
    void durationsAndRounding() {
        assertEquals("250 ms", Report.duration(250));
        assertEquals("1.5 s", Report.duration(1_500));
        assertEquals("120 s", Report.duration(120_000));
        assertEquals(1.23, Report.round(1.234, 2));
        assertEquals(null, Report.round(Double.NaN, 1));
    }

    @Test
    void jsonHasTheAgreedFieldNamesWithNullsWhereAFigureDoesNotApply() throws Exception {
        Report.Results results = sample();
        JsonNode json = Report.json().readTree(Report.json().writeValueAsBytes(results));
        JsonNode run = json.path("runs").get(1); // sextant
        for (String field : List.of("system", "groups", "partitions", "sync_latency_ms", "commits_per_sec",
                "admin_requests_per_sec", "replay_records", "cpu_s", "peak_rss_mb")) {
            assertTrue(run.has(field), field);
        }
        assertTrue(run.path("commits_per_sec").isNull());
        assertEquals(480.0, run.path("sync_latency_ms").path("p50").asDouble());
        assertEquals(60, run.path("replay_records").path("caught_up_max").asLong());
        assertTrue(json.path("machine").has("load_average_1m_start"));
        assertTrue(json.path("machine").has("cpu_model"));
    }

    @Test
    void markdownHasOneRowPerFigureWithRatios() {
        String md = Report.markdown(sample(), List.of("sextant", "mm2-1s"));
        assertTrue(md.contains("| sync latency p50 | n/a | 1.5 s | 480 ms | n/a | 3.1× |"), md);
        assertTrue(md.contains("| replay, caught-up groups (max records) | n/a | 600 | 60 | n/a | 10× |"), md);
        assertTrue(md.contains("MM2 default was not run"), md);
        assertTrue(md.contains("| initial sync: every group on the destination (s) | n/a | 9.0 | 4.5 | n/a | 2.0× |"), md);
        assertTrue(md.contains("| p99 sync latency ≤ 1 s at 1,000 groups | p99 900 ms | yes |"), md);
    }

    @Test
    void lowerBoundsAreMarked() {
        Report.Results r = sample();
        Report.Run mm2 = r.runs().get(0);
        Report.Run censored = new Report.Run(mm2.system(), mm2.scenario(), mm2.groups(), mm2.partitions(),
                new Report.Latency(1500.0, 150_000.0, 160_000.0, List.of("p99", "max")), null, null, null, null, null,
                80.0, mm2.replayRecords(), 30.0, 300.0, mm2.details());
        String md = Report.markdown(new Report.Results(r.date(), r.command(), r.machine(), r.settings(),
                List.of(censored, r.runs().get(1)), r.targets(), r.timingsS(), r.notes()), List.of("sextant"));
        assertTrue(md.contains("| sync latency p99 | n/a | ≥ 150 s | 900 ms | n/a | ≥ 167× |"), md);
    }

    private static Report.Results sample() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("caught_up_groups", 800);
        details.put("lagging_groups", 200);
        details.put("lag_partitions", 1);
        details.put("measured_s", 100.0);
        Report.Latency sxLatency = new Report.Latency(480.0, 900.0, 1200.0);
        Report.Run sextant = new Report.Run("sextant", "sync", 1000, 4, sxLatency, sxLatency, 4.5, false, null, null,
                40.0, new Report.Replay(60L, 99L), 20.0, 250.0, details);
        Report.Latency mm2Latency = new Report.Latency(1500.0, 3000.0, 4000.0);
        Report.Run mm2 = new Report.Run("mm2-1s", "sync", 1000, 4, mm2Latency, mm2Latency, 9.0, false, null, null,
                80.0, new Report.Replay(600L, 25_000L), 30.0, 300.0, details);
        Report.Machine machine = new Report.Machine(2, 24_000, "AMD EPYC", "17", "Linux", 1.0, 1.5, "");
        return new Report.Results("2026-01-01T00:00Z", "bench/run --quick", machine, Map.of(), List.of(mm2, sextant),
                List.of(new Report.Target("p99 sync latency ≤ 1 s at 1,000 groups", "p99 900 ms", true)),
                Map.of(), List.of("a note"));
    }
}
