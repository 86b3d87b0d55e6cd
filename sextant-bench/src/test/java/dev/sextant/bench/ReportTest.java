package dev.sextant.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
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
        assertTrue(md.contains("| initial sync: every group on the destination (s) | n/a | 9.0 | 4.5 | n/a | 2.0× |"),
                md);
        assertTrue(md.contains("| p99 sync latency ≤ 1 s at 1,000 groups | p99 900 ms | yes |"), md);
    }

    @Test
    void sextantWithInterpolationOffIsShownBesideSextantAsWhatExactnessCosts() {
        Report.Results r = sample();
        Report.Run sx = r.runs().get(1);
        Map<String, Object> sxDetails = new LinkedHashMap<>(sx.details());
        sxDetails.put("verification_cpu_s", 5.25);
        sxDetails.put("verification_records_read_per_sec", 4081.5);
        sxDetails.put("verification_records_read_per_group_commit", 12.5);
        Map<String, Object> offDetails = new LinkedHashMap<>(sx.details());
        offDetails.put("verification_cpu_s", 0.0);
        offDetails.put("verification_records_read_per_sec", 0.0);
        offDetails.put("verification_records_read_per_group_commit", 0.0);
        Report.Latency offLatency = new Report.Latency(400.0, 700.0, 900.0);
        Report.Run off = new Report.Run("sextant-interpolation-off", "sync", 1000, 4, null, offLatency, offLatency,
                4.0, false, null, null, 38.0, new Report.Replay(99L, 99L), 14.5, 240.0, offDetails);
        Report.Results withOff = new Report.Results(r.date(), r.command(), r.machine(), r.settings(),
                List.of(r.runs().get(0), withDetails(sx, sxDetails), off), r.targets(), r.timingsS(), r.notes());

        String md = Report.markdown(withOff, List.of("sextant", "sextant-interpolation-off", "mm2-1s"));

        assertTrue(md.contains("| figure | Sextant, verified | Sextant, interpolation off |"), md);
        assertTrue(md.contains("| sync latency p99 | 900 ms | 700 ms |"), md);
        assertTrue(md.contains("| replay, caught-up / lagging groups (max records) | 60 / 99 | 99 / 99 |"), md);
        assertTrue(md.contains("| CPU seconds | 20.0 | 14.5 |"), md);
        assertTrue(md.contains("| of which proving intervals (CPU s) | 5.25 | 0.00 |"), md);
        assertTrue(md.contains("| records read to prove intervals, per group commit (approximate) | 12.5 | 0.0 |"),
                md);
        assertTrue(md.contains("| sync latency p50 | n/a | 1.5 s | 480 ms | n/a | 3.1× |"), md); // the main table
        assertFalse(Report.markdown(r, List.of("sextant", "mm2-1s")).contains("What exactness costs"));
    }

    @Test
    void lowerBoundsAreMarked() {
        Report.Results r = sample();
        Report.Run mm2 = r.runs().get(0);
        Report.Run censored = new Report.Run(mm2.system(), mm2.scenario(), mm2.groups(), mm2.partitions(), null,
                new Report.Latency(1500.0, 150_000.0, 160_000.0, List.of("p99", "max")), null, null, null, null, null,
                80.0, mm2.replayRecords(), 30.0, 300.0, mm2.details());
        String md = Report.markdown(new Report.Results(r.date(), r.command(), r.machine(), r.settings(),
                List.of(censored, r.runs().get(1)), r.targets(), r.timingsS(), r.notes()), List.of("sextant"));
        assertTrue(md.contains("| sync latency p99 | n/a | ≥ 150 s | 900 ms | n/a | ≥ 167× |"), md);
    }

    @Test
    void markdownStatesTheModeAndEachSystemsOwnSpanWhenSequential() {
        Report.Results r = sample();
        Map<String, Object> mm2Details = new LinkedHashMap<>(r.runs().get(0).details());
        mm2Details.put("mode", "sequential");
        mm2Details.put("measured_s", 130.0);
        mm2Details.put("load_average_1m_start", 0.5);
        mm2Details.put("load_average_1m_end", 1.25);
        Map<String, Object> sxDetails = new LinkedHashMap<>(r.runs().get(1).details());
        sxDetails.put("mode", "sequential");
        sxDetails.put("load_average_1m_start", 0.25);
        sxDetails.put("load_average_1m_end", 0.75);
        String md = Report.markdown(new Report.Results(r.date(), r.command(), r.machine(),
                Map.of("mode", "sequential"), List.of(withDetails(r.runs().get(0), mm2Details),
                withDetails(r.runs().get(1), sxDetails)), r.targets(), r.timingsS(), r.notes()), List.of("sextant"));
        assertTrue(md.contains("Mode **sequential**: at each scale each system ran alone on the machine, one after the "
                + "other (sextant, then mm2-1s)"), md);
        assertTrue(md.contains("mm2-1s 130.0 s (load 0.5 → 1.25); sextant 100.0 s (load 0.25 → 0.75)"), md);
        // still one table per scale with the systems side by side
        assertTrue(md.contains("| sync latency p50 | n/a | 1.5 s | 480 ms | n/a | 3.1× |"), md);

        String sideBySide = Report.markdown(r, List.of("sextant"));
        assertTrue(sideBySide.contains("Mode **side-by-side**"), sideBySide);
        assertTrue(sideBySide.contains("Measured over 100.0 s, all systems at once."), sideBySide);
        assertFalse(sideBySide.contains("no longer running"), sideBySide); // not said without the figure
    }

    @Test
    void markdownShowsSextantsHeapAndADeadSextant() {
        Report.Results r = sample();
        Map<String, Object> d = new LinkedHashMap<>(r.runs().get(1).details());
        BenchResults.heapDetails(d, new SextantChild.Heap(200.4, 120.6, 180.0, 256), false, true);
        String md = Report.markdown(new Report.Results(r.date(), r.command(), r.machine(), r.settings(),
                List.of(r.runs().get(0), withDetails(r.runs().get(1), d)), r.targets(), r.timingsS(), r.notes()),
                List.of("sextant"));
        assertTrue(md.contains("| peak heap used (MiB) | n/a | n/a | 200 | n/a | n/a |"), md);
        assertTrue(md.contains("| peak heap after GC, old generation (MiB) | n/a | n/a | 121 | n/a | n/a |"), md);
        assertTrue(md.contains("Sextant ran out of memory and exited during this run."), md);
        assertTrue(md.contains("Sextant's heap: -Xmx 256 MiB;"), md);
    }

    @Test
    void throughputHasOneColumnPerThreadCount() throws Exception {
        Report.Results r = sample();
        List<Report.Run> runs = new ArrayList<>(r.runs());
        runs.add(throughputRun(1, 14_511.0, 120.0));
        runs.add(throughputRun(2, 21_000.0, 150.0));
        Report.Results withTp = new Report.Results(r.date(), r.command(), r.machine(), r.settings(), runs,
                r.targets(), r.timingsS(), r.notes());
        String md = Report.markdown(withTp, List.of("sextant"));
        assertTrue(md.contains("| figure | Sextant, 1 stream thread | Sextant, 2 stream threads |\n|---|---:|---:|"),
                md);
        assertTrue(md.contains("| offset commits read/s (first read to the total, or to the 90 s time-out) | 14,511 "
                + "| 21,000 |"), md);
        assertTrue(md.contains("| peak heap used / after GC / -Xmx (MiB) | 200 / 120 / 256 | 200 / 150 / 256 |"), md);
        JsonNode json = Report.json().readTree(Report.json().writeValueAsBytes(withTp));
        JsonNode two = json.path("runs").get(3);
        assertEquals("throughput", two.path("scenario").asText());
        assertEquals(2, two.path("threads").asInt());
        assertEquals(21_000.0, two.path("commits_per_sec").asDouble());
        for (String field : List.of("peak_heap_used_mb", "peak_heap_after_gc_mb", "heap_max_mb")) {
            assertTrue(two.path("details").has(field), field);
        }
    }

    @Test
    void theThroughputTargetUsesTheOneThreadRunAndMentionsTheOthers() {
        ThroughputScenario.Outcome one = BenchFixtures.throughput(1, 40_000);
        ThroughputScenario.Outcome two = BenchFixtures.throughput(2, 110_000);
        List<Report.Target> targets = Targets.of(BenchSettingsTest.settings(), List.of(), List.of(two, one));
        Report.Target t = targets.stream().filter(x -> x.target().startsWith("≥ 100,000")).findFirst().orElseThrow();
        assertEquals("40,000 commits/s with 1 stream thread (1,000,000 of 1,000,000 read in 25 s); "
                + "2 stream threads: 110,000 commits/s", t.measured());
        assertFalse(t.met());
    }

    @Test
    void theHeapTargetNeedsALiveSextantAtTenThousandGroupsWithALiveSetWithin256MiB() {
        assertNull(Targets.heap(List.of(), 10_000, 10, 256).met());
        assertEquals("no 10,000-group run", Targets.heap(List.of(), 10_000, 10, 256).measured());

        Report.Target ok = Targets.heap(List.of(sextantAt10000(10, new SextantChild.Heap(250, 140, 200, 256),
                true, false)), 10_000, 10, 256);
        assertTrue(ok.met());
        assertEquals("peak after GC 140 MiB, peak used 250 MiB, -Xmx 256 MiB (8000 caught-up groups × 10 partitions "
                + "+ 2000 lagging × 1)", ok.measured());

        Report.Target oom = Targets.heap(List.of(sextantAt10000(10, new SextantChild.Heap(255, 240, 250, 256),
                false, true)), 10_000, 10, 256);
        assertFalse(oom.met());
        assertTrue(oom.measured().startsWith("Sextant ran out of memory and exited; "), oom.measured());

        Report.Target dead = Targets.heap(List.of(sextantAt10000(10, SextantChild.Heap.UNKNOWN, false,
                false)), 10_000, 10, 256);
        assertFalse(dead.met());

        Report.Target big = Targets.heap(List.of(sextantAt10000(10, new SextantChild.Heap(600, 300, 400,
                1024), true, false)), 10_000, 10, 256);
        assertFalse(big.met());

        // no old-generation collection: the heap after young GCs bounds the live set
        Report.Target young = Targets.heap(List.of(sextantAt10000(10, new SextantChild.Heap(180, Double.NaN,
                90, 256), true, false)), 10_000, 10, 256);
        assertTrue(young.met());
        assertTrue(young.measured().startsWith("no old-generation collection ran (heap after young GCs at most 90 "
                + "MiB)"), young.measured());

        Report.Target fewPartitions = Targets.heap(List.of(sextantAt10000(4, new SextantChild.Heap(180, 100,
                90, 256), true, false)), 10_000, 10, 256);
        assertNull(fewPartitions.met());
    }

    private static Report.Run sextantAt10000(int partitions, SextantChild.Heap heap, boolean alive, boolean oom) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("caught_up_groups", 8000);
        d.put("lagging_groups", 2000);
        d.put("lag_partitions", 1);
        BenchResults.heapDetails(d, heap, alive, oom);
        return new Report.Run("sextant", "sync", 10_000, partitions, null, null, null, null, null, null, null, null,
                null, null, null, d);
    }

    private static Report.Run throughputRun(int threads, double perSec, double afterGc) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("commits", 1_000_000L);
        d.put("rounds", 10);
        d.put("commits_read", 1_000_000L);
        d.put("read_timeout_s", 90);
        d.put("drained", true);
        BenchResults.heapDetails(d, new SextantChild.Heap(200, afterGc, 190, 256), true, false);
        return new Report.Run("sextant", "throughput", 1000, 100, null, null, null, null, null, perSec, threads, 160.0,
                null, 100.0, 700.0, d);
    }

    private static Report.Run withDetails(Report.Run x, Map<String, Object> details) {
        return new Report.Run(x.system(), x.scenario(), x.groups(), x.partitions(), x.failed(), x.syncLatencyMs(),
                x.steadyLatencyMs(), x.initialSyncS(), x.initialSyncLowerBound(), x.commitsPerSec(), x.threads(),
                x.adminRequestsPerSec(), x.replayRecords(), x.cpuS(), x.peakRssMb(), details);
    }

    private static Report.Results sample() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("caught_up_groups", 800);
        details.put("lagging_groups", 200);
        details.put("lag_partitions", 1);
        details.put("measured_s", 100.0);
        Report.Latency sxLatency = new Report.Latency(480.0, 900.0, 1200.0);
        Report.Run sextant = new Report.Run("sextant", "sync", 1000, 4, null, sxLatency, sxLatency, 4.5, false, null,
                null, 40.0, new Report.Replay(60L, 99L), 20.0, 250.0, details);
        Report.Latency mm2Latency = new Report.Latency(1500.0, 3000.0, 4000.0);
        Report.Run mm2 = new Report.Run("mm2-1s", "sync", 1000, 4, null, mm2Latency, mm2Latency, 9.0, false, null,
                null, 80.0, new Report.Replay(600L, 25_000L), 30.0, 300.0, details);
        Report.Machine machine = new Report.Machine(2, 24_000, "AMD EPYC", "17", "Linux", 1.0, 1.5, "");
        return new Report.Results("2026-01-01T00:00Z", "bench/run --quick", machine, Map.of(), List.of(mm2, sextant),
                List.of(new Report.Target("p99 sync latency ≤ 1 s at 1,000 groups", "p99 900 ms", true)),
                Map.of(), List.of("a note"));
    }
}
