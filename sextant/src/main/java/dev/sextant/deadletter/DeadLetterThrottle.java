package dev.sextant.deadletter;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps input that anyone can write from flooding the dead-letter topic: per kind of problem, at most one record
 * per {@link #INTERVAL_MS}; the next one says how many like it were left out in between. Thread-safe.
 */
public final class DeadLetterThrottle {

    public static final long INTERVAL_MS = 60_000;
    /** Kinds remembered at most: whoever floods the input with ever new kinds (topic names) cannot grow the heap. */
    static final int MAX_KINDS = 10_000;

    private record Window(long startedAt, long suppressed) {
    }

    private final Map<String, Window> windows = new ConcurrentHashMap<>();

    /**
     * @return empty when a record of this kind was written less than {@link #INTERVAL_MS} ago (this one is only
     *     counted); otherwise what to add to the record's detail ({@code ""}, or how many were left out since when)
     */
    public Optional<String> admit(String kind, long now) {
        if (windows.size() >= MAX_KINDS) {
            windows.clear(); // forgetting only costs an extra dead-letter record per kind
        }
        Window[] previous = {null};
        boolean[] write = {false};
        windows.compute(kind, (k, w) -> {
            if (w == null || now - w.startedAt() >= INTERVAL_MS) {
                previous[0] = w;
                write[0] = true;
                return new Window(now, 0);
            }
            return new Window(w.startedAt(), w.suppressed() + 1);
        });
        if (!write[0]) {
            return Optional.empty();
        }
        Window before = previous[0];
        return Optional.of(before != null && before.suppressed() > 0
                ? " (and " + before.suppressed() + " more like it since " + Instant.ofEpochMilli(before.startedAt())
                        + ", counted but not written here)" : "");
    }
}
