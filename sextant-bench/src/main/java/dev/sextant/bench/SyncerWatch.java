package dev.sextant.bench;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Notices a syncer whose process exited during the measured run (e.g. out of memory): from then on its poller
 * stops, no more commits go to its groups, no wait waits for it, and its outstanding commits count with their
 * age at that moment (lower bounds). Keeps each live syncer's latest CPU and RSS reading, all that is left of a
 * process once it is gone.
 */
final class SyncerWatch {

    private final Map<String, Syncer> syncers;
    private final Map<String, DestinationPoller> pollers;
    private final long start;
    private final String label;
    private final Map<String, String> failures = new LinkedHashMap<>();
    private final Map<String, Long> failedNanos = new HashMap<>();
    private final Map<String, ProcStats.Sample> last = new HashMap<>();
    private long lastCheck;

    /**
     * @param start when the syncers were ready ({@link System#nanoTime()}): a failure's time counts from there
     * @param label how the log names the scale instance
     */
    SyncerWatch(Map<String, Syncer> syncers, Map<String, DestinationPoller> pollers, long start, String label) {
        this.syncers = syncers;
        this.pollers = pollers;
        this.start = start;
        this.label = label;
    }

    /** Looks at every live syncer, at most once a second. */
    void check() {
        long now = System.nanoTime();
        if (now - lastCheck < 1_000_000_000L) {
            return;
        }
        lastCheck = now;
        for (Syncer s : syncers.values()) {
            if (!live(s.system())) {
                continue;
            }
            if (s.isAlive()) {
                ProcStats.Sample sample = ProcStats.sample(s.pid());
                if (sample.cpuSeconds() >= 0) {
                    last.put(s.system(), sample);
                }
                continue;
            }
            String reason = exitReason(s, Bench.seconds(now - start));
            failures.put(s.system(), reason);
            failedNanos.put(s.system(), now);
            DestinationPoller poller = pollers.get(s.system());
            if (poller != null) {
                poller.close();
            }
            Bench.log("%s: %s (see %s)", label, reason, s.logFile());
        }
    }

    boolean live(String system) {
        return !failures.containsKey(system);
    }

    boolean anyLive() {
        check();
        return failures.size() < syncers.size();
    }

    String failure(String system) {
        return failures.get(system);
    }

    long failedNanos(String system) {
        return failedNanos.getOrDefault(system, System.nanoTime());
    }

    double failedAtSeconds(String system) {
        Long at = failedNanos.get(system);
        return at == null ? Double.NaN : Bench.seconds(at - start);
    }

    /** The latest reading of a syncer while it ran, or null. */
    ProcStats.Sample last(String system) {
        return last.get(system);
    }

    /** Why a syncer's process is gone, in one line. */
    static String exitReason(Syncer s, double atSeconds) {
        String when = String.format(Locale.ROOT, "%.0f s after the syncers were ready", atSeconds);
        if (s instanceof SextantChild sextant) {
            return sextant.outOfMemory() ? "Sextant ran out of memory and exited " + when : "Sextant exited " + when;
        }
        if (s instanceof Mm2CheckpointProcess mm2) {
            return "MirrorMaker 2 " + (mm2.outOfMemory() ? "ran out of memory and exited " : "exited ") + when;
        }
        return s.system() + " exited " + when;
    }
}
