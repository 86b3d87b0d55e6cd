package dev.sextant.query;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.sextant.config.HostAndPort;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP transport of the query API, on the JDK's {@link HttpServer}: turns an exchange into a
 * {@link QueryApi.Request}, writes the {@link Reply}, and turns exceptions into JSON errors (a {@link QueryException}
 * into its status; anything else into a logged 500). It knows nothing of Kafka Streams.
 *
 * <p>It binds in {@link #bind} (so the port is known before Kafka Streams is configured with it) and serves once
 * {@link #start} hands it the API.
 */
public final class QueryServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(QueryServer.class);
    /**
     * Handler threads. A forwarded request holds one thread on each of two instances; enough threads (and the
     * forwarder's timeout) keep two instances forwarding to each other under load from starving each other.
     */
    private static final int THREADS = 16;

    private final HttpServer server;
    private final ExecutorService executor;
    private volatile QueryApi api;

    private QueryServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /** Binds {@code listen} (port 0: a free port) without serving yet. */
    public static QueryServer bind(HostAndPort listen) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(listen.host(), listen.port()), 64);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot listen on " + listen + " (query.listen): " + e.getMessage(), e);
        }
        AtomicInteger count = new AtomicInteger();
        ExecutorService executor = Executors.newFixedThreadPool(THREADS, r -> {
            Thread t = new Thread(r, "sextant-query-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        QueryServer query = new QueryServer(server, executor);
        server.createContext("/", query::exchange);
        server.setExecutor(executor);
        return query;
    }

    /** The bound port. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** Starts serving {@code api}. */
    public void start(QueryApi api) {
        this.api = api;
        server.start();
    }

    private void exchange(HttpExchange exchange) {
        try (exchange) {
            try (InputStream body = exchange.getRequestBody()) {
                body.readAllBytes(); // GET has none; drain anything sent anyway
            }
            write(exchange, answer(exchange));
        } catch (IOException e) {
            log.debug("Could not answer {} {}: {}", exchange.getRequestMethod(), exchange.getRequestURI(), e.toString());
        }
    }

    private Reply answer(HttpExchange exchange) {
        try {
            return api.handle(request(exchange));
        } catch (QueryException e) {
            return Reply.error(e);
        } catch (RuntimeException e) {
            log.error("Query {} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), e);
            return Reply.json(500, new Views.ErrorBody("internal error: " + e));
        }
    }

    static QueryApi.Request request(HttpExchange exchange) {
        URI uri = exchange.getRequestURI();
        String rawPath = uri.getRawPath() == null ? "/" : uri.getRawPath();
        String rawQuery = uri.getRawQuery();
        boolean forwarded = exchange.getRequestHeaders().containsKey(Forwarder.FORWARDED_HEADER);
        return new QueryApi.Request(exchange.getRequestMethod(), segments(rawPath), rawQuery,
                rawPath + (rawQuery == null ? "" : "?" + rawQuery), forwarded);
    }

    /** Decoded path segments; {@code +} stays a plus (it is only a space in query strings). */
    static List<String> segments(String rawPath) {
        String trimmed = rawPath.startsWith("/") ? rawPath.substring(1) : rawPath;
        List<String> out = new ArrayList<>();
        for (String raw : trimmed.split("/", -1)) {
            try {
                out.add(URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw QueryException.badRequest("malformed path segment '" + raw + "': " + e.getMessage());
            }
        }
        return out;
    }

    private static void write(HttpExchange exchange, Reply reply) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", reply.contentType());
        reply.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
        if (reply.status() == 405) {
            exchange.getResponseHeaders().set("Allow", "GET");
        }
        // a HEAD answer (405) carries the headers only
        byte[] body = exchange.getRequestMethod().equals("HEAD") ? new byte[0] : reply.body();
        exchange.sendResponseHeaders(reply.status(), body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
