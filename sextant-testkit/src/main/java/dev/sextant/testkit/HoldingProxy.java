package dev.sextant.testkit;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TCP proxy in front of a Kafka listener that reads the Kafka protocol's frames and can hold back the requests of
 * chosen APIs, or the responses to them, until released: a network that delays exactly one kind of call. A held
 * frame stops everything behind it on its connection (as TCP would) and is delivered, late, on {@link #release()},
 * even when its client gave up on the connection meanwhile: that is what a delayed packet does.
 *
 * <pre>
 *   client ──▶ proxy ──(request frames: size, api key, version, correlation id ...)──▶ broker listener
 *          ◀──       ◀──(response frames: size, correlation id ...)──────────────────
 * </pre>
 *
 * <p>The broker must advertise the proxy's port on the listener the proxy forwards to (see
 * {@link LocalKafkaBroker.Builder#extraListener}), or clients leave the proxy after their first metadata request.
 */
public final class HoldingProxy implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HoldingProxy.class);

    private final ServerSocket server;
    private final int targetPort;
    private final Set<Short> heldRequests = ConcurrentHashMap.newKeySet();
    private final Set<Short> heldResponses = ConcurrentHashMap.newKeySet();
    private final AtomicInteger held = new AtomicInteger();
    private final AtomicInteger connections = new AtomicInteger();
    private final CopyOnWriteArrayList<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Object lock = new Object();
    private volatile boolean closed;

    private HoldingProxy(ServerSocket server, int targetPort) {
        this.server = server;
        this.targetPort = targetPort;
        Thread acceptor = new Thread(this::accept, "holding-proxy-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * A proxy on a free port of 127.0.0.1 forwarding to another free port, {@link #targetPort()}, that a broker
     * listener is then bound to.
     */
    public static HoldingProxy start() {
        return start(FreePorts.pick(1).get(0));
    }

    /** A proxy on a free port of 127.0.0.1 forwarding to {@code 127.0.0.1:targetPort}. */
    public static HoldingProxy start(int targetPort) {
        try {
            ServerSocket server = new ServerSocket();
            server.bind(new InetSocketAddress(FreePorts.LOOPBACK, 0));
            return new HoldingProxy(server, targetPort);
        } catch (IOException e) {
            throw new IllegalStateException("cannot open a proxy port", e);
        }
    }

    public int targetPort() {
        return targetPort;
    }

    public int port() {
        return server.getLocalPort();
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port();
    }

    /** From now on, requests of API {@code apiKey} (e.g. {@code ApiKeys.OFFSET_COMMIT.id}) are held. */
    public void holdRequests(short apiKey) {
        heldRequests.add(apiKey);
    }

    /** From now on, the responses to requests of API {@code apiKey} are held. */
    public void holdResponses(short apiKey) {
        heldResponses.add(apiKey);
    }

    /** Frames held right now. */
    public int held() {
        return held.get();
    }

    /** Stops holding; every held frame goes on, in order. */
    public void release() {
        synchronized (lock) {
            heldRequests.clear();
            heldResponses.clear();
            lock.notifyAll();
        }
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = server.accept();
                Socket broker = new Socket(FreePorts.LOOPBACK, targetPort);
                sockets.add(client);
                sockets.add(broker);
                Map<Integer, Short> apiOfRequest = new ConcurrentHashMap<>();
                int id = connections.incrementAndGet();
                start("proxy-" + id + "-requests", () -> pump(client, broker, true, apiOfRequest));
                start("proxy-" + id + "-responses", () -> pump(broker, client, false, apiOfRequest));
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("proxy on port {}: {}", port(), e.toString());
                }
            }
        }
    }

    private static void start(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }

    /** Copies frames from {@code from} to {@code to}, holding those asked for. */
    private void pump(Socket from, Socket to, boolean requests, Map<Integer, Short> apiOfRequest) {
        try (from; to) {
            DataInputStream in = new DataInputStream(from.getInputStream());
            OutputStream out = to.getOutputStream();
            while (true) {
                int size;
                try {
                    size = in.readInt();
                } catch (EOFException e) {
                    return;
                }
                byte[] frame = new byte[size];
                in.readFully(frame);
                ByteBuffer header = ByteBuffer.wrap(frame);
                short api;
                if (requests) {
                    api = header.getShort();
                    header.getShort(); // version
                    apiOfRequest.put(header.getInt(), api);
                } else {
                    Short known = apiOfRequest.remove(header.getInt());
                    api = known == null ? -1 : known;
                }
                awaitRelease(requests ? heldRequests : heldResponses, api);
                synchronized (out) {
                    out.write(ByteBuffer.allocate(4).putInt(size).array());
                    out.write(frame);
                    out.flush();
                }
            }
        } catch (IOException e) {
            // one side closed the connection: so does the other (try-with-resources)
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void awaitRelease(Set<Short> heldApis, short api) throws InterruptedException {
        synchronized (lock) {
            if (!heldApis.contains(api)) {
                return;
            }
            held.incrementAndGet();
            try {
                while (heldApis.contains(api) && !closed) {
                    lock.wait();
                }
            } finally {
                held.decrementAndGet();
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        release();
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
        for (Socket socket : sockets) {
            try {
                socket.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }
}
