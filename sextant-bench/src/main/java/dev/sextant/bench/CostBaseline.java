package dev.sextant.bench;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the workload's cost is measured from: each syncer's CPU and destination requests, and the CPU of the
 * other processes on the machine.
 */
record CostBaseline(Map<String, ProcStats.Sample> cpu, Map<String, Double> requests,
                    Map<String, Double> counted, Map<String, double[]> proofs, Map<String, Long> others,
                    Map<String, ProcStats.Sample> othersCpu) {

    /** Takes the baseline of {@code syncers} and of the session's other processes, now. */
    static CostBaseline take(Session session, Map<String, Syncer> syncers) {
        Map<String, ProcStats.Sample> cpuStart = new HashMap<>();
        Map<String, Double> requestsStart = new HashMap<>();
        Map<String, Double> countedStart = new HashMap<>();
        Map<String, double[]> proofsStart = new HashMap<>();
        for (Syncer s : syncers.values()) {
            cpuStart.put(s.system(), ProcStats.sample(s.pid()));
            requestsStart.put(s.system(), s.destinationAdminRequests());
            if (s instanceof SextantChild sextant) {
                countedStart.put(s.system(), sextant.countedAdminRequests());
                proofsStart.put(s.system(), sextant.intervalProofs());
            }
        }
        Map<String, Long> others = new LinkedHashMap<>();
        others.put("source broker", session.clusters.source().pid());
        others.put("destination broker", session.clusters.destination().pid());
        others.put("data-mirroring MirrorMaker", session.dataMirrorMakerPid());
        others.put("benchmark harness", ProcessHandle.current().pid());
        Map<String, ProcStats.Sample> othersStart = new HashMap<>();
        others.forEach((name, pid) -> othersStart.put(name, ProcStats.sample(pid)));
        return new CostBaseline(cpuStart, requestsStart, countedStart, proofsStart, others, othersStart);
    }

    /**
     * 4. What one syncer cost over the measured part, and how its initial sync went ({@code initial} or null).
     *
     * @param label how the log names the scale instance
     */
    SyncScenario.SystemOutcome cost(Syncer s, double[] initial, double measuredSeconds, SyncerWatch watch,
                                    String label) {
        SyncScenario.SystemOutcome so = new SyncScenario.SystemOutcome(s.system());
        so.logFile = s.logFile();
        ProcStats.Sample a = cpu().get(s.system());
        ProcStats.Sample b = ProcStats.sample(s.pid());
        so.alive = s.isAlive();
        if (b.cpuSeconds() < 0) { // a process that is gone has no /proc entry left: its last reading while it ran
            b = watch.last(s.system());
        }
        if (b != null && b.cpuSeconds() >= 0 && a.cpuSeconds() >= 0) {
            so.cpuSeconds = b.cpuSeconds() - a.cpuSeconds();
            so.cpuSecondsTotal = b.cpuSeconds();
            so.peakRssMb = b.peakRssMb();
        }
        if (!watch.live(s.system())) {
            so.fail(SyncScenario.BY_SYSTEM, watch.failure(s.system()), watch.failedAtSeconds(s.system()));
        } else if (!so.alive) { // it stopped after the tail: its figures are whole, but it did not run to the end
            so.fail(SyncScenario.BY_SYSTEM, SyncerWatch.exitReason(s, measuredSeconds) + " (after the tail)",
                    Double.NaN);
        }
        if (initial != null) {
            so.initialSyncSeconds = initial[0];
            so.initialSyncCensored = initial[1] > 0;
        }
        // over a span it did not live through, a rate means nothing
        double span = watch.live(s.system()) ? measuredSeconds : Double.NaN;
        so.destinationRequestsPerSec = (s.destinationAdminRequests() - requests().get(s.system())) / span;
        if (s instanceof SextantChild sextant) {
            sextantCost(so, sextant, span, label);
        }
        return so;
    }

    /** Sextant's own figures: its request counter, heap, the cost of proving intervals. */
    private void sextantCost(SyncScenario.SystemOutcome so, SextantChild sextant, double span, String label) {
        so.countedRequestsPerSec = (sextant.countedAdminRequests() - counted().get(so.system)) / span;
        so.heap = sextant.heap();
        so.outOfMemory = sextant.outOfMemory();
        double[] proofs = sextant.intervalProofs();
        double[] start = proofs().get(so.system);
        so.verificationReadsPerSec = (proofs[0] - start[0]) / span;
        so.intervalsProven = proofs[1] - start[1];
        so.verificationCpuSeconds = proofs[2] - start[2];
        if (!so.alive) {
            Bench.log("%s: Sextant (pid %d) was no longer running at the end%s; see %s", label, sextant.pid(),
                    so.outOfMemory ? ", out of memory" : "", sextant.logFile());
        }
    }
}
