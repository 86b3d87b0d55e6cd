package dev.sextant.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Picks free TCP ports on 127.0.0.1 by binding port 0 and releasing it.
 *
 * <p>Invariant: a port is handed out at most once per JVM, so two brokers started in parallel never receive the
 * same port even if the kernel would offer it again right after it was released. Another process can still take a
 * released port before the broker binds it; {@link LocalKafkaBroker} retries with new ports in that case.
 */
public final class FreePorts {

    /** 127.0.0.1 literally: the brokers listen there, and getLoopbackAddress() may prefer ::1. */
    static final InetAddress LOOPBACK = ipv4Loopback();

    private static final Set<Integer> HANDED_OUT = new HashSet<>();

    private FreePorts() {
    }

    private static InetAddress ipv4Loopback() {
        try {
            return InetAddress.getByAddress("127.0.0.1", new byte[] {127, 0, 0, 1});
        } catch (UnknownHostException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** {@code count} distinct free ports, none handed out before by this JVM. */
    public static synchronized List<Integer> pick(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be positive: " + count);
        }
        List<ServerSocket> held = new ArrayList<>();
        List<Integer> ports = new ArrayList<>();
        try {
            // hold every socket until all are picked, so the kernel cannot offer the same port twice in this call
            while (ports.size() < count) {
                ServerSocket socket = new ServerSocket();
                held.add(socket);
                socket.bind(new InetSocketAddress(LOOPBACK, 0));
                int port = socket.getLocalPort();
                if (HANDED_OUT.add(port)) {
                    ports.add(port);
                }
                if (held.size() > count + 100) {
                    throw new IllegalStateException("no fresh free port found on " + LOOPBACK);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind a free port on " + LOOPBACK, e);
        } finally {
            for (ServerSocket socket : held) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // the port stays reserved in HANDED_OUT; nothing else to do
                }
            }
        }
        return List.copyOf(ports);
    }
}
