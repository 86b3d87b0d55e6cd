package dev.sextant.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.UnixOperatingSystemMXBean;
import dev.sextant.config.HostAndPort;
import dev.sextant.testkit.Await;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Slow clients on real sockets (slowloris: connected and silent, or trickling a request head a byte at a time): the
 * probes still answer within a second, beyond the connection limit too, and each slow connection is closed at the
 * request-head deadline instead of the idle timeout its trickle keeps resetting.
 */
class QueryServerSlowClientsTest {

    private static final int PROBES = 10;
    private static final long PROBE_PERIOD_MS = 200;
    private FakeBackend backend;
    private final ScheduledExecutorService prober = Executors.newSingleThreadScheduledExecutor();

    @BeforeEach
    void start() {
        backend = new FakeBackend(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                QueryServer.Settings.plain(new HostAndPort("127.0.0.1", 0)));
        // a running instance has answered probes since it started: the probes below time a warm server, not the
        // first request's class loading
        Probe first = probe(null);
        assertEquals(200, first.status, first.toString());
    }

    @AfterEach
    void stop() {
        prober.shutdownNow();
        backend.close();
    }

    @Test
    void liveAnswersWithinASecondWhileAThousandSlowClientsAreConnectedAndEachIsClosedAtTheHeadDeadline()
            throws Exception {
        requireFileDescriptors(2 * 1_000 + 200);
        try (SlowClients slow = new SlowClients(backend.server.port(), 1_000)) {
            Await.until(Duration.ofSeconds(10), "1,000 slow connections", () -> slow.connected() == 1_000
                    && backend.server.headDeadline().watched() >= QueryServer.CROWDED);
            List<Probe> probes = probeWhile(slow);
            for (Probe probe : probes) {
                assertEquals(200, probe.status, probe.toString());
                assertTrue(probe.ms < 1_000, "/health/live took " + probe.ms + " ms: " + probe);
                // the server holds QueryServer.CROWDED of them: the rest made room
                assertTrue(probe.serverOpen >= QueryServer.CROWDED - PROBES, "probed while they were open: " + probe);
            }

            Await.until(Duration.ofSeconds(15), "every slow connection closed", () -> slow.closed() == 1_000);
            assertNull(slow.failure(), "the slow clients' driver failed");
            long deadline = QueryServer.HEAD_DEADLINE_MS;
            List<Long> held = new ArrayList<>();
            int crowdedOut = 0;
            for (SlowClients.Client client : slow.clients()) {
                long ms = client.heldMs();
                // the server starts counting when it accepts, a little after the client saw the connect
                if (ms < deadline - 100) {
                    crowdedOut++;
                } else {
                    held.add(ms);
                }
            }
            Collections.sort(held);
            long worst = held.get(held.size() - 1);
            assertTrue(crowdedOut <= 1_000 - QueryServer.CROWDED + PROBES + 5, crowdedOut + " closed early");
            // at the deadline, not the idle timeout (30 s) their trickle resets; loose for a loaded machine
            assertTrue(worst <= deadline + 4_000, "a slow connection held " + worst + " ms");
            long trickled = slow.clients().stream().filter(c -> c.trickles && c.heldMs() >= deadline - 100).count();
            assertTrue(trickled >= 400, "the trickling ones were closed at the deadline too: " + trickled);
            assertTrue(backend.server.headDeadline().closedLate() >= held.size(), "closed by the deadline");
            System.out.printf("1,000 slow connections: /health/live in %s ms (max %d ms, %d probes); %d held to "
                            + "the %d ms head deadline, closed after median %d ms, max %d ms; %d closed at once "
                            + "to make room%n", probes.stream().map(p -> Long.toString(p.ms)).toList(),
                    probes.stream().mapToLong(p -> p.ms).max().orElseThrow(), probes.size(), held.size(), deadline,
                    held.get(held.size() / 2), worst, crowdedOut);
        }
    }

    @Test
    void beyondTheConnectionLimitSlowClientsMakeRoomForTheProbes() throws Exception {
        int count = QueryServer.MAX_CONNECTIONS + 500;
        requireFileDescriptors(count + QueryServer.MAX_CONNECTIONS + 200);
        try (SlowClients slow = new SlowClients(backend.server.port(), count)) {
            // with Jetty's limit alone, connections beyond it would wait in the accept queue, the probes with them
            Await.until(Duration.ofSeconds(10), count + " connections accepted", () -> slow.connected() == count
                    && backend.server.headDeadline().watched() >= QueryServer.CROWDED);
            List<Probe> probes = probeWhile(slow);
            assertNull(slow.failure(), "the slow clients' driver failed");
            for (Probe probe : probes) {
                assertEquals(200, probe.status, probe.toString());
                assertTrue(probe.ms < 1_000, "/health/live took " + probe.ms + " ms: " + probe);
                // so Jetty never stopped accepting (the client's count includes connections not accepted yet)
                assertTrue(probe.serverOpen < QueryServer.MAX_CONNECTIONS, "kept below the limit: " + probe);
                assertTrue(probe.serverOpen >= QueryServer.CROWDED - PROBES, "probed while they were open: " + probe);
            }
            Await.until(Duration.ofSeconds(10), "the slow ones made room",
                    () -> backend.server.headDeadline().closedCrowded() >= count - QueryServer.CROWDED);
            System.out.printf("%d slow connections (limit %d): /health/live in %s ms%n", count,
                    QueryServer.MAX_CONNECTIONS, probes.stream().map(p -> Long.toString(p.ms)).toList());
        }
    }

    /** {@link #PROBES} probes, {@link #PROBE_PERIOD_MS} apart, each on a new connection as kubelet sends them. */
    private List<Probe> probeWhile(SlowClients slow) {
        List<Probe> probes = Collections.synchronizedList(new ArrayList<>());
        ScheduledFuture<?> schedule = prober.scheduleAtFixedRate(() -> probes.add(probe(slow)), 0,
                PROBE_PERIOD_MS, TimeUnit.MILLISECONDS);
        try {
            Await.until(Duration.ofSeconds(30), PROBES + " probes", () -> probes.size() >= PROBES);
        } finally {
            schedule.cancel(false);
        }
        synchronized (probes) {
            return List.copyOf(probes.subList(0, PROBES));
        }
    }

    private Probe probe(SlowClients slow) {
        long open = slow == null ? 0 : slow.open();
        int serverOpen = backend.server.headDeadline().watched();
        long start = System.nanoTime();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", backend.server.port()), 5_000);
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write("GET /health/live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            String status = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.US_ASCII)).readLine();
            return new Probe(status == null ? -1 : Integer.parseInt(status.split(" ")[1]),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), open, serverOpen, null);
        } catch (IOException e) {
            return new Probe(-1, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), open, serverOpen,
                    e.toString());
        }
    }

    /** A probe's answer, and how many slow connections the client and the server saw open as it started. */
    private record Probe(int status, long ms, long slowOpen, int serverOpen, String error) {
    }

    /** Fails, naming the fix, when this JVM may not open the sockets the test needs (both ends are here). */
    private static void requireFileDescriptors(long needed) {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof UnixOperatingSystemMXBean unix) {
            long free = unix.getMaxFileDescriptorCount() - unix.getOpenFileDescriptorCount();
            assertTrue(free >= needed, "this test opens " + needed + " sockets but the JVM may open only " + free
                    + " more files: raise the limit (ulimit -n 4096 or more)");
        }
    }
}
