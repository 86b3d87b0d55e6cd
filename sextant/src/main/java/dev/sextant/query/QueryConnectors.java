package dev.sextant.query;

import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.Scanner;
import org.eclipse.jetty.util.ssl.KeyStoreScanner;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connector {@link QueryServer} listens with: HTTP/1.1, or HTTPS with the API's TLS context and its
 * client-certificate rule. Address, limits and timeouts are the server's to set.
 *
 * <p>With TLS, the stores are reloaded when their files change, by Jetty's own machinery, as beans of the server:
 * a {@link KeyStoreScanner} watches the keystore, a {@link Scanner} the truststore (when it is another file); each
 * calls {@link SslContextFactory#reload}, which new connections then use (open ones keep their session). Both watch
 * the file's folder and compare the file's modification time and size through symbolic links, so a file written in
 * place, one renamed over the old, and a Kubernetes Secret volume's swap of its {@code ..data} link are all seen.
 */
final class QueryConnectors {

    private static final Logger log = LoggerFactory.getLogger(QueryConnectors.class);
    /** How often the store files are checked, in seconds (a renewed certificate is served within about two). */
    static final int RELOAD_SCAN_SECONDS = 1;

    private QueryConnectors() {
    }

    /**
     * @param tls            the API's TLS store files, or empty for plain HTTP
     * @param clientAuth     none, requested or required (client certificates, with TLS)
     * @param maxHeaderBytes the largest request head accepted
     */
    static ServerConnector create(Server server, Optional<TlsContexts.StoreFiles> tls, String clientAuth,
                                  int maxHeaderBytes) {
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setRequestHeaderSize(maxHeaderBytes);
        // group names may hold any character, '/' and '%' included: the API decodes segments itself
        http.setUriCompliance(UriCompliance.UNSAFE);
        HttpConnectionFactory httpFactory = new HttpConnectionFactory(http);
        if (tls.isEmpty()) {
            return new ServerConnector(server, 1, 1, httpFactory);
        }
        ReloadedFromFiles ssl = new ReloadedFromFiles(tls.get());
        ssl.setNeedClientAuth(clientAuth.equals("required"));
        ssl.setWantClientAuth(clientAuth.equals("requested"));
        ssl.setSniRequired(false);
        http.addCustomizer(new SecureRequestCustomizer(false));
        watch(server, ssl, tls.get());
        return new ServerConnector(server, 1, 1, new SslConnectionFactory(ssl, "http/1.1"), httpFactory);
    }

    private static void watch(Server server, ReloadedFromFiles ssl, TlsContexts.StoreFiles files) {
        KeyStoreScanner keyStore = new KeyStoreScanner(ssl);
        keyStore.setScanInterval(RELOAD_SCAN_SECONDS);
        server.addBean(keyStore);
        Path keyStorePath = absolute(files.keyStore());
        files.trustStore().map(QueryConnectors::absolute).filter(path -> !path.equals(keyStorePath))
                .ifPresent(trustStorePath -> server.addBean(trustStoreScanner(ssl, trustStorePath)));
    }

    /** What {@link KeyStoreScanner} does for the keystore, for the truststore. */
    private static Scanner trustStoreScanner(SslContextFactory ssl, Path trustStore) {
        Scanner scanner = new Scanner();
        scanner.addDirectory(trustStore.getParent());
        scanner.setScanDepth(1);
        scanner.setScanInterval(RELOAD_SCAN_SECONDS);
        scanner.setReportDirs(false);
        scanner.setReportExistingFilesOnStartup(false);
        scanner.addListener(new Scanner.BulkListener() {
            @Override
            public void pathsChanged(Set<Path> paths) {
                if (paths.stream().map(QueryConnectors::absolute).anyMatch(trustStore::equals)) {
                    try {
                        ssl.reload(factory -> {
                        });
                    } catch (Exception e) {
                        log.warn("The HTTP API's truststore {} changed but cannot be reloaded; the previous stores "
                                + "stay in use: {}", trustStore, e.getMessage());
                    }
                }
            }
        });
        return scanner;
    }

    private static Path absolute(Path path) {
        return path.toAbsolutePath().normalize();
    }

    /**
     * Jetty's server-side factory, with the context Kafka's loader makes from the files ({@link TlsContexts}): a
     * reload loads the files again, and a failed one (a file half-written, a wrong password) leaves the served
     * context in place.
     */
    private static final class ReloadedFromFiles extends SslContextFactory.Server {

        private final TlsContexts.StoreFiles files;

        ReloadedFromFiles(TlsContexts.StoreFiles files) {
            this.files = files;
            setSslContext(files.current());
            // what KeyStoreScanner watches; the context above is what is served
            setKeyStorePath(files.keyStore().toString());
        }

        @Override
        public void reload(Consumer<SslContextFactory> consumer) throws Exception {
            // loaded before Jetty unloads the current one, so that a failure leaves it served
            var loaded = files.reload();
            super.reload(factory -> {
                consumer.accept(factory);
                factory.setSslContext(loaded);
            });
            log.info("Reloaded the HTTP API's TLS stores ({})", files.keyStore());
        }
    }
}
