package dev.sextant.query;

import dev.sextant.config.ConfigKeys;
import dev.sextant.config.HostAndPort;
import dev.sextant.config.SextantConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.URLDecoder;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP transport of the query API, on Jetty: turns a request into a {@link QueryApi.Request}, writes the
 * {@link Reply}, and turns exceptions into JSON errors (a {@link QueryException} into its status; anything else into
 * a logged 500). It knows nothing of Kafka Streams.
 *
 * <pre>
 *   socket ─▶ accept queue (1024) ─▶ Jetty (non-blocking: request heads parsed without holding a thread)
 *            │ HeadDeadline: no complete head 5 s after connecting or the last answer ─▶ closed, bytes or not;
 *            │               over 960 connections, a new one closes the one that waited longest for its head
 *            │ a head Jetty refuses ─▶ 4xx JSON (JsonErrorHandler)
 *            │ method not GET/HEAD ─▶ 405, a body ─▶ 413 (never read), no token ─▶ 401      (on Jetty's thread)
 *            ├─ /health/*, /metrics ─▶ probe pool (2 threads)     ─┐
 *            └─ everything else     ─▶ query pool (query.threads) ─┴─▶ QueryApi ─▶ Reply   (full queue: 503)
 * </pre>
 *
 * <p>Invariants:
 * <ul>
 *   <li>a request body is never read (nothing is buffered, whatever its size);</li>
 *   <li>a slow or idle client holds a connection but no thread; while it owes a request head it holds it at most
 *       {@link #HEAD_DEADLINE_MS}, however it trickles bytes (Jetty's idle timeout, which every byte resets, is left
 *       for stalled requests and answers);</li>
 *   <li>the probes answer when every query thread is held by slow forwards, and when slow clients fill the
 *       connections: a client that sends its head as it connects is never the one closed to make room;</li>
 *   <li>at most {@link #MAX_CONNECTIONS} connections are open at once; Jetty stops accepting only when none of them
 *       is left waiting for a head (all busy with requests), since above {@link #CROWDED} each new connection closes
 *       a waiting one;</li>
 *   <li>a bad request is a 4xx with a JSON body, never a 500 (what Jetty accepts, forwarding accepts).</li>
 * </ul>
 *
 * <p>It binds in {@link #bind} (so the port is known before Kafka Streams is configured with it) and serves once
 * {@link #start} hands it the API.
 */
public final class QueryServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(QueryServer.class);
    static final int MAX_CONNECTIONS = 1024;
    /**
     * Above this many open connections, a new one closes the one that has waited longest for its request head: the
     * count stays below Jetty's limit, so Jetty goes on accepting (it would stop at its limit before the new
     * connection could make room).
     */
    static final int CROWDED = MAX_CONNECTIONS - 64;
    /**
     * How long a connection may wait for a complete request head (the first, or the next on a kept-alive
     * connection), however many bytes it trickles. A client sends its head as it connects, TLS adds a few round trips
     * and a lost packet one or two TCP retransmissions (1 s, 2 s): 5 s is ample for all of them, and a slow client
     * holds its connection 6 times shorter than the idle timeout. Node.js closes kept-alive connections after 5 s too.
     */
    static final long HEAD_DEADLINE_MS = 5_000;
    static final long IDLE_TIMEOUT_MS = 30_000;
    static final int MAX_HEADER_BYTES = 16 * 1024;
    private static final int PROBE_THREADS = 2;
    private static final List<String> PROBE_PATHS = List.of("/health/live", "/health/ready", "/metrics");

    /**
     * How the API is served.
     *
     * @param threads    query threads (forwarding holds one on each of two instances)
     * @param tls        the API's TLS store files (reloaded when they change), or empty for plain HTTP
     * @param clientAuth none, requested or required (client certificates, with TLS)
     * @param token      the bearer token required outside {@code openPaths}, or empty
     */
    public record Settings(HostAndPort listen, int threads, Optional<TlsContexts.StoreFiles> tls,
                           String clientAuth, Optional<String> token, List<String> openPaths) {

        public Settings {
            Objects.requireNonNull(listen);
            openPaths = List.copyOf(openPaths);
        }

        /** Plain HTTP, no token: tests and tools. */
        public static Settings plain(HostAndPort listen) {
            return new Settings(listen, ConfigKeys.QUERY_THREADS_DEFAULT, Optional.empty(), "none",
                    Optional.empty(), List.of());
        }

        /** From {@code query.*}. */
        public static Settings of(SextantConfig config) {
            return new Settings(config.queryListen(), config.queryThreads(), TlsContexts.storeFiles(config),
                    config.queryTlsClientAuth(), config.queryAuthToken(), config.queryAuthOpenPaths());
        }
    }

    private final Server server;
    private final ServerConnector connector;
    private final ThreadPoolExecutor queries;
    private final ThreadPoolExecutor probes;
    private final BearerTokenCheck auth;
    private final HeadDeadline headDeadline;
    private volatile QueryApi api;

    private QueryServer(Settings settings) {
        QueuedThreadPool jetty = new QueuedThreadPool(16, 4);
        jetty.setName("sextant-http");
        jetty.setDaemon(true);
        server = new Server(jetty);
        connector = QueryConnectors.create(server, settings.tls(), settings.clientAuth(), MAX_HEADER_BYTES);
        connector.setHost(settings.listen().host());
        connector.setPort(settings.listen().port());
        connector.setIdleTimeout(IDLE_TIMEOUT_MS);
        // Java's default accept queue (50) overflows in a burst of connections, and Linux then drops the connection
        // (a probe's among them) until a TCP retransmission a second later: past a probe's timeout. The kernel caps
        // it at net.core.somaxconn (4096 on current Linux).
        connector.setAcceptQueueSize(MAX_CONNECTIONS);
        server.addConnector(connector);
        server.addBean(new NetworkConnectionLimit(MAX_CONNECTIONS, connector));
        // a Connection.Listener bean of the connector is told of every connection it opens, and starts with it
        headDeadline = new HeadDeadline(HEAD_DEADLINE_MS, CROWDED);
        connector.addBean(headDeadline);
        server.setErrorHandler(new JsonErrorHandler());
        queries = pool("sextant-query-", settings.threads(), settings.threads() * 16);
        probes = pool("sextant-probe-", PROBE_THREADS, 64);
        auth = new BearerTokenCheck(settings.token(), settings.openPaths());
        server.setHandler(new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                dispatch(request, response, callback);
                return true;
            }
        });
    }

    private static ThreadPoolExecutor pool(String prefix, int threads, int queue) {
        AtomicInteger count = new AtomicInteger();
        return new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(queue), r -> {
            Thread t = new Thread(r, prefix + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** Binds {@code settings.listen()} (port 0: a free port) without serving yet. */
    public static QueryServer bind(Settings settings) {
        QueryServer query = new QueryServer(settings);
        try {
            query.connector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot listen on " + settings.listen() + " (query.listen): "
                    + e.getMessage(), e);
        }
        if (!query.auth.enabled() && !settings.clientAuth().equals("required") && !isLoopback(settings.listen())) {
            log.warn("The HTTP API on {} is open to anyone who can reach it: no query.auth.token and no "
                    + "query.tls.client.auth=required. Set one of them, or bind the loopback interface "
                    + "(query.listen=127.0.0.1:{}).", settings.listen(), settings.listen().port());
        }
        return query;
    }

    private static boolean isLoopback(HostAndPort listen) {
        try {
            return InetAddress.getByName(listen.host()).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** The bound port. */
    public int port() {
        return connector.getLocalPort();
    }

    /** What closes connections slow to send a request head: its counts, for tests. */
    HeadDeadline headDeadline() {
        return headDeadline;
    }

    /** Starts serving {@code api}. */
    public void start(QueryApi api) {
        this.api = api;
        try {
            server.start();
        } catch (Exception e) {
            throw new IllegalStateException("Cannot start the HTTP API on " + connector.getHost() + ":" + port()
                    + ": " + e.getMessage(), e);
        }
    }

    private void dispatch(Request request, Response response, Callback callback) {
        String method = request.getMethod();
        boolean head = method.equals("HEAD");
        if (!head && !method.equals("GET")) {
            // answered before any of the body is read; the connection is closed instead of draining it
            send(response, callback, false, Reply.error(QueryException.methodNotAllowed(method))
                    .withHeader("Allow", "GET, HEAD").withHeader("Connection", "close"));
            return;
        }
        if (request.getLength() > 0 || request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING)) {
            send(response, callback, head, Reply.json(413, new Views.ErrorBody("GET and HEAD requests carry no body"))
                    .withHeader("Connection", "close"));
            return;
        }
        String rawPath = Objects.requireNonNullElse(request.getHttpURI().getPath(), "/");
        if (!auth.allows(rawPath, request.getHeaders().get(HttpHeader.AUTHORIZATION))) {
            send(response, callback, head, Reply.json(401, new Views.ErrorBody("this path needs "
                    + "'Authorization: Bearer <query.auth.token>'")).withHeader("WWW-Authenticate",
                    "Bearer realm=\"sextant\""));
            return;
        }
        ThreadPoolExecutor pool = PROBE_PATHS.contains(rawPath) ? probes : queries;
        try {
            pool.execute(() -> send(response, callback, head, answer(request, rawPath)));
        } catch (RejectedExecutionException e) {
            send(response, callback, head, Reply.error(QueryException.unavailable("too many queries in progress on "
                    + "this instance; retry")));
        }
    }

    private Reply answer(Request request, String rawPath) {
        try {
            return api.handle(request(request, rawPath));
        } catch (QueryException e) {
            return Reply.error(e);
        } catch (RuntimeException e) {
            log.error("Query {} {} failed", request.getMethod(), request.getHttpURI(), e);
            return Reply.json(500, new Views.ErrorBody("internal error: " + e));
        }
    }

    static QueryApi.Request request(Request request, String rawPath) {
        String rawQuery = request.getHttpURI().getQuery();
        boolean forwarded = request.getHeaders().contains(Forwarder.FORWARDED_HEADER);
        // HEAD is GET without the body, which send() leaves out
        return new QueryApi.Request("GET", segments(rawPath), rawQuery,
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

    private static void send(Response response, Callback callback, boolean head, Reply reply) {
        response.setStatus(reply.status());
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, reply.contentType());
        reply.headers().forEach((name, value) -> response.getHeaders().put(new HttpField(name, value)));
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, reply.body().length);
        response.write(true, head ? ByteBuffer.allocate(0) : ByteBuffer.wrap(reply.body()), callback);
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            log.debug("Stopping the HTTP API: {}", e.toString());
        }
        connector.close(); // bound but never started: stop() leaves the socket open
        queries.shutdownNow();
        probes.shutdownNow();
    }
}
