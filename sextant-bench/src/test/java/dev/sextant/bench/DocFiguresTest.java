package dev.sextant.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark figures the README and {@code docs/} quote are the committed results' ({@code bench/results}): each
 * tied to its file by a marker, none written without one. After a benchmark run {@code bench/run} rewrites them;
 * by hand: {@code mvn -pl sextant-bench test -Dtest=DocFiguresTest -Ddocs.figures.update=true}.
 */
class DocFiguresTest {

    private static final Path REPO = Path.of("").toAbsolutePath().getParent();

    @Test
    void everyQuotedFigureIsTheCommittedResults() throws IOException {
        DocFigures figures = new DocFigures(REPO.resolve("bench/results"));
        boolean update = Boolean.getBoolean("docs.figures.update");
        List<Object> problems = new ArrayList<>();
        int markers = 0;
        for (Path doc : DocFigures.documents(REPO)) {
            if (update) {
                figures.update(doc);
            }
            problems.addAll(figures.check(doc));
            problems.addAll(DocFigures.untied(doc));
            markers += (int) DocFigures.MARKER.matcher(Files.readString(doc)).results().count();
        }
        assertTrue(problems.isEmpty(), () -> "figures that are not the results' (run this test with "
                + "-Ddocs.figures.update=true to rewrite the tied ones):\n" + String.join("\n",
                problems.stream().map(Object::toString).toList()));
        assertTrue(markers >= 20, "the README's benchmark table alone ties more figures than " + markers);
    }

    /**
     * The README's paragraph on what is not met and the "Not met" list of bench/README.md's latest run name every
     * target the latest results files mark missed, and nothing else.
     */
    @Test
    void everyMissedTargetIsListedAsNotMet() throws IOException {
        MissedTargets targets = MissedTargets.of(REPO.resolve("bench/results"));
        assertTrue(targets.missed().size() >= 5, targets.missed().toString());
        String readme = Files.readString(REPO.resolve("README.md"));
        String bench = Files.readString(REPO.resolve("bench/README.md"));
        List<String> problems = new ArrayList<>();
        problems.addAll(targets.problems("README.md", MissedTargets.section(readme, "Not met on this machine")));
        problems.addAll(targets.problems("bench/README.md", MissedTargets.section(
                bench.substring(bench.indexOf("**Latest full run**")), "- **Not met:**")));
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void aMissedTargetLeftOutOrAStaleOneIsReported(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("latest.json"), """
                {"targets": [
                  {"target": "p99 within 2 s at 100,000 groups", "measured": "7.3 s", "met": false},
                  {"target": "replay 0 where a later sync exists", "measured": "4,437 of 51,208", "met": false},
                  {"target": "initial sync within 60 s", "measured": "40.8 s", "met": true},
                  {"target": "heap", "measured": "not run", "met": null}
                ]}""");
        Files.writeString(dir.resolve("2026-01-01.json"), """
                {"targets": [{"target": "an old run's miss", "measured": "", "met": false}]}""");
        MissedTargets targets = MissedTargets.of(dir);
        assertEquals(2, targets.missed().size(), targets.missed().toString());
        String doc = """
                Intro.

                Not met: <!--missed latest.json: p99 within 2 s-->the p99, and <!--missed latest.json: initial
                sync-->the initial sync.

                More.""";
        List<String> problems = targets.problems("doc", MissedTargets.section(doc, "Not met"));
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("<!--missed latest.json: initial\nsync--> names no target"),
                problems.get(0));
        assertTrue(problems.get(1).contains("doc leaves out a target latest.json marks missed: 'replay 0 where a "
                + "later sync exists'"), problems.get(1));
        assertEquals(List.of(), targets.problems("doc", doc.replace("initial\nsync", "replay 0 where a later")));
    }

    @Test
    void aFigureThatDiffersFromItsResultsIsReportedAndRewritten(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("latest.json"), """
                {"runs": [
                  {"system": "sextant", "scenario": "sync", "groups": 1000, "failed": null, "initial_sync_s": 4.6,
                   "sync_latency_ms": {"p50": 445.6, "p99": 4110.3, "max": 161719.1, "lower_bounds": ["max"]},
                   "replay_records": {"caught_up_max": 411561}, "peak_rss_mb": 481.0},
                  {"system": "mm2-1s", "scenario": "sync", "groups": 100000, "failed": "not running",
                   "initial_sync_s": null},
                  {"system": "sextant", "scenario": "throughput", "groups": 1000, "threads": 2,
                   "commits_per_sec": 86524.0}
                ]}""");
        Path doc = dir.resolve("doc.md");
        Files.writeString(doc, """
                p99 <!--fig sextant/sync/1000 sync_latency_ms.p99 ms-->0.67 s, p50 \
                <!--fig sextant/sync/1000 sync_latency_ms.p50 ms-->446 ms
                | <!--fig sextant/sync/1000 replay_records.caught_up_max count-->411,561 | \
                <!--fig sextant/sync/1000 sync_latency_ms.max ms-->162 s | \
                <!--fig mm2-1s/sync/100000 initial_sync_s s-->n/a |
                <!--fig sextant/throughput/1000/2 commits_per_sec count-->86,524 commits/s, \
                <!--fig sextant/sync/1000 peak_rss_mb mb-->481 MB
                """);
        DocFigures figures = new DocFigures(dir);

        List<DocFigures.Stale> stale = figures.check(doc);

        assertEquals(List.of("0.67 s", "162 s", "n/a"), stale.stream().map(DocFigures.Stale::written).toList());
        assertEquals(List.of("4.1 s", "≥ 162 s", "failed"), stale.stream().map(DocFigures.Stale::expected).toList());
        assertTrue(figures.update(doc));
        assertTrue(figures.check(doc).isEmpty());
        assertTrue(Files.readString(doc).startsWith("p99 <!--fig sextant/sync/1000 sync_latency_ms.p99 ms-->4.1 s, "));
        assertFalse(figures.update(doc), "nothing left to rewrite");
    }

    @Test
    void aFigureWithoutAMarkerIsReported(@TempDir Path dir) throws IOException {
        Path doc = dir.resolve("doc.md");
        Files.writeString(doc, """
                Steady p99 0.67 s at 1,000 groups; about 21,000 commits a second per instance; initial sync 19.0 s.
                A target: p99 ≤ 1 s. Tied: p99 <!--fig sextant/sync/1000 sync_latency_ms.p99 ms-->4.1 s, \
                <!--fig sextant/throughput/1000/1 commits_per_sec count-->97,527 commits/s.
                ```
                p99 1.0 s in a code block is an example, not a figure
                ```
                """);

        List<String> untied = DocFigures.untied(doc).stream().map(DocFigures.Untied::text).toList();

        assertEquals(List.of("p99 0", "initial sync 1", "21,000 commits a second"), untied);
    }

    @Test
    void aFigureRunningOnIntoOtherCharactersIsNotTheFigure(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("latest.json"), """
                {"runs": [{"system": "sextant", "scenario": "sync", "groups": 1000, "failed": null,
                           "sync_latency_ms": {"p99": 4110.3}}]}""");
        Path doc = dir.resolve("doc.md");
        Files.writeString(doc, "p99 <!--fig sextant/sync/1000 sync_latency_ms.p99 ms-->4.1 sx, then "
                + "<!--fig sextant/sync/1000 sync_latency_ms.p99 ms-->4.1 s.\n");

        List<DocFigures.Stale> stale = new DocFigures(dir).check(doc);

        assertEquals(1, stale.size(), () -> stale.toString());
        assertEquals(1, stale.get(0).line());
        assertEquals("4.1", stale.get(0).written());
    }

    @Test
    void aMarkerNamingNoRunOrNoFigureIsAnError(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("latest.json"), """
                {"runs": [{"system": "sextant", "scenario": "sync", "groups": 1000, "failed": null,
                           "sync_latency_ms": {"p99": 1.0}}]}""");
        DocFigures figures = new DocFigures(dir);

        assertThrows(IllegalArgumentException.class, () -> figures.figure("sextant/sync/10000", "cpu_s", "dec1"));
        assertThrows(IllegalArgumentException.class,
                () -> figures.figure("sextant/sync/1000", "sync_latency_ms.p90", "ms"));
        assertThrows(IllegalArgumentException.class,
                () -> figures.figure("sextant/sync/1000", "sync_latency_ms.p99", "hours"));
    }
}
