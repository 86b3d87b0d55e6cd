package dev.sextant.query;

import dev.sextant.config.ConfigKeys;
import dev.sextant.config.InvalidConfigurationException;
import dev.sextant.config.SextantConfig;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.security.ssl.DefaultSslEngineFactory;

/**
 * The {@link SSLContext}s of the HTTP API, loaded from {@code query.tls.*} by Kafka's own SSL engine factory, so the
 * stores load exactly as a Kafka client's would (PKCS12, JKS and PEM, key passwords, the same errors).
 *
 * <p>One context serves both directions: its key material is the instance's certificate (served to clients, and
 * presented to other instances when forwarding, for {@code query.tls.client.auth=required}); its trust material is
 * the truststore (client certificates, and other instances' server certificates), or the JVM's default trust.
 *
 * <p>The server reloads its context when the store files change ({@link StoreFiles}, watched by Jetty's scanners in
 * {@link QueryConnectors}), as a renewed certificate is written by cert-manager or Strimzi into a mounted Secret.
 */
public final class TlsContexts {

    private TlsContexts() {
    }

    /** The HTTP API's context, or empty when {@code query.tls.keystore.location} is unset (plain HTTP). */
    public static Optional<SSLContext> of(SextantConfig config) {
        if (!config.queryTls()) {
            return Optional.empty();
        }
        return Optional.of(load(config.queryTlsSslConfigs(), ConfigKeys.QUERY_TLS_KEYSTORE_LOCATION_CONFIG));
    }

    /** The API's store files, loaded once now, or empty when {@code query.tls.keystore.location} is unset. */
    public static Optional<StoreFiles> storeFiles(SextantConfig config) {
        if (!config.queryTls()) {
            return Optional.empty();
        }
        return Optional.of(new StoreFiles(config.queryTlsSslConfigs()));
    }

    /**
     * The files {@code query.tls.*} names, and the context last loaded from them: the server's reloads replace it,
     * and forwarding to other instances reads it, so both present the renewed certificate.
     */
    public static final class StoreFiles {

        private final Map<String, Object> sslConfigs;
        private volatile SSLContext current;

        StoreFiles(Map<String, Object> sslConfigs) {
            this.sslConfigs = Map.copyOf(sslConfigs);
            this.current = load(this.sslConfigs, ConfigKeys.QUERY_TLS_KEYSTORE_LOCATION_CONFIG);
        }

        /** The context last loaded. */
        public SSLContext current() {
            return current;
        }

        /** Loads the stores again; on failure the current context stays and the error names the keys. */
        SSLContext reload() {
            SSLContext loaded = load(sslConfigs, ConfigKeys.QUERY_TLS_KEYSTORE_LOCATION_CONFIG);
            current = loaded;
            return loaded;
        }

        Path keyStore() {
            return Path.of((String) sslConfigs.get(SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG));
        }

        Optional<Path> trustStore() {
            return Optional.ofNullable((String) sslConfigs.get(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG))
                    .map(Path::of);
        }
    }

    static SSLContext load(Map<String, Object> sslConfigs, String keyForErrors) {
        Map<String, Object> props = new HashMap<>(sslConfigs);
        // the endpoint check is the HTTP client's, on the URL's host
        props.put(SslConfigs.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG, "");
        Map<String, Object> parsed = new ConfigDef().withClientSslSupport().parse(props);
        DefaultSslEngineFactory factory = new DefaultSslEngineFactory();
        try {
            factory.configure(parsed);
            return factory.sslContext();
        } catch (RuntimeException e) {
            throw new InvalidConfigurationException(keyForErrors,
                    String.valueOf(sslConfigs.get(SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG)),
                    "Cannot load the HTTP API's TLS stores (query.tls.*): " + e.getMessage()
                            + ". Fix: check the locations, types and passwords of query.tls.keystore.* and "
                            + "query.tls.truststore.*.", e);
        }
    }
}
