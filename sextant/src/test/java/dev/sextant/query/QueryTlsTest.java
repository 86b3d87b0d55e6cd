package dev.sextant.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.client.SextantClient;
import dev.sextant.client.SextantClientException;
import dev.sextant.config.HostAndPort;
import dev.sextant.config.InvalidConfigurationException;
import dev.sextant.config.SextantConfig;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.TestCertificates;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import org.apache.kafka.common.config.types.Password;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP API over TLS, configured through {@code query.tls.*} as an operator would: PKCS12 and PEM keystores,
 * client certificates, the token on top, and two instances forwarding to each other with both.
 */
class QueryTlsTest {

    private static final String TOKEN = "tls-test-token";

    @TempDir
    static Path dir;
    private static TestCertificates certificates;
    private final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeAll
    static void issue() {
        certificates = TestCertificates.create(dir, "sextant-test-ca");
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : opened) {
            c.close();
        }
    }

    private static SextantConfig config(Map<String, String> query) {
        Map<String, Object> props = new HashMap<>(query);
        props.put("source.bootstrap.servers", "127.0.0.1:9092");
        props.put("destination.bootstrap.servers", "127.0.0.1:9093");
        props.put("query.listen", "127.0.0.1:0");
        return new SextantConfig(props);
    }

    private static Map<String, String> pkcs12Server(String clientAuth) {
        TestCertificates.KeyMaterial server = certificates.server("sextant-0");
        Map<String, String> q = new HashMap<>(Map.of(
                "query.tls.keystore.location", server.keyStore().toString(),
                "query.tls.keystore.password", server.password(),
                "query.tls.truststore.location", certificates.trust().trustStore().toString(),
                "query.tls.truststore.password", certificates.trust().password(),
                "query.tls.client.auth", clientAuth,
                "query.auth.token", TOKEN));
        return q;
    }

    private FakeBackend backend(SextantConfig config) {
        FakeBackend backend = new FakeBackend(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                QueryServer.Settings.of(config));
        backend.groups.put("billing", new Views.GroupDetail("billing", "consumer", List.of()));
        opened.add(backend);
        return backend;
    }

    /** A client context: trusts the test CA, and presents {@code clientCn}'s certificate unless null. */
    private static SSLContext clientContext(String clientCn) {
        Map<String, Object> ssl = new HashMap<>();
        ssl.put("ssl.truststore.location", certificates.trust().trustStore().toString());
        ssl.put("ssl.truststore.password", new Password(
                certificates.trust().password()));
        ssl.put("ssl.truststore.type", "PKCS12");
        if (clientCn != null) {
            TestCertificates.KeyMaterial client = certificates.client(clientCn);
            ssl.put("ssl.keystore.location", client.keyStore().toString());
            ssl.put("ssl.keystore.password", new Password(client.password()));
            ssl.put("ssl.keystore.type", "PKCS12");
        }
        return TlsContexts.load(ssl, "test");
    }

    private static HttpResponse<String> get(SSLContext context, String url, String token)
            throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().sslContext(context).connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void httpsWithAPkcs12KeystoreAndTheTokenOnTop() throws Exception {
        FakeBackend backend = backend(config(pkcs12Server("none")));
        assertTrue(backend.url().startsWith("https://"), backend.url());
        assertEquals(401, get(clientContext(null), backend.url() + "/v1/groups/billing", null).statusCode());
        assertEquals(200, get(clientContext(null), backend.url() + "/v1/groups/billing", TOKEN).statusCode());
        assertEquals(200, get(clientContext(null), backend.url() + "/health/live", null).statusCode());
        HttpClient plain = HttpClient.newHttpClient();
        assertThrows(IOException.class, () -> plain.send(HttpRequest.newBuilder(URI.create(
                backend.url().replace("https", "http") + "/health/live")).build(),
                HttpResponse.BodyHandlers.ofString()), "plain HTTP is not served");

        SextantClient client = SextantClient.builder(backend.url()).sslContext(clientContext(null))
                .bearerToken(TOKEN).deadline(Duration.ofSeconds(5)).build();
        assertEquals("billing", client.group("billing").group());
        SextantClient noToken = SextantClient.builder(backend.url()).sslContext(clientContext(null))
                .deadline(Duration.ofSeconds(5)).build();
        assertEquals(401, assertThrows(SextantClientException.class, () -> noToken.group("billing")).status());
    }

    @Test
    void aPemKeystoreServesTheSame() throws Exception {
        TestCertificates.KeyMaterial server = certificates.server("sextant-pem");
        FakeBackend backend = backend(config(Map.of(
                "query.tls.keystore.location", server.pem().toString(),
                "query.tls.keystore.type", "PEM",
                "query.tls.truststore.location", certificates.trust().caPem().toString(),
                "query.tls.truststore.type", "PEM")));
        assertEquals(200, get(clientContext(null), backend.url() + "/v1/groups/billing", null).statusCode());
    }

    @Test
    void requiredClientCertificatesRefuseAClientWithoutOne() throws Exception {
        FakeBackend backend = backend(config(pkcs12Server("required")));
        assertThrows(IOException.class, () -> get(clientContext(null), backend.url() + "/health/live", null),
                "no client certificate, no connection");
        assertEquals(200, get(clientContext("failover-tool"), backend.url() + "/v1/groups/billing", TOKEN)
                .statusCode());
    }

    @Test
    void instancesForwardToEachOtherOverTlsWithClientCertificatesAndTheToken() throws Exception {
        FakeBackend owner = backend(config(pkcs12Server("required")));
        FakeBackend asked = backend(config(pkcs12Server("required")));
        asked.groups.clear();
        asked.owner = new GroupRouter.Remote(new HostAndPort("127.0.0.1", owner.address().port()));
        HttpResponse<String> forwarded = get(clientContext("failover-tool"), asked.url() + "/v1/groups/billing", TOKEN);
        assertEquals(200, forwarded.statusCode(), forwarded.body());
        assertTrue(forwarded.body().contains("\"billing\""), forwarded.body());
        assertTrue(owner.groupsAsked.contains("billing"), "the owner answered");
    }

    /**
     * The request-head deadline holds under TLS: a client that never starts its handshake, and one that completes it
     * and sends part of a head, are both closed after {@link QueryServer#HEAD_DEADLINE_MS}, not the idle timeout.
     */
    @Test
    void slowClientsAreClosedAtTheHeadDeadlineUnderTlsToo() throws Exception {
        FakeBackend backend = backend(config(pkcs12Server("none")));
        try (Socket silent = new Socket("127.0.0.1", backend.address().port());
             SSLSocket partial = (SSLSocket) clientContext(null).getSocketFactory().createSocket("127.0.0.1",
                     backend.address().port())) {
            long start = System.nanoTime();
            partial.startHandshake();
            partial.getOutputStream().write("GET /health/live HTTP/1.1\r\nHost: x\r\n".getBytes(
                    StandardCharsets.US_ASCII));
            partial.getOutputStream().flush();
            CompletableFuture<Long> silentClosed = CompletableFuture.supplyAsync(() -> closedAfterMs(silent, start));
            long partialMs = closedAfterMs(partial, start);
            long silentMs = silentClosed.get(20, TimeUnit.SECONDS);
            for (long ms : new long[] {silentMs, partialMs}) {
                assertTrue(ms >= QueryServer.HEAD_DEADLINE_MS - 500 && ms <= QueryServer.HEAD_DEADLINE_MS + 4_000,
                        "closed after " + ms + " ms (silent " + silentMs + ", partial head " + partialMs + ")");
            }
        }
    }

    /** Reads until the server closes the connection; the time since {@code start}, or -1 if it stayed open. */
    private static long closedAfterMs(Socket socket, long start) {
        try {
            socket.setSoTimeout((int) QueryServer.IDLE_TIMEOUT_MS / 2);
            while (socket.getInputStream().read() >= 0) {
                // nothing is expected; whatever arrives is read past
            }
        } catch (SocketTimeoutException e) {
            return -1;
        } catch (IOException e) {
            // a reset, or TLS closed without close_notify: closed all the same
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    /**
     * A keystore written over in place (as a tool or an operator copies a renewed one) is served to new connections
     * within seconds, and the server answers every request meanwhile.
     */
    @Test
    void aKeystoreWrittenOverIsServedWithoutARestart() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("rewritten"));
        Path keyStore = Files.copy(certificates.server("sextant-a").keyStore(), folder.resolve("keystore.p12"));
        FakeBackend backend = backend(config(Map.of(
                "query.tls.keystore.location", keyStore.toString(),
                "query.tls.keystore.password", certificates.password(),
                "query.tls.truststore.location", certificates.trust().caPem().toString(),
                "query.tls.truststore.type", "PEM")));
        assertEquals("CN=sextant-a", servedSubject(backend));

        Files.copy(certificates.server("sextant-b").keyStore(), keyStore, StandardCopyOption.REPLACE_EXISTING);
        assertServedWithin(backend, "CN=sextant-b");
    }

    /**
     * A Kubernetes Secret volume: each key is a link {@code name -> ..data/name}, {@code ..data} a link to a
     * timestamped folder; the kubelet renews a Secret by writing a new folder and renaming a new {@code ..data} link
     * over the old one (the file's own link never changes), then deleting the old folder.
     */
    @Test
    void aKubernetesSecretVolumeSwapIsServedWithoutARestart() throws Exception {
        Path volume = Files.createDirectories(dir.resolve("secret-volume"));
        Path first = Files.createDirectories(volume.resolve("..2026_01_01_00_00_00.1"));
        Files.copy(certificates.server("sextant-c").keyStore(), first.resolve("keystore.p12"));
        Files.createSymbolicLink(volume.resolve("..data"), first.getFileName());
        Path keyStore = Files.createSymbolicLink(volume.resolve("keystore.p12"), Path.of("..data", "keystore.p12"));
        FakeBackend backend = backend(config(Map.of(
                "query.tls.keystore.location", keyStore.toString(),
                "query.tls.keystore.password", certificates.password(),
                "query.tls.truststore.location", certificates.trust().caPem().toString(),
                "query.tls.truststore.type", "PEM")));
        assertEquals("CN=sextant-c", servedSubject(backend));

        Path second = Files.createDirectories(volume.resolve("..2026_02_01_00_00_00.2"));
        Files.copy(certificates.server("sextant-d").keyStore(), second.resolve("keystore.p12"));
        Files.createSymbolicLink(volume.resolve("..data_tmp"), second.getFileName());
        Files.move(volume.resolve("..data_tmp"), volume.resolve("..data"), StandardCopyOption.ATOMIC_MOVE);
        Files.delete(first.resolve("keystore.p12"));
        Files.delete(first);
        assertServedWithin(backend, "CN=sextant-d");
    }

    /**
     * The truststore is reloaded too: a client whose certificate a new CA signed is refused, then admitted once the
     * CA bundle lists that CA (as Strimzi's {@code ca.crt} does while it renews a CA).
     */
    @Test
    void aRenewedCaBundleIsTrustedWithoutARestart() throws Exception {
        TestCertificates renewedCa = TestCertificates.create(dir.resolve("renewed-ca"), "sextant-renewed-ca");
        Path folder = Files.createDirectories(dir.resolve("bundle"));
        Path bundle = Files.copy(certificates.trust().caPem(), folder.resolve("ca.crt"));
        FakeBackend backend = backend(config(Map.of(
                "query.tls.keystore.location", certificates.server("sextant-e").keyStore().toString(),
                "query.tls.keystore.password", certificates.password(),
                "query.tls.truststore.location", bundle.toString(),
                "query.tls.truststore.type", "PEM",
                "query.tls.client.auth", "required")));
        Map<String, Object> ssl = new HashMap<>();
        ssl.put("ssl.truststore.location", certificates.trust().caPem().toString());
        ssl.put("ssl.truststore.type", "PEM");
        TestCertificates.KeyMaterial client = renewedCa.client("failover-tool");
        ssl.put("ssl.keystore.location", client.keyStore().toString());
        ssl.put("ssl.keystore.password", new Password(client.password()));
        SSLContext renewedClient = TlsContexts.load(ssl, "test");
        assertThrows(IOException.class, () -> get(renewedClient, backend.url() + "/health/live", null),
                "a client of the new CA, before the bundle lists it");

        Files.writeString(bundle, Files.readString(certificates.trust().caPem())
                + Files.readString(renewedCa.trust().caPem()));
        assertEquals(200, Await.value(Duration.ofSeconds(20), "the new CA's client admitted", () -> {
            try {
                return get(renewedClient, backend.url() + "/health/live", null).statusCode();
            } catch (IOException e) {
                return null;
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }));
        assertEquals(200, get(clientContext("failover-tool"), backend.url() + "/health/live", null).statusCode(),
                "a client of the old CA still");
    }

    /** The subject of the certificate a new connection is served. */
    private static String servedSubject(FakeBackend backend) throws IOException {
        try (SSLSocket socket = (SSLSocket) clientContext(null).getSocketFactory().createSocket("127.0.0.1",
                backend.address().port())) {
            socket.setSoTimeout(5_000);
            socket.startHandshake();
            return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSubjectX500Principal()
                    .getName();
        }
    }

    /** Polls new connections until one is served {@code subject}; each must also be answered 200. */
    private static void assertServedWithin(FakeBackend backend, String subject) throws Exception {
        assertEquals(subject, Await.value(Duration.ofSeconds(20), subject + " served", () -> {
            try {
                assertEquals(200, get(clientContext(null), backend.url() + "/health/live", null).statusCode());
                String served = servedSubject(backend);
                return served.equals(subject) ? served : null;
            } catch (SSLException e) {
                throw new AssertionError("the server stopped serving TLS while its keystore was replaced", e);
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }), "served once the file changed");
    }

    @Test
    void badStoresAreAConfigurationErrorNamingTheKey() {
        SextantConfig wrongPassword = config(Map.of(
                "query.tls.keystore.location", certificates.server("x").keyStore().toString(),
                "query.tls.keystore.password", "not-the-password"));
        InvalidConfigurationException e = assertThrows(
                InvalidConfigurationException.class, () -> TlsContexts.of(wrongPassword));
        assertTrue(e.getMessage().contains("query.tls"), e.getMessage());
        assertTrue(!e.getMessage().contains("not-the-password"), e.getMessage());
        assertEquals(Optional.empty(), TlsContexts.of(config(Map.of())));
    }
}
