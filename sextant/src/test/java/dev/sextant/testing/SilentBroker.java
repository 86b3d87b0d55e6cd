package dev.sextant.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A broker address that accepts connections and never answers: a Kafka client connects and then waits in its calls,
 * as with a broker gone silent. Counts the connections its clients hold open, so a test sees a client closed.
 */
public final class SilentBroker implements AutoCloseable {

    private final ServerSocket server;
    /** Accepted connections, true while the client keeps its end open. */
    private final Map<Socket, Boolean> open = new ConcurrentHashMap<>();

    public SilentBroker() {
        try {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        daemon(this::accept, "silent-broker-accept").start();
    }

    /** {@code bootstrap.servers} for a client of this broker. */
    public String bootstrap() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    /** Connections ever accepted. */
    public int accepted() {
        return open.size();
    }

    /** Connections the clients still hold open. */
    public long open() {
        return open.values().stream().filter(Boolean::booleanValue).count();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                open.put(socket, true);
                daemon(() -> drain(socket), "silent-broker-read").start();
            } catch (IOException closed) {
                return; // close() closed the server socket
            }
        }
    }

    /** Reads and ignores what the client sends until it closes its end. */
    private void drain(Socket socket) {
        byte[] buffer = new byte[4096];
        try (InputStream in = socket.getInputStream()) {
            while (in.read(buffer) >= 0) {
                // requests are never answered
            }
        } catch (IOException e) {
            // a reset by the client closes its end too
        }
        open.put(socket, false);
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    @Override
    public void close() {
        try {
            server.close();
            for (Socket socket : open.keySet()) {
                socket.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
