package dev.sextant;

/**
 * Closes what an instance holds, one thing after another, each even when one before it failed: a client that fails
 * to close must not leave the ones after it open (their threads, sockets and locks outlive the instance).
 *
 * <p>Invariants: every {@link #close} runs its action; the first {@link RuntimeException} is kept and each later one
 * is added to it as suppressed, in order; {@link #rethrow()} throws that first one, with the others in it, or
 * nothing when every action ended normally. An {@link Error} is not caught: it ends the closing where it happens.
 * Not thread-safe: one closing, on one thread.
 */
final class Closer {

    private RuntimeException failure;

    /** Runs {@code action}, keeping what it throws for {@link #rethrow()}. */
    void close(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            if (failure == null) {
                failure = e;
            } else if (failure != e) {
                failure.addSuppressed(e);
            }
        }
    }

    /** Throws the first failure, with the later ones suppressed in it; returns when there was none. */
    void rethrow() {
        if (failure != null) {
            throw failure;
        }
    }
}
