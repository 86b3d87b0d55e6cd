package dev.sextant.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The proxy's framing and holding, against a server that answers every request frame with its correlation id. */
class HoldingProxyTest {

    private static final short OFFSET_COMMIT = 8;
    private static final short OFFSET_FETCH = 9;

    private ServerSocket server;
    private HoldingProxy proxy;
    /** The api keys of the requests the server received, in order. */
    private final BlockingQueue<Short> received = new LinkedBlockingQueue<>();

    @BeforeEach
    void start() throws IOException {
        server = new ServerSocket(0, 10, FreePorts.LOOPBACK);
        Thread t = new Thread(this::answer, "echo-broker");
        t.setDaemon(true);
        t.start();
        proxy = HoldingProxy.start(server.getLocalPort());
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        server.close();
    }

    private void answer() {
        try (Socket socket = server.accept()) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            while (true) {
                byte[] frame = new byte[in.readInt()];
                in.readFully(frame);
                ByteBuffer header = ByteBuffer.wrap(frame);
                received.add(header.getShort());
                header.getShort();
                out.writeInt(4);
                out.writeInt(header.getInt());
                out.flush();
            }
        } catch (IOException e) {
            // the test closed the connection
        }
    }

    private static void request(DataOutputStream out, short api, int correlationId) throws IOException {
        out.writeInt(8);
        out.writeShort(api);
        out.writeShort(0);
        out.writeInt(correlationId);
        out.flush();
    }

    /** The correlation id of the next response, or null if none comes within {@code wait}. */
    private static Integer response(Socket socket, Duration wait) throws IOException {
        socket.setSoTimeout((int) wait.toMillis());
        DataInputStream in = new DataInputStream(socket.getInputStream());
        try {
            assertEquals(4, in.readInt());
            return in.readInt();
        } catch (SocketTimeoutException e) {
            return null;
        }
    }

    @Test
    void aHeldRequestAndEverythingBehindItWaitForTheRelease() throws Exception {
        try (Socket client = new Socket(FreePorts.LOOPBACK, proxy.port())) {
            DataOutputStream out = new DataOutputStream(client.getOutputStream());
            request(out, OFFSET_FETCH, 1);
            assertEquals(1, response(client, Duration.ofSeconds(5)));
            assertEquals(OFFSET_FETCH, received.poll(5, TimeUnit.SECONDS));

            proxy.holdRequests(OFFSET_COMMIT);
            request(out, OFFSET_COMMIT, 2);
            request(out, OFFSET_FETCH, 3);
            assertNull(response(client, Duration.ofMillis(500)), "nothing passes a held request");
            assertEquals(1, proxy.held());
            assertNull(received.poll(200, TimeUnit.MILLISECONDS), "the server saw neither");

            proxy.release();
            assertEquals(2, response(client, Duration.ofSeconds(5)));
            assertEquals(3, response(client, Duration.ofSeconds(5)));
            assertEquals(OFFSET_COMMIT, received.poll(5, TimeUnit.SECONDS));
            assertEquals(OFFSET_FETCH, received.poll(5, TimeUnit.SECONDS), "in order");
            assertEquals(0, proxy.held());
        }
    }

    @Test
    void aHeldResponseIsDeliveredLateWhileItsRequestWasServedOnTime() throws Exception {
        try (Socket client = new Socket(FreePorts.LOOPBACK, proxy.port())) {
            DataOutputStream out = new DataOutputStream(client.getOutputStream());
            proxy.holdResponses(OFFSET_FETCH);
            request(out, OFFSET_FETCH, 7);
            assertEquals(OFFSET_FETCH, received.poll(5, TimeUnit.SECONDS), "the request went through");
            assertNull(response(client, Duration.ofMillis(500)), "its answer is held");

            proxy.release();
            assertEquals(7, response(client, Duration.ofSeconds(5)));
        }
    }
}
