package dev.sextant.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TargetsTest {

    @Test
    void everyTargetIsListedAndOneWhoseScaleDidNotRunIsNotMeasured() {
        List<Report.Target> targets = Targets.of(BenchSettingsTest.settings(), List.of(), List.of());
        assertEquals(List.of("steady-state p99 ≤ 1 s at 1,000 groups", "steady-state p99 ≤ 1 s at 10,000 groups",
                "initial sync ≤ 15 s for 10,000 groups", "heap ≤ 256 MiB at 10,000 groups × 10 partitions",
                "initial sync ≤ 60 s for 100,000 groups", "steady-state p99 ≤ 2 s at 100,000 groups",
                "heap ≤ 512 MiB at 100,000 groups × 2 partitions", "peak RSS ≤ 1 GiB at 100,000 groups",
                "≥ 100,000 offset commits/s per instance", "with two stream threads no slower than with one",
                "replay ≤ offset.lag.max for every group at any lag",
                "replay 0 where a later sync exists (caught-up and lagging groups)",
                "a new commit is not queued behind re-plans: commits made while re-planned writes drain reach the "
                        + "destination within 1 s",
                "Admin requests scale with groups changed, not commits"),
                targets.stream().map(Report.Target::target).toList());
        assertTrue(targets.stream().allMatch(t -> t.met() == null), targets.toString());
        assertEquals("no 100,000-group run", targets.get(4).measured());
    }

    @Test
    void oneHundredThousandGroupsMeetTheirTargetsFromTheMeasurements() {
        Report.Run ok = sextant(100_000, 2, null, 45.0, false, 1_500.0, 300, 900.0);
        List<Report.Run> runs = List.of(ok);
        assertEquals("45.0 s", Targets.initialSync(runs, 100_000, 60).measured());
        assertTrue(Targets.initialSync(runs, 100_000, 60).met());
        assertTrue(Targets.latency(runs, 100_000, 2_000).met());
        assertEquals("p99 1.5 s (p50 500 ms), 2 caught-up partitions per group",
                Targets.latency(runs, 100_000, 2_000).measured());
        assertTrue(Targets.heap(runs, 100_000, 2, 512).met());
        assertTrue(Targets.rss(runs, 100_000, 2, 1_024).met());
        assertEquals("900 MB (VmHWM; 2 partitions, -Xmx 512 MiB)", Targets.rss(runs, 100_000, 2, 1_024).measured());

        List<Report.Run> big = List.of(sextant(100_000, 2, null, 75.0, false, 2_500.0, 600, 1_100.0));
        assertFalse(Targets.initialSync(big, 100_000, 60).met());
        assertFalse(Targets.latency(big, 100_000, 2_000).met());
        assertFalse(Targets.heap(big, 100_000, 2, 512).met());
        assertFalse(Targets.rss(big, 100_000, 2, 1_024).met());

        // one partition holds fewer positions than the target's shape
        List<Report.Run> thin = List.of(sextant(100_000, 1, null, 45.0, false, 1_500.0, 300, 900.0));
        assertNull(Targets.heap(thin, 100_000, 2, 512).met());
        assertNull(Targets.rss(thin, 100_000, 2, 1_024).met());
    }

    @Test
    void theInitialSyncOfTenThousandGroupsIsHeldTo15Seconds() {
        assertFalse(Targets.initialSync(List.of(sextant(10_000, 10, null, 19.0, false, 900.0, 120, 480.0)), 10_000,
                15).met());
        assertTrue(Targets.initialSync(List.of(sextant(10_000, 10, null, 12.0, false, 900.0, 120, 480.0)), 10_000,
                15).met());
        // a lower bound above the limit: not met; within it (the wait ended first): not measured
        Report.Target over = Targets.initialSync(List.of(sextant(10_000, 10, null, 20.0, true, 900.0, 120, 480.0)),
                10_000, 15);
        assertFalse(over.met());
        assertEquals("≥ 20.0 s", over.measured());
        assertNull(Targets.initialSync(List.of(sextant(10_000, 10, null, 10.0, true, 900.0, 120, 480.0)), 10_000,
                15).met());
    }

    @Test
    void aFailedRunMissesItsTargetsWhenSextantFailedAndIsNotMeasuredWhenTheHarnessDid() {
        Report.Run own = sextant(100_000, 2, "Sextant ran out of memory and exited 30 s after the syncers were ready",
                30.0, true, null, 510, 1_000.0);
        own.details().put("failed_by", SyncScenario.BY_SYSTEM);
        own.details().put("out_of_memory", true);
        own.details().put("alive_at_end", false);
        Report.Target latency = Targets.latency(List.of(own), 100_000, 2_000);
        assertFalse(latency.met());
        assertTrue(latency.measured().startsWith("failed: Sextant ran out of memory"), latency.measured());
        assertFalse(Targets.initialSync(List.of(own), 100_000, 60).met());
        assertFalse(Targets.heap(List.of(own), 100_000, 2, 512).met());
        assertFalse(Targets.rss(List.of(own), 100_000, 2, 1_024).met());

        Report.Run harness = sextant(100_000, 2, "the harness failed during the run: 3 commits failed", null, null,
                null, 200, 700.0);
        harness.details().put("failed_by", SyncScenario.BY_HARNESS);
        assertNull(Targets.latency(List.of(harness), 100_000, 2_000).met());
        assertNull(Targets.heap(List.of(harness), 100_000, 2, 512).met());
        assertNull(Targets.rss(List.of(harness), 100_000, 2, 1_024).met());
    }

    @Test
    void twoStreamThreadsMustReadAtLeastAsFastAsOne() {
        Report.Target faster = Targets.threads(
                List.of(BenchFixtures.throughput(1, 16_696), BenchFixtures.throughput(2, 20_949)));
        assertTrue(faster.met());
        assertEquals("2 stream threads: 20,949 commits/s; 1 stream thread: 16,696 commits/s (×1.25)",
                faster.measured());
        assertFalse(Targets.threads(
                List.of(BenchFixtures.throughput(1, 20_000), BenchFixtures.throughput(2, 15_000))).met());
        assertNull(Targets.threads(List.of(BenchFixtures.throughput(1, 20_000))).met());
        ThroughputScenario.Outcome died = BenchFixtures.throughput(2, Double.NaN);
        died.failed = "Sextant ran out of memory and exited";
        died.failedBy = SyncScenario.BY_SYSTEM;
        assertFalse(Targets.threads(List.of(BenchFixtures.throughput(1, 20_000), died)).met());
    }

    @Test
    void aFailedSystemsColumnSaysSoAndTheJsonCarriesTheReason() throws Exception {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("caught_up_groups", 160);
        d.put("lagging_groups", 40);
        d.put("lag_partitions", 1);
        d.put("mode", "side-by-side");
        d.put("measured_s", null);
        d.put("failed_by", SyncScenario.BY_SYSTEM);
        d.put("log", "/tmp/x/startup-failure.txt");
        String reason = "MirrorMaker 2 exited during startup (java.lang.OutOfMemoryError: Java heap space)";
        Report.Run mm2 = new Report.Run("mm2-1s", "sync", 200, 2, reason, null, null, null, null, null, null, null,
                null, null, null, d);
        Report.Run sx = sextant(200, 2, null, 3.0, false, 400.0, 40, 230.0);
        sx.details().put("measured_s", 25.0);
        Report.Results r = new Report.Results("2026-01-01T00:00Z", "bench/run", new Report.Machine(2, 1, "cpu", "17",
                "Linux", 1, 1, ""), Map.of(), List.of(mm2, sx), List.of(), Map.of(), List.of());
        String md = Report.markdown(r, List.of("mm2-1s", "sextant"));
        assertTrue(md.contains("| run | n/a | failed: " + reason + " | completed | | |"), md);
        assertTrue(md.contains("| initial sync: every group on the destination (s) | n/a | n/a | 3.0 | n/a | n/a |"),
                md);
        assertTrue(md.contains("**mm2-1s failed**: " + reason), md);
        assertTrue(md.contains("Measured over 25.0 s, all systems at once."), md);
        JsonNode json = Report.json().readTree(Report.json().writeValueAsBytes(r));
        assertEquals(reason, json.path("runs").get(0).path("failed").asText());
        assertTrue(json.path("runs").get(1).has("failed"));
        assertTrue(json.path("runs").get(1).path("failed").isNull());
    }

    @Test
    void theChartCopesWithFailedAndEmptyRuns(@TempDir Path dir) throws Exception {
        Path png = dir.resolve("c.png");
        Charts.write(png, "t", List.of(new Charts.Cdf("mm2-1s", 200, new double[0], true),
                new Charts.Cdf("sextant", 200, new double[] {100, 200, 300}, false),
                new Charts.Cdf("sextant", 100_000, new double[] {300, 5_000}, true)), List.of(), 100,
                List.of(1_000, 10_000, 100_000), List.of("mm2-1s, 200 groups (MirrorMaker 2 exited during startup)"));
        assertTrue(Files.size(png) > 0);
    }

    /** A Sextant sync run with the figures the targets read (heap after GC and RSS in MiB / MB). */
    private static Report.Run sextant(int groups, int partitions, String failed, Double initialS, Boolean lower,
                                      Double p99, double afterGc, Double rss) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("caught_up_groups", groups * 4 / 5);
        d.put("lagging_groups", groups / 5);
        d.put("lag_partitions", 1);
        BenchResults.heapDetails(d, new SextantChild.Heap(afterGc + 100, afterGc, afterGc + 50, 512), true, false);
        Report.Latency l = p99 == null ? null : new Report.Latency(500.0, p99, p99 + 100);
        return new Report.Run("sextant", "sync", groups, partitions, failed, l, l, initialS, lower, null, null, null,
                null, null, rss, d);
    }
}
