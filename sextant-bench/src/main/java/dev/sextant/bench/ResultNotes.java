package dev.sextant.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The notes of the results: how the run went (mode, scales, failures) and what qualifies its figures (polling
 * resolution, what commit time, replay, CPU seconds, heap and Admin requests mean; each scale's checks and load).
 */
final class ResultNotes {

    private ResultNotes() {
    }

    static List<String> of(BenchSettings cfg, List<SyncScenario.Outcome> scales,
                           List<ThroughputScenario.Outcome> tp) {
        List<String> notes = new ArrayList<>();
        if (!scales.isEmpty()) {
            notes.add(cfg.sequential()
                    ? "Mode sequential: at each scale each system ran alone on the machine, one after the other ("
                            + String.join(", then ", cfg.systemsInOrder()) + "), against the same workload: its own "
                            + "fresh caught-up topic bench-lat-<N>-<code>, the same group counts, the same lags on "
                            + "bench-lag (filled once), the same commit rate and window. Its CPU seconds and the "
                            + "machine's load are over its own run's measured span."
                    : "Mode side-by-side: at each scale the systems ran at the same time on the same clusters and "
                            + "the same caught-up topic, so they competed for the machine's cores and brokers (a "
                            + "quick look; `--mode sequential` runs each alone).");
        }
        if (!scales.isEmpty()) {
            notes.add(scalesNote(cfg));
        }
        notes.addAll(failureNotes(scales, tp));
        notes.add(resolutionNote(scales) + " a latency sample is stamped when the poll that saw it returned (an "
                + "upper bound), and a poll starts at most every 100 ms (1 s for MM2 default), and at most every 8 "
                + "poll durations up to 5 s.");
        notes.add("Commit time is when Admin.alterConsumerGroupOffsets returned on the source; 'visible' means the "
                + "destination offset's metadata names that source offset or a later one (MM2 copies the "
                + "workload's 'src=' metadata, Sextant writes its own).");
        notes.add("Replay = source offset of the destination's value minus the destination offset (MM2 copies a "
                + "fresh topic 1:1, checked per topic), at the end of the run; 'best possible' is the newest "
                + "offset sync at or below the commit over the full sync history.");
        notes.add("CPU seconds are measured over " + (cfg.sequential() ? "each system's own run" : "the same span for "
                + "every system") + " (from the syncers being ready to the end of the tail); MM2 runs its "
                + "checkpoint connector alone in its own process (its idle MirrorSourceConnector and Connect worker "
                + "included). Sextant's JVM gets " + cfg.sextantJvmOptions() + (cfg.scales().stream()
                .anyMatch(BenchSettings::large) ? " (above " + String.format(Locale.ROOT, "%,d",
                BenchSettings.LARGE_SCALE) + " groups -Xmx" + cfg.largeSextantHeap() + ")" : "") + " (throughput: "
                + cfg.throughputJvmOptions() + "), MirrorMaker's get "
                + cfg.childJvmOptions() + "; each broker -Xmx" + cfg.brokerHeap() + ".");
        notes.add("Heap (Sextant): peak used = the largest MemoryMXBean heap-used sample (every 100 ms, garbage "
                + "included); peak after GC = the largest occupancy of G1's old generation after a collection of "
                + "it (MemoryPoolMXBean collection usage: the live set, exact after a full collection, with the "
                + "garbage of the regions a mixed collection left alone after a mixed one; G1 updates it only "
                + "after a mixed or full collection, so a run that never needed one has none and reports the heap "
                + "after young GCs, an upper bound); heap max = -Xmx.");
        notes.add("Admin requests/s are Kafka's own client metric request-total of the Admin clients talking to "
                + "the destination, over the same span (Sextant: its destination client, including its "
                + "destination-view refresh; MM2: the checkpoint connector's and task's target admins).");
        for (SyncScenario.Outcome o : scales) {
            if (o.measuredSeconds > 0) { // else every system of it failed before its workload: nothing measured
                notes.addAll(scaleNotes(cfg, o));
            }
        }
        if (tp.size() > 1) {
            notes.add("Throughput: __consumer_offsets was pre-filled once; then one Sextant per stream-thread count "
                    + "ran alone, one after the other (" + String.join(", then ", tp.stream()
                    .map(t -> BenchResults.threads(t.threads)).toList()) + "), each with its own application.id (so "
                    + "each read every commit from the start) and the destination's groups deleted before it (an "
                    + "instance never overwrites another's offsets).");
        }
        return notes;
    }

    /** One note per failed run: what failed, whose failure it was, what the harness did. */
    private static List<String> failureNotes(List<SyncScenario.Outcome> scales, List<ThroughputScenario.Outcome> tp) {
        List<String> notes = new ArrayList<>();
        for (SyncScenario.Outcome o : scales) {
            for (SyncScenario.SystemOutcome so : o.systems.values()) {
                if (so.failed != null) {
                    notes.add(String.format(Locale.ROOT, "%,d groups, %s failed (%s): %s%s; the harness stopped it, "
                            + "kept what it had measured until then (lower bounds where marked, replay not read if "
                            + "it stopped during the run) and went on with the next system and scale.", o.groups,
                            so.system, whose(so.failedBy), so.failed,
                            so.logFile == null ? "" : " (see " + so.logFile + ")"));
                }
            }
        }
        for (ThroughputScenario.Outcome t : tp) {
            if (t.failed != null) {
                notes.add(String.format(Locale.ROOT, "Throughput with %s failed (%s): %s.",
                        BenchResults.threads(t.threads), whose(t.failedBy), t.failed));
            }
        }
        return notes;
    }

    private static String whose(String failedBy) {
        return SyncScenario.BY_SYSTEM.equals(failedBy) ? "the system's own failure"
                : "a failure of the harness or the clusters";
    }

    private static String resolutionNote(List<SyncScenario.Outcome> scales) {
        StringBuilder res = new StringBuilder("Polling resolution (mean poll cycle, ms):");
        for (SyncScenario.Outcome o : scales) {
            for (SyncScenario.SystemOutcome so : o.systems.values()) {
                if (so.poller != null) {
                    res.append(String.format(Locale.ROOT, " %s@%,d %.0f;", so.system, o.groups,
                            so.poller.cycleMillis().mean()));
                }
            }
        }
        return res.toString();
    }

    /** A scale's (sequential: a system's run's) checks, phases, and how busy the machine was. */
    private static List<String> scaleNotes(BenchSettings cfg, SyncScenario.Outcome o) {
        String who = String.format(Locale.ROOT, "%,d groups", o.groups)
                + (cfg.sequential() ? ", " + String.join(", ", o.systems.keySet()) + " alone" : "");
        String phases = String.format(Locale.ROOT, "%s: mirror checks %s; offset syncs %s; phases (s) %s", who,
                o.checks, o.syncSpacing, o.phases.entrySet().stream()
                        .map(e -> e.getKey() + "=" + Report.round(e.getValue(), 1)).toList());
        StringBuilder cpu = new StringBuilder(String.format(Locale.ROOT,
                "%s: the machine's %d cores were %.0f%% busy with the benchmark's processes over the "
                        + "%.0f s measured, load average %.2f at its start and %.2f at its end (CPU s:", who,
                Runtime.getRuntime().availableProcessors(), BenchResults.busyPercent(o), o.measuredSeconds, o.loadStart,
                o.loadEnd));
        o.otherCpu.forEach((name, sec) -> cpu.append(String.format(Locale.ROOT, " %s %.0f;", name, sec)));
        o.systems.values().stream().filter(so -> !Double.isNaN(so.cpuSeconds)).forEach(
                so -> cpu.append(String.format(Locale.ROOT, " %s %.0f;", so.system, so.cpuSeconds)));
        return List.of(phases, cpu.append(")").toString());
    }

    /**
     * The scales as run: partitions of the caught-up topic, Sextant's heap, and the systems left out of the large
     * ones (and why).
     */
    static String scalesNote(BenchSettings cfg) {
        List<String> each = new ArrayList<>();
        for (int n : cfg.scales()) {
            int nLag = (int) Math.round(n * cfg.laggingShare());
            each.add(String.format(Locale.ROOT, "%,d groups (%,d caught up × %d partitions + %,d lagging × %d; "
                    + "Sextant -Xmx%s; %s)", n, n - nLag, cfg.partitionsAt(n), nLag, cfg.lagPartitions(),
                    cfg.sextantHeap(n), String.join(", ", cfg.systemsInOrderAt(n))));
        }
        String note = "Scales: " + String.join("; ", each) + ".";
        List<String> leftOut = cfg.scales().stream().filter(n -> !cfg.systemsLeftOutAt(n).isEmpty())
                .map(n -> String.format(Locale.ROOT, "%,d", n)).toList();
        if (!leftOut.isEmpty()) {
            List<String> who = cfg.systemsLeftOutAt(cfg.scales().stream().filter(BenchSettings::large).findFirst()
                    .orElseThrow());
            note += " At " + String.join(" and ", leftOut) + " groups " + String.join(" and ", who) + " did not run "
                    + "(`--large-systems`)" + (who.contains(BenchSettings.MM2_DEFAULT) ? ": MirrorMaker 2 at its 60 s "
                    + "default would only add a very long run with no new information (its latency follows from its "
                    + "intervals)." : ".");
        }
        return note;
    }
}
