package dev.sextant.cutover;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.sextant.client.SextantClient;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A running Sextant's {@code GET /v1/groups/{group}} served from memory on 127.0.0.1, for the real
 * {@link SextantClient}: each group answers what the test last set, positions or an error status.
 */
final class FakeSextantInstance implements AutoCloseable {

    private static final String GROUPS = "/v1/groups/";
    private static final ObjectMapper JSON = new ObjectMapper();

    static {
        // headers and body go out in two writes: without it each answer waits on the client's delayed ACK
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    private record Answer(int status, byte[] body) {
    }

    private final HttpServer server;
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> asked = new ConcurrentHashMap<>();

    FakeSextantInstance() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext(GROUPS, this::answer);
        server.start();
    }

    /** A client of this instance; an error status other than 503 is thrown at once, without retries. */
    SextantClient client() {
        return SextantClient.builder("http://127.0.0.1:" + server.getAddress().getPort())
                .deadline(Duration.ofSeconds(5)).build();
    }

    /** From now on the instance reports these positions of {@code group}. */
    void reports(String group, SextantClient.Partition... partitions) {
        try {
            answers.put(group, new Answer(200, JSON.writeValueAsBytes(
                    new SextantClient.GroupPositions(group, "consumer", List.of(partitions)))));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** From now on the instance answers {@code status} for {@code group}. */
    void fails(String group, int status) {
        answers.put(group, new Answer(status, "{\"error\":\"failing for the test\"}"
                .getBytes(StandardCharsets.UTF_8)));
    }

    /** How many times {@code group} was asked for. */
    int asked(String group) {
        AtomicInteger count = asked.get(group);
        return count == null ? 0 : count.get();
    }

    private void answer(HttpExchange exchange) throws IOException {
        String group = exchange.getRequestURI().getPath().substring(GROUPS.length());
        asked.computeIfAbsent(group, g -> new AtomicInteger()).incrementAndGet();
        Answer answer = answers.getOrDefault(group, new Answer(404,
                "{\"error\":\"unknown group\"}".getBytes(StandardCharsets.UTF_8)));
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(answer.status(), answer.body().length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer.body());
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
