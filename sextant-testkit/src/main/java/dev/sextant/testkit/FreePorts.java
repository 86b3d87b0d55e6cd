package dev.sextant.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Picks free TCP ports on 127.0.0.1 for brokers and listeners that tests start.
 *
 * <p>Invariants: a port is handed out at most once per machine while the JVM that took it lives (a lock file per port
 * in {@link #LOCK_DIRECTORY}, held until the JVM exits), so brokers of parallel test JVMs never receive the same port,
 * even one whose broker is stopped for a restart at the same address. And the ports lie below the kernel's ephemeral
 * range ({@code net.ipv4.ip_local_port_range}), where no client connection takes its local port: a client that keeps
 * reconnecting to a stopped broker's port from the ephemeral range can, once in some tens of thousands of tries, be
 * handed that very port and connect to itself (TCP simultaneous open), holding the port the broker is restarted on
 * (a broker restarted at its old port failed to start so in CI, its log ending without a reason). A process that is
 * not a test can still hold a port; {@link LocalKafkaBroker} retries with new ports then.
 */
public final class FreePorts {

    /** 127.0.0.1 literally: the brokers listen there, and getLoopbackAddress() may prefer ::1. */
    static final InetAddress LOOPBACK = ipv4Loopback();

    /** Where the lock files of the ports handed out live: shared by every test JVM of the machine. */
    static final Path LOCK_DIRECTORY = Path.of(System.getProperty("java.io.tmpdir"), "sextant-test-ports");

    /** The lowest port handed out: above the well-known and most registered services' ports. */
    static final int LOWEST = 15_000;

    /** The ports this JVM holds, with their locks (kept open: closing one would free its port for others). */
    private static final Map<Integer, FileChannel> HELD = new HashMap<>();

    private FreePorts() {
    }

    private static InetAddress ipv4Loopback() {
        try {
            return InetAddress.getByAddress("127.0.0.1", new byte[] {127, 0, 0, 1});
        } catch (UnknownHostException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** {@code count} distinct free ports below the ephemeral range, none handed out before to a living test JVM. */
    public static synchronized List<Integer> pick(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be positive: " + count);
        }
        int highest = ephemeralRangeStart() - 1;
        if (highest - LOWEST < 1_000) {
            throw new IllegalStateException("the ephemeral port range starts at " + (highest + 1)
                    + ": too few ports below it for test brokers (see net.ipv4.ip_local_port_range)");
        }
        try {
            Files.createDirectories(LOCK_DIRECTORY);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + LOCK_DIRECTORY, e);
        }
        List<Integer> ports = new ArrayList<>();
        int span = highest - LOWEST + 1;
        int start = ThreadLocalRandom.current().nextInt(span);
        for (int i = 0; i < span && ports.size() < count; i++) {
            int port = LOWEST + (start + i) % span;
            if (!HELD.containsKey(port) && lock(port) && bindable(port)) {
                ports.add(port);
            }
        }
        if (ports.size() < count) {
            throw new IllegalStateException("no " + count + " free ports found on " + LOOPBACK + " from " + LOWEST
                    + " to " + highest);
        }
        return List.copyOf(ports);
    }

    /** Takes the port's lock file for the life of this JVM; false when another JVM holds it. */
    private static boolean lock(int port) {
        FileChannel channel = null;
        try {
            channel = FileChannel.open(LOCK_DIRECTORY.resolve(port + ".lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                channel.close();
                return false;
            }
            HELD.put(port, channel);
            return true;
        } catch (OverlappingFileLockException e) {
            close(channel);
            return false;
        } catch (IOException e) {
            close(channel);
            throw new UncheckedIOException("cannot lock a port file in " + LOCK_DIRECTORY, e);
        }
    }

    /** Whether nothing listens on the port now (a port in TIME_WAIT counts as free: brokers reuse addresses). */
    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(LOOPBACK, port));
            return true;
        } catch (IOException e) {
            return false; // taken by a process that is not a test of ours: the lock stays, the port is skipped
        }
    }

    /** The first port of the kernel's ephemeral range, 32768 (Linux's default) when it cannot be read. */
    static int ephemeralRangeStart() {
        // a reader, not Files.readString: /proc files report a size of 0, and a read sized by it came back short here
        try (BufferedReader reader = Files.newBufferedReader(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
            return Integer.parseInt(reader.readLine().trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }

    private static void close(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing held through it
            }
        }
    }
}
