package dev.sextant.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The oldest source commit each task still has to write to the destination (status {@code PENDING}: waiting for its
 * flush, in flight, or retried after the destination failed), for the gauge an alert watches: its age keeps rising
 * while nothing applies, whatever the cause. Positions refused by a guard or waiting for a mirrored topic or an
 * offset sync are left out: they are dead letters, with their own meters. One per instance; thread-safe.
 */
public final class OldestPending {

    private final Map<Object, Long> byTask = new ConcurrentHashMap<>();

    /** The task's oldest pending commit time, or -1 when it has none. */
    public void update(Object task, long oldestCommitTimestamp) {
        if (oldestCommitTimestamp < 0) {
            byTask.remove(task);
        } else {
            byTask.put(task, oldestCommitTimestamp);
        }
    }

    public void remove(Object task) {
        byTask.remove(task);
    }

    /** Seconds since the oldest pending commit of any task; 0 when nothing is pending. */
    public double ageSeconds(long now) {
        long oldest = byTask.values().stream().mapToLong(Long::longValue).min().orElse(now);
        return Math.max(0, now - oldest) / 1000.0;
    }
}
