package dev.sextant.query;

import dev.sextant.config.HostAndPort;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLContext;

/**
 * Sends a request on to the instance that owns the data, with {@link #FORWARDED_HEADER} set so the receiver answers
 * from its own stores and never forwards it again, and relays the answer as it is. Instances share the HTTP API's
 * settings: with TLS it speaks HTTPS, presenting this instance's certificate (for client authentication) and
 * trusting the truststore's; with a token it sends the token.
 */
public final class Forwarder {

    /** Marks a request one instance sent to another; its value names the sender. */
    public static final String FORWARDED_HEADER = "X-Sextant-Forwarded";
    /** What {@link URI} takes raw in a path and query: RFC 3986's unreserved and reserved characters but brackets. */
    private static final String URI_SAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
            + "-._~!$&'()*+,;=:@/?";
    private static final String HEX = "0123456789ABCDEF";

    private final String self;
    private final Duration timeout;
    private final String scheme;
    private final Optional<String> token;
    private final Optional<TlsContexts.StoreFiles> tls;
    /** The client for the TLS context last loaded (a new one once the stores are reloaded). */
    private volatile Client client;

    private record Client(SSLContext context, HttpClient http) {
    }

    /** Plain HTTP, no token. */
    public Forwarder(HostAndPort self, Duration timeout) {
        this(self, timeout, Optional.empty(), Optional.empty());
    }

    /**
     * @param tls the HTTP API's TLS store files (HTTPS to other instances, with the context last loaded from them),
     *            or empty; {@code token} likewise
     */
    public Forwarder(HostAndPort self, Duration timeout, Optional<TlsContexts.StoreFiles> tls,
                     Optional<String> token) {
        this.self = self.toString();
        this.timeout = timeout;
        this.scheme = tls.isPresent() ? "https://" : "http://";
        this.token = token;
        this.tls = tls;
    }

    private HttpClient client() {
        SSLContext context = tls.map(TlsContexts.StoreFiles::current).orElse(null);
        Client current = client;
        if (current == null || current.context() != context) {
            HttpClient.Builder builder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(2));
            if (context != null) {
                builder.sslContext(context);
            }
            current = new Client(context, builder.build());
            client = current;
        }
        return current.http();
    }

    /** Relays {@code pathAndQuery} (raw, as received) to {@code target} and returns its answer. */
    public Reply forward(HostAndPort target, String pathAndQuery) {
        try {
            return toReply(client().send(request(target, pathAndQuery), HttpResponse.BodyHandlers.ofByteArray()));
        } catch (IOException e) {
            throw QueryException.unavailable("instance " + target + " that holds the data cannot be reached ("
                    + e + "); retry", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw QueryException.unavailable("interrupted while asking instance " + target, e);
        }
    }

    /** Asynchronous {@link #forward}; the future fails with a {@link QueryException} when the target is unreachable. */
    public CompletableFuture<Reply> forwardAsync(HostAndPort target, String pathAndQuery) {
        return client().sendAsync(request(target, pathAndQuery), HttpResponse.BodyHandlers.ofByteArray())
                .handle((response, err) -> {
                    if (err != null) {
                        throw QueryException.unavailable("instance " + target + " cannot be reached (" + err
                                + "); retry", err);
                    }
                    return toReply(response);
                });
    }

    private HttpRequest request(HostAndPort target, String pathAndQuery) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(scheme + target + uriSafe(pathAndQuery)))
                .timeout(timeout)
                .header(FORWARDED_HEADER, self)
                .header("Accept", Reply.JSON_TYPE)
                .GET();
        token.ifPresent(t -> request.header("Authorization", BearerTokenCheck.SCHEME + t));
        return request.build();
    }

    /**
     * {@code pathAndQuery} with every character {@link URI} refuses raw percent-encoded (as UTF-8), and a {@code %}
     * that starts no escape written {@code %25}. The API takes what Jetty takes (group names may hold any character:
     * {@code |}, {@code "}, a backslash, non-ASCII), so forwarding must too; the owner decodes the same segments. A
     * broken escape can only be in the query: one in the path was refused (400) before forwarding.
     */
    static String uriSafe(String pathAndQuery) {
        StringBuilder out = new StringBuilder(pathAndQuery.length());
        int i = 0;
        while (i < pathAndQuery.length()) {
            char c = pathAndQuery.charAt(i);
            boolean escape = c == '%' && i + 2 < pathAndQuery.length() && isHex(pathAndQuery.charAt(i + 1))
                    && isHex(pathAndQuery.charAt(i + 2));
            if (escape || c != '%' && c < 0x80 && URI_SAFE.indexOf(c) >= 0) {
                out.append(c);
                i++;
            } else {
                int next = pathAndQuery.offsetByCodePoints(i, 1);
                for (byte b : pathAndQuery.substring(i, next).getBytes(StandardCharsets.UTF_8)) {
                    out.append('%').append(HEX.charAt((b >> 4) & 0xf)).append(HEX.charAt(b & 0xf));
                }
                i = next;
            }
        }
        return out.toString();
    }

    private static boolean isHex(char c) {
        return c < 0x80 && Character.digit(c, 16) >= 0;
    }

    private static Reply toReply(HttpResponse<byte[]> response) {
        String type = response.headers().firstValue("Content-Type").orElse(Reply.JSON_TYPE);
        Reply reply = new Reply(response.statusCode(), type, Map.of(), response.body());
        return response.headers().firstValue("Retry-After").map(v -> reply.withHeader("Retry-After", v)).orElse(reply);
    }
}
