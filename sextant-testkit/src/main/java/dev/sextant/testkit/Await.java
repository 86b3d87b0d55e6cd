package dev.sextant.testkit;

import java.time.Duration;
import java.util.function.Supplier;

/** Polls a condition until it holds or a deadline passes: the tests' only way of waiting. */
public final class Await {

    private static final long POLL_MS = 100;

    private Await() {
    }

    public static void until(Duration timeout, String what, Supplier<Boolean> condition) {
        value(timeout, what, () -> condition.get() ? Boolean.TRUE : null);
    }

    /** Polls until {@code probe} returns non-null, and returns that value. */
    public static <T> T value(Duration timeout, String what, Supplier<T> probe) {
        long deadline = System.nanoTime() + timeout.toNanos();
        RuntimeException last = null;
        while (true) {
            try {
                T value = probe.get();
                if (value != null) {
                    return value;
                }
            } catch (RuntimeException e) {
                last = e;
            }
            if (System.nanoTime() > deadline) {
                AssertionError error = new AssertionError("Timed out after " + timeout + " waiting for " + what);
                if (last != null) {
                    error.initCause(last);
                }
                throw error;
            }
            try {
                Thread.sleep(POLL_MS); // the poll interval of a deadline-bounded wait
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
        }
    }
}
