package dev.sextant.cli;

import dev.sextant.client.SextantClient;
import dev.sextant.config.ConfigKeys;
import dev.sextant.config.HostAndPort;
import dev.sextant.config.SextantConfig;
import dev.sextant.config.SextantConfigLoader;
import dev.sextant.query.TlsContexts;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;

/**
 * How the CLI reaches a running instance's HTTP API with the same settings the instances use between themselves: the
 * scheme from {@code query.tls.*}, the TLS stores, and {@code query.auth.token}. Without a configuration file the
 * token comes from {@code SEXTANT_QUERY_AUTH_TOKEN}, and an {@code https://} URL is checked with the JVM's default
 * trust.
 */
final class InstanceConnection {

    static final String TOKEN_VARIABLE =
            SextantConfigLoader.environmentVariable(ConfigKeys.QUERY_AUTH_TOKEN_CONFIG);

    /** How long the probe of {@link #requireListening} waits for a connection. */
    private static final Duration PROBE = Duration.ofSeconds(2);

    private InstanceConnection() {
    }

    /**
     * {@code query.advertised} of {@code config} as a URL, or empty when its port is 0 (known only to the instance).
     */
    static Optional<String> advertisedUrl(SextantConfig config) {
        HostAndPort advertised = config.queryAdvertised();
        if (advertised.port() == 0) {
            return Optional.empty();
        }
        return Optional.of((config.queryTls() ? "https://" : "http://") + advertised);
    }

    /**
     * A client of {@code url} with {@code config}'s token and TLS (null config: the environment's token only) that
     * retries until {@code deadline}.
     *
     * @throws CommandLine.ParameterException naming --url when it is not an http(s) URL
     */
    static SextantClient connect(CommandLine commandLine, String url, SextantConfig config, Duration deadline) {
        try {
            return client(url, config, System.getenv()).deadline(deadline).build();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(commandLine, "--url: " + e.getMessage()
                    + " (expected http(s)://host:port)");
        }
    }

    /**
     * Fails at once when nothing listens at {@code url}: a refused connection (or a host that does not resolve) is no
     * instance that rebalances or restores, which the client's retries wait for, but none there, and retrying it
     * until the deadline was 30 s of silence. A connection that is neither accepted nor refused in time (a dropped
     * packet) is retried by the client until {@code deadline}, and stderr says so.
     *
     * @throws IllegalStateException naming the URL and what to do, when nothing listens there
     */
    static void requireListening(CommandLine commandLine, String url, Duration deadline) {
        URI uri = URI.create(url);
        int port = uri.getPort() != -1 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(uri.getHost(), port), (int) PROBE.toMillis());
        } catch (UnknownHostException e) {
            throw new IllegalStateException("no answer from Sextant at " + url + ": its host does not resolve "
                    + "(not retried): give a running instance's address with --url (default: query.advertised of "
                    + "the -c file)", e);
        } catch (ConnectException e) {
            throw new IllegalStateException("no answer from Sextant at " + url + ": connection refused, nothing "
                    + "listens there (not retried): start Sextant there, or give a running instance's address with "
                    + "--url (default: query.advertised of the -c file)", e);
        } catch (IOException e) {
            commandLine.getErr().println("sextant: " + url + " did not answer within " + PROBE.toSeconds() + " s ("
                    + e.getMessage() + "); retrying until --timeout " + deadline.toSeconds() + "s runs out");
            commandLine.getErr().flush();
        }
    }

    private static SextantClient.Builder client(String url, SextantConfig config, Map<String, String> environment) {
        SextantClient.Builder builder = SextantClient.builder(url);
        Optional<String> token = config != null ? config.queryAuthToken()
                : Optional.ofNullable(environment.get(TOKEN_VARIABLE)).filter(t -> !t.isEmpty());
        token.ifPresent(builder::bearerToken);
        if (config != null) {
            TlsContexts.of(config).ifPresent(builder::sslContext);
        }
        return builder;
    }
}
