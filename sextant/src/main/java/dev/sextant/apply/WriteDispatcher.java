package dev.sextant.apply;

import dev.sextant.apply.WriteConcurrencyLimit.Outcome;
import dev.sextant.apply.WriteConcurrencyLimit.Permit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Sends offset writes through idle writers (Admin clients) as far as a {@link WriteConcurrencyLimit} allows; the
 * rest wait and are sent as earlier writes complete, in two lanes: writes of new source commits, and re-plans
 * ({@link WriteLease#newCommit()} false: closer translations, exact rewrites, refreshes). A re-plan is sent only when
 * no new commit's write waits, or once it has waited {@link #REPLAN_ESCAPE_NANOS}: a burst of re-plans (the lagging
 * groups' exact rewrites) never sits ahead of a new commit for longer than that, and a stream of new commits cannot
 * starve the refreshes that keep offsets from expiring.
 *
 * <p>Invariants: {@link #submit} never blocks (the stream thread calls it); a writer carries one write at a time, so
 * no write waits inside an Admin client behind another; at most {@code limit.max()} writers are ever created, the
 * first time one is needed; a write is sent only if its {@link WriteLease} is valid at that moment, otherwise its
 * future fails with {@link WriteLeaseExpiredException}; after {@link #close()} no write leaves the queue, and those
 * in it fail, so no caller waits forever. Each lane is taken in order; that no two writes of one group are in
 * flight at once (so the lanes never reorder a group's writes) is the caller's to keep.
 *
 * @param <W> a writer ({@code Admin}; anything in tests)
 */
final class WriteDispatcher<W> {

    /** A re-plan that waited this long goes before the writes of new commits. */
    static final long REPLAN_ESCAPE_NANOS = 1_000_000_000L;

    private final WriteConcurrencyLimit limit;
    private final Supplier<W> newWriter;
    private final Function<Throwable, Outcome> outcomeOf;
    private final LongSupplier nanoTime;

    // guarded by this
    private final Deque<W> idle = new ArrayDeque<>();
    private final Deque<Write<W, ?>> commits = new ArrayDeque<>();
    private final Deque<Write<W, ?>> replans = new ArrayDeque<>();
    private boolean closed;

    /** Non-zero while a thread sends from the queue; others only bump it, so sending never recurses. */
    private final AtomicInteger draining = new AtomicInteger();

    /**
     * @param newWriter creates a writer when none is idle; called by one thread at a time, outside the lock
     * @param outcomeOf what a write's failure says about the destination's load
     */
    WriteDispatcher(WriteConcurrencyLimit limit, Supplier<W> newWriter, Function<Throwable, Outcome> outcomeOf) {
        this(limit, newWriter, outcomeOf, System::nanoTime);
    }

    /** @param nanoTime a monotonic clock in nanoseconds: how long a re-plan waited */
    WriteDispatcher(WriteConcurrencyLimit limit, Supplier<W> newWriter, Function<Throwable, Outcome> outcomeOf,
                    LongSupplier nanoTime) {
        this.limit = limit;
        this.newWriter = newWriter;
        this.outcomeOf = outcomeOf;
        this.nanoTime = nanoTime;
    }

    /**
     * Sends {@code send} through an idle writer now if the limit allows, else once earlier writes complete.
     *
     * @return completes as {@code send}'s future does; fails with {@link WriteLeaseExpiredException} when the lease
     *         ran out before the write was sent, and with {@link IllegalStateException} when the dispatcher closed
     *         first
     */
    <T> CompletableFuture<T> submit(WriteLease lease, Function<W, CompletableFuture<T>> send) {
        Write<W, T> write = new Write<>(lease, send, nanoTime.getAsLong());
        boolean accepted;
        synchronized (this) {
            accepted = !closed;
            if (accepted) {
                (lease.newCommit() ? commits : replans).addLast(write);
            }
        }
        if (!accepted) {
            write.result.completeExceptionally(closedException());
            return write.result;
        }
        drain();
        return write.result;
    }

    /** Writes waiting for the limit. */
    synchronized int queued() {
        return commits.size() + replans.size();
    }

    /** Refuses new writes and fails those still queued; writes in flight complete as their writers close. */
    void close() {
        List<Write<W, ?>> unsent;
        synchronized (this) {
            closed = true;
            unsent = new ArrayList<>(commits);
            unsent.addAll(replans);
            commits.clear();
            replans.clear();
        }
        unsent.forEach(write -> write.result.completeExceptionally(closedException()));
    }

    private static IllegalStateException closedException() {
        return new IllegalStateException("the destination client closed before the write was sent");
    }

    private void drain() {
        if (draining.getAndIncrement() != 0) {
            return; // the thread draining now sends it
        }
        int missed = 1;
        do {
            Dispatch<W, ?> next;
            while ((next = next()) != null) {
                send(next);
            }
            missed = draining.addAndGet(-missed);
        } while (missed != 0);
    }

    /** The next write with a permit and a writer, or null while the limit is reached or nothing waits. */
    private synchronized Dispatch<W, ?> next() {
        if (closed || (commits.isEmpty() && replans.isEmpty())) {
            return null;
        }
        Optional<Permit> permit = limit.tryAcquire();
        if (permit.isEmpty()) {
            return null;
        }
        // busy writers = writes in flight < limit <= max: an idle writer exists, or fewer than max were made;
        // null: send() makes one, outside the lock (it starts a client: not while others wait for the lock)
        return new Dispatch<>(nextWrite(), idle.pollFirst(), permit.get());
    }

    /** A new commit's write first, unless none waits or the oldest re-plan waited past its escape. */
    private Write<W, ?> nextWrite() {
        Write<W, ?> replan = replans.peekFirst();
        if (commits.isEmpty() || (replan != null && nanoTime.getAsLong() - replan.queuedAt >= REPLAN_ESCAPE_NANOS)) {
            return replans.pollFirst();
        }
        return commits.pollFirst();
    }

    /** Only ever on the draining thread, one dispatch at a time. */
    private <T> void send(Dispatch<W, T> handed) {
        Write<W, T> write = handed.write();
        if (!write.lease.valid()) {
            // queued past its lease: what was read before it may be older than what the group's new owner wrote
            finish(handed, Outcome.NEUTRAL);
            write.result.completeExceptionally(new WriteLeaseExpiredException());
            return;
        }
        Dispatch<W, T> dispatch = handed;
        if (dispatch.writer() == null) {
            try {
                dispatch = new Dispatch<>(write, newWriter.get(), handed.permit());
            } catch (RuntimeException e) {
                finish(handed, Outcome.NEUTRAL);
                write.result.completeExceptionally(e);
                return;
            }
        }
        CompletableFuture<T> sent;
        try {
            sent = write.send.apply(dispatch.writer());
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        Dispatch<W, T> done = dispatch;
        sent.whenComplete((value, err) -> {
            finish(done, err == null ? Outcome.ANSWERED : outcomeOf.apply(err));
            drain(); // the freed slot goes to the next write before this one's caller goes on
            if (err == null) {
                write.result.complete(value);
            } else {
                write.result.completeExceptionally(err);
            }
        });
    }

    private synchronized void finish(Dispatch<W, ?> dispatch, Outcome outcome) {
        limit.release(dispatch.permit(), outcome);
        if (!closed && dispatch.writer() != null) {
            // last in, first out: the writers used most keep their connections warm, the others go idle
            idle.addFirst(dispatch.writer());
        }
    }

    private static final class Write<W, T> {
        final WriteLease lease;
        final Function<W, CompletableFuture<T>> send;
        final CompletableFuture<T> result = new CompletableFuture<>();
        final long queuedAt;

        Write(WriteLease lease, Function<W, CompletableFuture<T>> send, long queuedAt) {
            this.lease = lease;
            this.send = send;
            this.queuedAt = queuedAt;
        }
    }

    /** A write to send now, with its permit and the writer to send it through (null: none idle, make one). */
    private record Dispatch<W, T>(Write<W, T> write, W writer, Permit permit) {
    }
}
