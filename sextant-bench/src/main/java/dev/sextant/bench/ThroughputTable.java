package dev.sextant.bench;

import static dev.sextant.bench.Report.cell;
import static dev.sextant.bench.Report.detail;
import static dev.sextant.bench.Report.duration;
import static dev.sextant.bench.Report.mib;

import dev.sextant.bench.Report.Run;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The Markdown report's section on the throughput scenario: one column per run (one per stream-thread count).
 */
final class ThroughputTable {

    private ThroughputTable() {
    }

    /** One column per throughput run (one per stream-thread count). */
    static void write(StringBuilder md, List<Run> runs) {
        throughputHeader(md, runs);
        if (runs.stream().anyMatch(x -> x.failed() != null)) {
            tpRow(md, runs, "run", x -> x.failed() == null ? "completed" : "failed: " + x.failed());
        }
        throughputRows(md, runs);
        throughputFooter(md, runs);
    }

    private static void throughputHeader(StringBuilder md, List<Run> runs) {
        Run first = runs.get(0);
        Map<String, Object> d0 = first.details();
        md.append(String.format(Locale.ROOT, "## Throughput: one Sextant instance, %s commits pre-filled%n%n",
                cell(detail(first, "commits"), Report::count)));
        md.append(String.format(Locale.ROOT, "%,d groups x %d partitions x %s rounds, each round one "
                + "`alterConsumerGroupOffsets` per group, pre-filled once; %s. MM2 has no equivalent (it samples "
                + "group offsets every interval instead of reading commits).%n%n", first.groups(), first.partitions(),
                d0.get("rounds"), runs.size() > 1 ? "then one Sextant per stream-thread count, one after the other, "
                        + "each reading every commit from the start (its own application.id)" : "then Sextant"));
        md.append("| figure |");
        for (Run run : runs) {
            md.append(" Sextant, ").append(run.threads() == null ? "?" : run.threads()).append(" stream thread")
                    .append(Integer.valueOf(1).equals(run.threads()) ? "" : "s").append(" |");
        }
        md.append("\n|---|").append("---:|".repeat(runs.size())).append('\n');
    }

    private static void throughputRows(StringBuilder md, List<Run> runs) {
        Map<String, Object> d0 = runs.get(0).details();
        tpRow(md, runs, "offset commits read/s (first read to the total, or to the " + d0.get("read_timeout_s")
                + " s time-out)", x -> cell(x.commitsPerSec(), Report::count));
        tpRow(md, runs, "commits read before the time-out", x -> String.format(Locale.ROOT, "%s of %s",
                cell(detail(x, "commits_read"), Report::count), cell(detail(x, "commits"), Report::count)));
        tpRow(md, runs, "offset commits read/s between 10% and 90% of what was read",
                x -> cell(detail(x, "commits_per_sec_10_to_90_percent"), Report::count));
        tpRow(md, runs, "Admin requests/s (`sextant.admin.requests`, same span)",
                x -> cell(x.adminRequestsPerSec(), v -> String.format(Locale.ROOT, "%,.1f", v)));
        tpRow(md, runs, "Admin requests/s on the wire (same span)",
                x -> cell(detail(x, "wire_admin_requests_per_sec"), v -> String.format(Locale.ROOT, "%,.1f", v)));
        tpRow(md, runs, "alterConsumerGroupOffsets sent, in all",
                x -> cell(detail(x, "alter_requests"), Report::count));
        tpRow(md, runs, "launch to first commit read", x -> duration(nz(detail(x, "startup_s")) * 1000));
        tpRow(md, runs, "launch to every group's last commit on the destination",
                x -> duration(nz(detail(x, "drain_s")) * 1000)
                        + (Boolean.TRUE.equals(x.details().get("drained")) ? "" : " (not all)"));
        tpRow(md, runs, "CPU seconds / peak RSS (MB)", x -> cell(x.cpuS(), v -> String.format(Locale.ROOT, "%,.1f",
                v)) + " / " + cell(x.peakRssMb(), v -> String.format(Locale.ROOT, "%,.0f", v)));
        tpRow(md, runs, "peak heap used / after GC / -Xmx (MiB)", x -> String.format(Locale.ROOT, "%s / %s / %s",
                mib(x.details().get("peak_heap_used_mb")), mib(x.details().get("peak_heap_after_gc_mb")),
                mib(x.details().get("heap_max_mb")))
                + (Boolean.TRUE.equals(x.details().get("out_of_memory")) ? " (out of memory)" : ""));
        streamThreadRows(md, runs);
    }

    private static void streamThreadRows(StringBuilder md, List<Run> runs) {
        if (runs.stream().anyMatch(x -> x.details().get("kafka_streams_thread") instanceof Map<?, ?> st
                && !st.isEmpty())) {
            tpRow(md, runs, "stream thread: share of time punctuating (Sextant's flush) / processing / polling",
                    x -> x.details().get("kafka_streams_thread") instanceof Map<?, ?> st
                            ? pct(st.get("punctuate.ratio")) + " / " + pct(st.get("process.ratio")) + " / "
                            + pct(st.get("poll.ratio")) : "n/a");
            tpRow(md, runs, "stream thread: ms per record processed; ms per flush (avg / max)",
                    x -> x.details().get("kafka_streams_thread") instanceof Map<?, ?> st
                            ? st.get("process.latency.avg") + "; " + st.get("punctuate.latency.avg") + " / "
                            + st.get("punctuate.latency.max") : "n/a");
        }
    }

    private static void throughputFooter(StringBuilder md, List<Run> runs) {
        md.append('\n');
        if (runs.size() > 1) {
            md.append("With several stream threads the figures of the stream thread are one thread's (the last "
                    + "reported).\n\n");
        }
    }

    private static void tpRow(StringBuilder md, List<Run> runs, String label,
                              Function<Run, String> cell) {
        md.append("| ").append(label).append(" |");
        for (Run run : runs) {
            md.append(' ').append(cell.apply(run)).append(" |");
        }
        md.append('\n');
    }

    private static String pct(Object ratio) {
        return ratio instanceof Number n ? String.format(Locale.ROOT, "%.0f%%", 100 * n.doubleValue()) : "n/a";
    }

    private static double nz(Double v) {
        return v == null ? Double.NaN : v;
    }
}
