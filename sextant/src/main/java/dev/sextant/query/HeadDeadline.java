package dev.sextant.query;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes HTTP connections that are slow to send a request head, so slow or idle clients (slowloris) can neither hold
 * a connection long nor crowd out the probes. Jetty's idle timeout cannot do it: every byte resets it, so a client
 * sending one byte a second holds its connection forever, and Jetty 12 has no deadline for the head itself.
 *
 * <ul>
 *   <li>Deadline: a connection waiting for a request head (its first, or the next one on a kept-alive connection,
 *       counted from the end of the previous exchange) is closed once it has waited {@code deadlineMs}, whatever
 *       trickle of bytes it sends. A sweep checks every connection every {@link #SWEEP_MS} ms.</li>
 *   <li>Crowding: when a connection opens while more than {@code crowdedAbove} are open, the one that has waited
 *       longest for its head is closed at once. A probe or any client that sends its head as it connects is the
 *       newest waiter, never the oldest, so the slow ones make room for it; Jetty's own limit (above this one) is
 *       then reached only by connections busy with a request.</li>
 * </ul>
 *
 * <p>"Waiting for a head" is read from Jetty's parser: it is in a header state (nothing of the head yet, or part of
 * it) and no request head completed since the wait began. The parser is reached through Jetty's internal
 * {@link HttpConnection}: Jetty 12 exposes no other view of it. A Jetty upgrade that moves it breaks the build; one
 * that changes what it means fails {@code QueryServerSlowClientsTest}. Connections of other protocols are not
 * watched.
 */
final class HeadDeadline extends AbstractLifeCycle implements Connection.Listener {

    private static final Logger log = LoggerFactory.getLogger(HeadDeadline.class);
    static final long SWEEP_MS = 200;
    private static final long NOT_WAITING = Long.MIN_VALUE;

    private final long deadlineNanos;
    private final int crowdedAbove;
    private final Map<Connection, Watched> open = new ConcurrentHashMap<>();
    private final AtomicLong closedLate = new AtomicLong();
    private final AtomicLong closedCrowded = new AtomicLong();
    /** Guards the {@link Watched} fields: the sweep and the crowding check read and write them. */
    private final Object lock = new Object();
    private ScheduledExecutorService sweeper;

    HeadDeadline(long deadlineMs, int crowdedAbove) {
        this.deadlineNanos = TimeUnit.MILLISECONDS.toNanos(deadlineMs);
        this.crowdedAbove = crowdedAbove;
    }

    @Override
    protected void doStart() {
        sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sextant-http-head-deadline");
            t.setDaemon(true);
            return t;
        });
        sweeper.scheduleWithFixedDelay(this::sweep, SWEEP_MS, SWEEP_MS, TimeUnit.MILLISECONDS);
    }

    @Override
    protected void doStop() {
        sweeper.shutdownNow();
        open.clear();
    }

    @Override
    public void onOpened(Connection connection) {
        if (connection instanceof HttpConnection http) {
            Watched opened = new Watched(http, System.nanoTime());
            open.put(connection, opened);
            if (open.size() > crowdedAbove) {
                closeLongestWaiting(opened);
            }
        }
    }

    @Override
    public void onClosed(Connection connection) {
        open.remove(connection);
    }

    /** HTTP connections open now. */
    int watched() {
        return open.size();
    }

    /** Connections closed for missing the deadline, and to make room, since the start. */
    long closedLate() {
        return closedLate.get();
    }

    long closedCrowded() {
        return closedCrowded.get();
    }

    private void sweep() {
        try {
            synchronized (lock) {
                long now = System.nanoTime();
                for (Watched watched : open.values()) {
                    if (watched.waiting(now) && now - watched.since >= deadlineNanos) {
                        closedLate.incrementAndGet();
                        close(watched, "no complete request head within the deadline");
                    }
                }
            }
        } catch (RuntimeException e) {
            // the next sweep tries again; a thrown exception would cancel the schedule
            log.warn("Checking the HTTP connections' request-head deadline failed", e);
        }
    }

    private void closeLongestWaiting(Watched spared) {
        synchronized (lock) {
            long now = System.nanoTime();
            Watched oldest = null;
            for (Watched watched : open.values()) {
                if (watched != spared && watched.waiting(now) && (oldest == null || watched.since < oldest.since)) {
                    oldest = watched;
                }
            }
            if (oldest != null) {
                closedCrowded.incrementAndGet();
                close(oldest, "more than " + crowdedAbove + " connections open, it waited longest for its head");
            }
        }
    }

    private void close(Watched watched, String why) {
        open.remove(watched.connection);
        log.debug("Closing HTTP connection {}: {}", watched.connection, why);
        // the socket itself, under TLS too: nothing more is written to a client that would not send its head
        EndPoint endPoint = watched.connection.getEndPoint();
        while (endPoint instanceof EndPoint.Wrapper wrapper) {
            endPoint = wrapper.unwrap();
        }
        endPoint.close();
    }

    /** One connection; its fields are read and written under {@link #lock}. */
    private static final class Watched {
        final HttpConnection connection;
        long requests;
        long since;

        Watched(HttpConnection connection, long openedAt) {
            this.connection = connection;
            this.since = openedAt;
        }

        /** Whether it waits for a request head now; {@link #since} is when that wait began (as first seen). */
        boolean waiting(long now) {
            // the state first: a request that completes between the two reads then shows as a new count, which
            // restarts the wait instead of letting an old one close the connection
            boolean waiting = connection.getParser().inHeaderState();
            long seen = connection.getMessagesIn();
            if (!waiting) {
                since = NOT_WAITING;
            } else if (since == NOT_WAITING || seen != requests) {
                since = now;
            }
            requests = seen;
            return waiting;
        }
    }
}
