package dev.sextant.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.config.HostAndPort;
import dev.sextant.testkit.Await;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The HTTP API's limits on a real socket: a body is refused without being read, the probes answer while every query
 * thread is held and slow clients hold connections, and the token guards every path but the open ones.
 */
class QueryServerLimitsTest {

    private static final int BODY_BYTES = 20 * 1024 * 1024;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : opened) {
            c.close();
        }
    }

    private FakeBackend backend(Optional<String> token) {
        FakeBackend backend = new FakeBackend(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                new QueryServer.Settings(new HostAndPort("127.0.0.1", 0), 16, Optional.empty(), "none", token,
                        List.of("/health/live", "/health/ready", "/metrics")));
        opened.add(backend);
        return backend;
    }

    /**
     * Sends the headers of a 20 MB request, then its body slowly in the background, and returns the status line
     * with how many body bytes had been written when it arrived.
     */
    private static String[] statusWhileSending(FakeBackend backend, String method) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", backend.address().port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write((method + " /v1/groups HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\n"
                    + "Content-Length: " + BODY_BYTES + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            AtomicLong sent = new AtomicLong();
            CompletableFuture<Void> body = CompletableFuture.runAsync(() -> {
                byte[] chunk = new byte[64 * 1024];
                try {
                    while (sent.get() < BODY_BYTES) {
                        out.write(chunk);
                        sent.addAndGet(chunk.length);
                    }
                } catch (IOException e) {
                    // the server closed the connection: what a refused body should get
                }
            });
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.US_ASCII));
            String status = in.readLine();
            long atAnswer = sent.get();
            socket.close();
            body.get(10, TimeUnit.SECONDS);
            return new String[] {status, Long.toString(atAnswer)};
        }
    }

    @Test
    void aTwentyMegabytePostIs405BeforeItsBodyIsSent() throws Exception {
        FakeBackend backend = backend(Optional.empty());
        Runtime runtime = Runtime.getRuntime();
        long before = runtime.totalMemory() - runtime.freeMemory();
        String[] answer = statusWhileSending(backend, "POST");
        assertTrue(answer[0].startsWith("HTTP/1.1 405"), answer[0]);
        assertTrue(Long.parseLong(answer[1]) < BODY_BYTES, "answered before the body was sent: "
                + answer[1] + " of " + BODY_BYTES + " bytes written");
        long after = runtime.totalMemory() - runtime.freeMemory();
        assertTrue(after - before < BODY_BYTES, "the body was not buffered: heap grew by " + (after - before));
    }

    @Test
    void aGetWithABodyIs413WithoutReadingIt() throws Exception {
        String[] answer = statusWhileSending(backend(Optional.empty()), "GET");
        assertTrue(answer[0].startsWith("HTTP/1.1 413"), answer[0]);
        assertTrue(Long.parseLong(answer[1]) < BODY_BYTES, answer[1]);
    }

    @Test
    void headAnswersTheHeadersWithoutTheBody() throws Exception {
        FakeBackend backend = backend(Optional.empty());
        HttpResponse<String> head = http.send(HttpRequest.newBuilder(URI.create(backend.url() + "/health/live"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, head.statusCode());
        assertEquals("", head.body());
        assertEquals("application/json", head.headers().firstValue("Content-Type").orElse(""));
    }

    @Test
    void liveAnswersWithinASecondWhileQueriesHoldEveryThreadAndSlowClientsHoldConnections() throws Exception {
        FakeBackend backend = backend(Optional.empty());
        backend.groups.put("slow", new Views.GroupDetail("slow", "consumer", List.of()));
        CountDownLatch release = new CountDownLatch(1);
        backend.storesBlockedUntil = release;
        ScheduledExecutorService trickle = Executors.newScheduledThreadPool(1);
        List<Socket> slow = new ArrayList<>();
        try {
            // 20 clients that send their headers one byte every 200 ms
            for (int i = 0; i < 20; i++) {
                Socket socket = new Socket("127.0.0.1", backend.address().port());
                slow.add(socket);
                byte[] request = ("GET /v1/groups/slow HTTP/1.1\r\nHost: x\r\n"
                        + "X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
                int[] next = {0};
                trickle.scheduleAtFixedRate(() -> {
                    try {
                        if (next[0] < request.length) {
                            socket.getOutputStream().write(request[next[0]++]);
                        }
                    } catch (IOException e) {
                        // closed by the server's idle timeout or by the test
                    }
                }, 0, 200, TimeUnit.MILLISECONDS);
            }
            // 200 concurrent queries that each hold a query thread (or wait in, or overflow, the queue)
            List<CompletableFuture<HttpResponse<Void>>> queries = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                queries.add(http.sendAsync(HttpRequest.newBuilder(URI.create(backend.url() + "/v1/groups/slow"))
                        .build(), HttpResponse.BodyHandlers.discarding()));
            }
            Await.until(Duration.ofSeconds(20), "the query threads are all held",
                    () -> backend.groupsAsked.size() >= 16);
            for (int i = 0; i < 5; i++) {
                long start = System.nanoTime();
                HttpResponse<String> live = http.send(HttpRequest.newBuilder(URI.create(backend.url()
                                + "/health/live")).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.ofString());
                long ms = (System.nanoTime() - start) / 1_000_000;
                assertEquals(200, live.statusCode(), live.body());
                assertTrue(ms < 1000, "/health/live took " + ms + " ms");
            }
            release.countDown();
            long ok = 0;
            long busy = 0;
            for (CompletableFuture<HttpResponse<Void>> q : queries) {
                int status = q.get(30, TimeUnit.SECONDS).statusCode();
                if (status == 200) {
                    ok++;
                } else if (status == 503) {
                    busy++;
                }
            }
            assertEquals(200, ok + busy, "every query answered 200, or 503 when the queue was full");
        } finally {
            release.countDown();
            trickle.shutdownNow();
            for (Socket s : slow) {
                s.close();
            }
        }
    }

    @Test
    void withATokenEveryPathButTheOpenOnesAnswers401WithoutIt() throws Exception {
        FakeBackend backend = backend(Optional.of("s3cret-token"));
        backend.groups.put("billing", new Views.GroupDetail("billing", "consumer", List.of()));
        for (String path : List.of("/v1/groups", "/v1/groups/billing", "/v1/conflicts", "/v1/instances",
                "/v1/translate?topic=t&partition=0&offset=1", "/internal/v1/local-groups", "/nope")) {
            HttpResponse<String> refused = get(backend.url() + path, null);
            assertEquals(401, refused.statusCode(), path + ": " + refused.body());
            assertTrue(refused.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"), path);
            assertEquals(401, get(backend.url() + path, "Bearer wrong-token").statusCode(), path);
        }
        assertEquals(200, get(backend.url() + "/v1/groups/billing", "Bearer s3cret-token").statusCode());
        for (String open : List.of("/health/live", "/health/ready", "/metrics", "/", "/ui/app.js")) {
            assertTrue(get(backend.url() + open, null).statusCode() != 401, open + " is open");
        }
    }

    private HttpResponse<String> get(String url, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
