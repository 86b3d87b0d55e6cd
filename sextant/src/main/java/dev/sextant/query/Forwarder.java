package dev.sextant.query;

import dev.sextant.config.HostAndPort;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Sends a request on to the instance that owns the data, with {@link #FORWARDED_HEADER} set so the receiver answers
 * from its own stores and never forwards it again, and relays the answer as it is.
 */
public final class Forwarder {

    /** Marks a request one instance sent to another; its value names the sender. */
    public static final String FORWARDED_HEADER = "X-Sextant-Forwarded";

    private final HttpClient client;
    private final String self;
    private final Duration timeout;

    public Forwarder(HostAndPort self, Duration timeout) {
        this.self = self.toString();
        this.timeout = timeout;
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2)).build();
    }

    /** Relays {@code pathAndQuery} (raw, as received) to {@code target} and returns its answer. */
    public Reply forward(HostAndPort target, String pathAndQuery) {
        try {
            return toReply(client.send(request(target, pathAndQuery), HttpResponse.BodyHandlers.ofByteArray()));
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
        return client.sendAsync(request(target, pathAndQuery), HttpResponse.BodyHandlers.ofByteArray())
                .handle((response, err) -> {
                    if (err != null) {
                        throw QueryException.unavailable("instance " + target + " cannot be reached (" + err
                                + "); retry", err);
                    }
                    return toReply(response);
                });
    }

    private HttpRequest request(HostAndPort target, String pathAndQuery) {
        return HttpRequest.newBuilder(URI.create("http://" + target + pathAndQuery))
                .timeout(timeout)
                .header(FORWARDED_HEADER, self)
                .header("Accept", Reply.JSON_TYPE)
                .GET()
                .build();
    }

    private static Reply toReply(HttpResponse<byte[]> response) {
        String type = response.headers().firstValue("Content-Type").orElse(Reply.JSON_TYPE);
        Reply reply = new Reply(response.statusCode(), type, Map.of(), response.body());
        return response.headers().firstValue("Retry-After").map(v -> reply.withHeader("Retry-After", v)).orElse(reply);
    }
}
