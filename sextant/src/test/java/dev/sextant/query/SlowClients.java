package dev.sextant.query;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * Many connections that never complete a request head, driven by one thread: every other one sends nothing after
 * connecting, the rest one byte of an endless head every {@link #TRICKLE_MS} ms. They are opened
 * {@link #OPEN_PER_ROUND} every {@link #OPEN_EVERY_MS} ms (2,500 a second), and without blocking, so a server that
 * stops accepting leaves them pending instead of holding the test. Records when each connected and when the server
 * closed it.
 */
final class SlowClients implements AutoCloseable {

    static final long TRICKLE_MS = 250;
    private static final int OPEN_PER_ROUND = 50;
    private static final long OPEN_EVERY_MS = 20;
    private static final byte[] HEAD = ("GET /v1/groups HTTP/1.1\r\nHost: x\r\nX-Slow: " + "a".repeat(4000))
            .getBytes(StandardCharsets.US_ASCII);

    /** One connection; times are System.nanoTime(), 0 until it happens. */
    static final class Client {
        final boolean trickles;
        volatile long connectedAt;
        volatile long closedAt;
        int sent;

        Client(boolean trickles) {
            this.trickles = trickles;
        }

        boolean open() {
            return connectedAt != 0 && closedAt == 0;
        }

        /** Milliseconds from connect to the server's close. */
        long heldMs() {
            return TimeUnit.NANOSECONDS.toMillis(closedAt - connectedAt);
        }
    }

    private final Selector selector;
    private final InetSocketAddress address;
    private final int count;
    private final List<Client> clients = new CopyOnWriteArrayList<>();
    private final List<SocketChannel> channels = new CopyOnWriteArrayList<>();
    private final Thread loop;
    private volatile boolean running = true;
    private volatile Throwable failure;

    SlowClients(int port, int count) throws IOException {
        selector = Selector.open();
        address = new InetSocketAddress("127.0.0.1", port);
        this.count = count;
        loop = new Thread(this::run, "slow-clients");
        loop.setDaemon(true);
        loop.start();
    }

    List<Client> clients() {
        return clients;
    }

    long connected() {
        return clients.stream().filter(c -> c.connectedAt != 0).count();
    }

    long open() {
        return clients.stream().filter(Client::open).count();
    }

    long closed() {
        return clients.stream().filter(c -> c.closedAt != 0).count();
    }

    /** The driver's own failure, if any: a test checks it so a broken driver cannot pass for a server. */
    Throwable failure() {
        return failure;
    }

    private void run() {
        ByteBuffer sink = ByteBuffer.allocate(4096);
        long nextTrickle = System.nanoTime();
        long nextOpen = nextTrickle;
        try {
            while (running) {
                if (System.nanoTime() - nextOpen >= 0) {
                    openMore();
                    nextOpen += TimeUnit.MILLISECONDS.toNanos(OPEN_EVERY_MS);
                }
                selector.select(OPEN_EVERY_MS);
                for (SelectionKey key : selector.selectedKeys()) {
                    handle(key, sink);
                }
                selector.selectedKeys().clear();
                if (System.nanoTime() - nextTrickle >= 0) {
                    trickle();
                    nextTrickle += TimeUnit.MILLISECONDS.toNanos(TRICKLE_MS);
                }
            }
        } catch (IOException | RuntimeException e) {
            failure = e;
        }
    }

    /**
     * Opens up to {@link #OPEN_PER_ROUND} more connections: a burst of thousands at once would overflow the kernel's
     * accept queue, and Linux then leaves a silent client believing it connected while the server never sees it.
     */
    private void openMore() throws IOException {
        for (int i = 0; i < OPEN_PER_ROUND && clients.size() < count; i++) {
            Client client = new Client(clients.size() % 2 == 1);
            SocketChannel channel = SocketChannel.open();
            channel.configureBlocking(false);
            channels.add(channel);
            clients.add(client);
            if (channel.connect(address)) {
                client.connectedAt = System.nanoTime();
                channel.register(selector, SelectionKey.OP_READ, client);
            } else {
                channel.register(selector, SelectionKey.OP_CONNECT, client);
            }
        }
    }

    private void handle(SelectionKey key, ByteBuffer sink) throws IOException {
        Client client = (Client) key.attachment();
        SocketChannel channel = (SocketChannel) key.channel();
        try {
            if (key.isValid() && key.isConnectable() && channel.finishConnect()) {
                client.connectedAt = System.nanoTime();
                key.interestOps(SelectionKey.OP_READ);
            } else if (key.isValid() && key.isReadable()) {
                sink.clear();
                if (channel.read(sink) < 0) {
                    closed(client, key);
                }
            }
        } catch (IOException e) {
            closed(client, key); // reset by the server
        }
    }

    private void trickle() throws IOException {
        for (SelectionKey key : selector.keys()) {
            Client client = (Client) key.attachment();
            if (client.trickles && client.open() && client.sent < HEAD.length) {
                try {
                    ((SocketChannel) key.channel()).write(ByteBuffer.wrap(HEAD, client.sent, 1));
                    client.sent++;
                } catch (IOException e) {
                    closed(client, key);
                }
            }
        }
    }

    private static void closed(Client client, SelectionKey key) throws IOException {
        if (client.closedAt == 0) {
            client.closedAt = System.nanoTime();
        }
        key.cancel();
        key.channel().close();
    }

    @Override
    public void close() throws IOException {
        running = false;
        try {
            loop.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (SocketChannel channel : channels) {
            channel.close();
        }
        selector.close();
    }
}
