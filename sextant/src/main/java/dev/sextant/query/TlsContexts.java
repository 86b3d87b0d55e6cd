package dev.sextant.query;

import dev.sextant.config.ConfigKeys;
import dev.sextant.config.InvalidConfigurationException;
import dev.sextant.config.SextantConfig;
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
                    String.valueOf(sslConfigs.get("ssl.keystore.location")),
                    "Cannot load the HTTP API's TLS stores (query.tls.*): " + e.getMessage()
                            + ". Fix: check the locations, types and passwords of query.tls.keystore.* and "
                            + "query.tls.truststore.*.", e);
        }
    }
}
