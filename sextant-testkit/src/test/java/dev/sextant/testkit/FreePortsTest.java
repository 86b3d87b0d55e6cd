package dev.sextant.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreePortsTest {

    @Test
    void picksDistinctPortsThatCanBeBoundOnLoopback() throws IOException {
        List<Integer> ports = FreePorts.pick(4);

        assertEquals(4, new HashSet<>(ports).size(), ports.toString());
        for (int port : ports) {
            try (ServerSocket socket = new ServerSocket()) {
                socket.bind(new InetSocketAddress("127.0.0.1", port));
            }
        }
    }

    @Test
    void neverHandsOutAPortTwice() {
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            for (int port : FreePorts.pick(2)) {
                assertTrue(seen.add(port), "port " + port + " handed out twice");
            }
        }
    }

    @Test
    void portsLieBelowTheEphemeralRangeWhereNoClientTakesItsLocalPort() {
        for (int port : FreePorts.pick(20)) {
            assertTrue(port >= FreePorts.LOWEST && port < FreePorts.ephemeralRangeStart(),
                    port + " outside [" + FreePorts.LOWEST + ", " + FreePorts.ephemeralRangeStart() + ")");
        }
    }

    @Test
    void aPortHandedOutStaysLockedForTheOtherTestJvms() throws IOException {
        int port = FreePorts.pick(1).get(0);

        try (FileChannel channel = FileChannel.open(FreePorts.LOCK_DIRECTORY.resolve(port + ".lock"),
                StandardOpenOption.WRITE)) {
            // this JVM holds it: another JVM's tryLock would return null; in this one the lock overlaps
            assertThrows(OverlappingFileLockException.class, channel::tryLock);
        }
    }

    @Test
    void loopbackIsIpv4() {
        assertEquals("127.0.0.1", FreePorts.LOOPBACK.getHostAddress());
    }

    @Test
    void rejectsNonPositiveCounts() {
        assertThrows(IllegalArgumentException.class, () -> FreePorts.pick(0));
    }
}
