package dev.sextant.apply;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An applier's count of groups handed to it and not answered yet, and of those answered so far: the planners hold
 * back on the first, and size how many they hand out by the rate of the second. Thread-safe (answers come on Admin
 * threads).
 */
final class UnansweredWrites {

    private final AtomicInteger unanswered = new AtomicInteger();
    private final AtomicLong answered = new AtomicLong();

    /** A group's write was handed over (counted after the chain that answers it exists: it may have answered). */
    void handedOver() {
        unanswered.incrementAndGet();
    }

    /** A group's outcome was given. */
    void answered() {
        unanswered.decrementAndGet();
        answered.incrementAndGet();
    }

    int unanswered() {
        return unanswered.get();
    }

    long answeredSoFar() {
        return answered.get();
    }
}
