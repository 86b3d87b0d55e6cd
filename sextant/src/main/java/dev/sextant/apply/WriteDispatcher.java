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
import java.util.function.Supplier;

/**
 * Sends offset writes through idle writers (Admin clients) as far as a {@link WriteConcurrencyLimit} allows; the
 * rest wait in a FIFO queue and are sent as earlier writes complete.
 *
 * <p>Invariants: {@link #submit} never blocks (the stream thread calls it); a writer carries one write at a time, so
 * no write waits inside an Admin client behind another; at most {@code limit.max()} writers are ever created, the
 * first time one is needed; a write is sent only if its {@link WriteLease} is valid at that moment, otherwise its
 * future fails with {@link WriteLeaseExpiredException}; after {@link #close()} no write leaves the queue, and those
 * in it fail, so no caller waits forever. Writes are taken from the queue in order; that no two writes of one
 * group are in flight at once is the caller's to keep.
 *
 * @param <W> a writer ({@code Admin}; anything in tests)
 */
final class WriteDispatcher<W> {

    private final WriteConcurrencyLimit limit;
    private final Supplier<W> newWriter;
    private final Function<Throwable, Outcome> outcomeOf;

    // guarded by this
    private final Deque<W> idle = new ArrayDeque<>();
    private final Deque<Write<W, ?>> queue = new ArrayDeque<>();
    private boolean closed;

    /** Non-zero while a thread sends from the queue; others only bump it, so sending never recurses. */
    private final AtomicInteger draining = new AtomicInteger();

    /**
     * @param newWriter creates a writer when none is idle; called by one thread at a time, outside the lock
     * @param outcomeOf what a write's failure says about the destination's load
     */
    WriteDispatcher(WriteConcurrencyLimit limit, Supplier<W> newWriter, Function<Throwable, Outcome> outcomeOf) {
        this.limit = limit;
        this.newWriter = newWriter;
        this.outcomeOf = outcomeOf;
    }

    /**
     * Sends {@code send} through an idle writer now if the limit allows, else once earlier writes complete.
     *
     * @return completes as {@code send}'s future does; fails with {@link WriteLeaseExpiredException} when the lease
     *         ran out before the write was sent, and with {@link IllegalStateException} when the dispatcher closed
     *         first
     */
    <T> CompletableFuture<T> submit(WriteLease lease, Function<W, CompletableFuture<T>> send) {
        Write<W, T> write = new Write<>(lease, send);
        boolean accepted;
        synchronized (this) {
            accepted = !closed;
            if (accepted) {
                queue.addLast(write);
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
        return queue.size();
    }

    /** Refuses new writes and fails those still queued; writes in flight complete as their writers close. */
    void close() {
        List<Write<W, ?>> unsent;
        synchronized (this) {
            closed = true;
            unsent = new ArrayList<>(queue);
            queue.clear();
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

    /** The head of the queue with a permit and a writer, or null while the limit is reached or nothing waits. */
    private synchronized Dispatch<W, ?> next() {
        if (closed || queue.isEmpty()) {
            return null;
        }
        Optional<Permit> permit = limit.tryAcquire();
        if (permit.isEmpty()) {
            return null;
        }
        // busy writers = writes in flight < limit <= max: an idle writer exists, or fewer than max were made;
        // null: send() makes one, outside the lock (it starts a client: not while others wait for the lock)
        return new Dispatch<>(queue.pollFirst(), idle.pollFirst(), permit.get());
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

        Write(WriteLease lease, Function<W, CompletableFuture<T>> send) {
            this.lease = lease;
            this.send = send;
        }
    }

    /** A write to send now, with its permit and the writer to send it through (null: none idle, make one). */
    private record Dispatch<W, T>(Write<W, T> write, W writer, Permit permit) {
    }
}
