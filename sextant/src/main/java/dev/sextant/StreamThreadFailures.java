package dev.sextant;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * Remembers when stream threads died. Kafka Streams replaces a dead thread, so the client stays RUNNING while a
 * thread that keeps dying gets nothing done; liveness must say so, or a restart that would clear it never comes.
 *
 * <p>Unhealthy once {@link #LIMIT} threads died within {@link #WINDOW_MS}; healthy again when the window holds fewer.
 * Thread-safe.
 */
final class StreamThreadFailures {

    static final int LIMIT = 5;
    static final long WINDOW_MS = 10 * 60_000L;

    private final Clock clock;
    private final Deque<Long> failures = new ArrayDeque<>();
    private String lastError;

    StreamThreadFailures(Clock clock) {
        this.clock = clock;
    }

    synchronized void failed(Throwable error) {
        failures.addLast(clock.millis());
        lastError = String.valueOf(error);
        expire();
    }

    /** Why this instance is not live, or empty while it is. */
    synchronized Optional<String> problem() {
        expire();
        return failures.size() < LIMIT ? Optional.empty() : Optional.of(failures.size()
                + " stream threads died in the last " + WINDOW_MS / 60_000 + " minutes; the last with: " + lastError);
    }

    private void expire() {
        long oldest = clock.millis() - WINDOW_MS;
        while (!failures.isEmpty() && failures.peekFirst() < oldest) {
            failures.removeFirst();
        }
    }
}
