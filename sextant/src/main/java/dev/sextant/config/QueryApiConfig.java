package dev.sextant.config;

import static dev.sextant.config.ConfigChecks.origin;
import static dev.sextant.config.ConfigKeys.QUERY_ADVERTISED_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_AUTH_OPEN_PATHS_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_AUTH_TOKEN_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_LISTEN_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_THREADS_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_CLIENT_AUTH_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_KEYSTORE_LOCATION_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_KEYSTORE_PASSWORD_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_KEYSTORE_TYPE_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_KEY_PASSWORD_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_TRUSTSTORE_LOCATION_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_TRUSTSTORE_PASSWORD_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_TRUSTSTORE_TYPE_CONFIG;

import java.io.File;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.types.Password;

/**
 * The HTTP API's part of the configuration ({@code query.*}, defined in {@link QueryKeys}): where it listens and is
 * reached, how many threads answer, who may call it, and its TLS. {@link SextantConfig}'s {@code query*} accessors
 * read it.
 *
 * <p>Invariants: built from values already parsed and checked one by one ({@link ConfigChecks}); building it checks
 * what only holds across its keys, the TLS settings (client certificates need a keystore and a truststore, a store
 * file must be readable), and refuses with an {@link InvalidConfigurationException} per key at fault. Once built it
 * does not change, but for the advertised address derived from a wildcard listen host, looked up once on first use
 * ({@link AdvertisedAddress}).
 */
final class QueryApiConfig {

    private final HostAndPort listen;
    private final AdvertisedAddress advertised;
    private final int threads;
    private final Optional<String> authToken;
    private final List<String> authOpenPaths;
    private final boolean tls;
    private final String tlsClientAuth;
    private final Map<String, Object> tlsSslConfigs;

    private QueryApiConfig(Map<String, Object> values) {
        this.listen = HostAndPort.parse((String) values.get(QUERY_LISTEN_CONFIG));
        String configured = (String) values.get(QUERY_ADVERTISED_CONFIG);
        this.advertised = new AdvertisedAddress(listen, configured == null ? null : HostAndPort.parse(configured));
        this.threads = (Integer) values.get(QUERY_THREADS_CONFIG);
        Password token = (Password) values.get(QUERY_AUTH_TOKEN_CONFIG);
        this.authToken = token == null || token.value().isEmpty() ? Optional.empty() : Optional.of(token.value());
        @SuppressWarnings("unchecked")
        List<String> openPaths = (List<String>) values.get(QUERY_AUTH_OPEN_PATHS_CONFIG);
        this.authOpenPaths = List.copyOf(openPaths);
        this.tls = values.get(QUERY_TLS_KEYSTORE_LOCATION_CONFIG) != null;
        this.tlsClientAuth = ((String) values.get(QUERY_TLS_CLIENT_AUTH_CONFIG)).toLowerCase(Locale.ROOT);
        this.tlsSslConfigs = sslConfigs(values);
    }

    /**
     * The HTTP API's configuration out of every key's parsed value.
     *
     * @param values  every key's parsed value, as {@link org.apache.kafka.common.config.ConfigDef#parse} gives them
     * @param origins where each key came from, for the messages
     * @param files   false to leave the store files unchecked (checked offline, where they need not exist)
     * @throws InvalidConfigurationException for every TLS key at fault
     */
    static QueryApiConfig of(Map<String, Object> values, Map<String, String> origins, boolean files) {
        QueryApiConfig query = new QueryApiConfig(values);
        checkTls(query, values, origins, files);
        return query;
    }

    /** {@code query.listen}; port 0 means "pick a free port". */
    HostAndPort listen() {
        return listen;
    }

    /** {@code query.advertised}, or derived from {@link #listen()} (see {@link AdvertisedAddress}). */
    HostAndPort advertised() {
        return advertised.get();
    }

    /** {@code query.threads}. */
    int threads() {
        return threads;
    }

    /** {@code query.auth.token}, when set and not empty. */
    Optional<String> authToken() {
        return authToken;
    }

    /** {@code query.auth.open.paths}. */
    List<String> authOpenPaths() {
        return authOpenPaths;
    }

    /** True when {@code query.tls.keystore.location} is set. */
    boolean tls() {
        return tls;
    }

    /** {@code query.tls.client.auth}, lower case. */
    String tlsClientAuth() {
        return tlsClientAuth;
    }

    /** The TLS settings as Kafka's {@code ssl.*} client keys; a new map on each call, the caller's to change. */
    Map<String, Object> tlsSslConfigs() {
        return new HashMap<>(tlsSslConfigs);
    }

    private static Map<String, Object> sslConfigs(Map<String, Object> values) {
        Map<String, Object> ssl = new HashMap<>();
        putIfSet(ssl, "ssl.keystore.location", values.get(QUERY_TLS_KEYSTORE_LOCATION_CONFIG));
        putIfSet(ssl, "ssl.keystore.password", values.get(QUERY_TLS_KEYSTORE_PASSWORD_CONFIG));
        ssl.put("ssl.keystore.type", ((String) values.get(QUERY_TLS_KEYSTORE_TYPE_CONFIG)).toUpperCase(Locale.ROOT));
        putIfSet(ssl, "ssl.key.password", values.get(QUERY_TLS_KEY_PASSWORD_CONFIG));
        putIfSet(ssl, "ssl.truststore.location", values.get(QUERY_TLS_TRUSTSTORE_LOCATION_CONFIG));
        putIfSet(ssl, "ssl.truststore.password", values.get(QUERY_TLS_TRUSTSTORE_PASSWORD_CONFIG));
        ssl.put("ssl.truststore.type",
                ((String) values.get(QUERY_TLS_TRUSTSTORE_TYPE_CONFIG)).toUpperCase(Locale.ROOT));
        return ssl;
    }

    private static void putIfSet(Map<String, Object> map, String key, Object value) {
        if (value != null) {
            map.put(key, value);
        }
    }

    // ------------------------------------------------------------------------------------------------ TLS checks

    /** The keys of the HTTP API's TLS that only make sense together, and the files they name. */
    private static void checkTls(QueryApiConfig query, Map<String, Object> values, Map<String, String> origins,
                                 boolean files) {
        List<InvalidConfigurationException> problems = new ArrayList<>();
        String clientAuth = query.tlsClientAuth();
        if (!clientAuth.equals("none")) {
            checkClientAuthHasStores(values, clientAuth, origins, problems);
        }
        for (String key : List.of(QUERY_TLS_KEYSTORE_LOCATION_CONFIG, QUERY_TLS_TRUSTSTORE_LOCATION_CONFIG)) {
            String location = (String) values.get(key);
            if (files && location != null && !new File(location).canRead()) {
                problems.add(new InvalidConfigurationException(key, location, "'" + key + "=" + location + "'"
                        + origin(key, origins) + ": " + (new File(location).exists() ? "the file cannot be read"
                        : "no such file") + ". Fix: point '" + key + "' at the store's file (readable by Sextant's "
                        + "user), or remove it."));
            }
        }
        if (!problems.isEmpty()) {
            throw InvalidConfigurationException.of(problems);
        }
    }

    private static void checkClientAuthHasStores(Map<String, Object> values, String clientAuth,
                                                 Map<String, String> origins,
                                                 List<InvalidConfigurationException> problems) {
        if (values.get(QUERY_TLS_KEYSTORE_LOCATION_CONFIG) == null) {
            problems.add(new InvalidConfigurationException(QUERY_TLS_CLIENT_AUTH_CONFIG, clientAuth, "'"
                    + QUERY_TLS_CLIENT_AUTH_CONFIG + "=" + clientAuth + "'" + origin(QUERY_TLS_CLIENT_AUTH_CONFIG,
                    origins) + " needs TLS. Fix: set '" + QUERY_TLS_KEYSTORE_LOCATION_CONFIG + "' (the API's own "
                    + "key and certificate), or set '" + QUERY_TLS_CLIENT_AUTH_CONFIG + "=none'."));
        }
        if (values.get(QUERY_TLS_TRUSTSTORE_LOCATION_CONFIG) == null) {
            problems.add(new InvalidConfigurationException(QUERY_TLS_CLIENT_AUTH_CONFIG, clientAuth, "'"
                    + QUERY_TLS_CLIENT_AUTH_CONFIG + "=" + clientAuth + "'" + origin(QUERY_TLS_CLIENT_AUTH_CONFIG,
                    origins) + " checks client certificates against a truststore. Fix: set '"
                    + QUERY_TLS_TRUSTSTORE_LOCATION_CONFIG + "' to the CA (or certificates) of the clients."));
        }
    }
}
