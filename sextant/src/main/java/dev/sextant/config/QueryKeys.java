package dev.sextant.config;

import static dev.sextant.config.ConfigKeys.HEALTH_DESTINATION_TIMEOUT_MS_CONFIG;
import static dev.sextant.config.ConfigKeys.HEALTH_DESTINATION_TIMEOUT_MS_DEFAULT;
import static dev.sextant.config.ConfigKeys.QUERY_ADVERTISED_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_AUTH_OPEN_PATHS_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_AUTH_OPEN_PATHS_DEFAULT;
import static dev.sextant.config.ConfigKeys.QUERY_AUTH_TOKEN_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_LISTEN_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_LISTEN_DEFAULT;
import static dev.sextant.config.ConfigKeys.QUERY_THREADS_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_THREADS_DEFAULT;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_CLIENT_AUTH_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_CLIENT_AUTH_VALUES;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_KEYSTORE_LOCATION_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_KEYSTORE_PASSWORD_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_KEYSTORE_TYPE_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_KEY_PASSWORD_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_STORE_TYPES;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_TRUSTSTORE_LOCATION_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_TRUSTSTORE_PASSWORD_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_TRUSTSTORE_TYPE_CONFIG;
import static dev.sextant.config.KeyDefiner.define;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * The keys of the HTTP API: where it listens, who may call it, its TLS, and when it reports this instance not
 * ready; the group Interactive queries of {@link ConfigDefinitions}.
 */
final class QueryKeys {

    private static final String GROUP_QUERY = "Interactive queries";

    private QueryKeys() {
    }

    /** Adds the HTTP API's keys, in documentation order. */
    static void addTo(ConfigDef def) {
        defineQuery(def);
        defineQueryTls(def);
        defineHealth(def);
    }

    /** The HTTP API: where it listens and is reached, its threads, and who may call it. */
    private static void defineQuery(ConfigDef def) {
        define(def, QUERY_LISTEN_CONFIG, Type.STRING, QUERY_LISTEN_DEFAULT,
                ConfigValidators.hostAndPort(true, false, true), Importance.MEDIUM, GROUP_QUERY,
                "Address the HTTP API (queries, health, metrics) binds, as host:port. The default binds the loopback "
                        + "interface only; 0.0.0.0 binds every interface (needed for other instances, probes and "
                        + "scrapers on other hosts: then set query.auth.token or TLS client certificates). Port 0 "
                        + "picks a free port.");
        define(def, QUERY_ADVERTISED_CONFIG, Type.STRING, null, ConfigValidators.hostAndPort(false, true, false),
                Importance.MEDIUM, GROUP_QUERY,
                "Address other Sextant instances use to reach this one's HTTP API, as host:port (Kafka Streams' "
                        + "application.server). Unset (or empty), it is query.listen with a 0.0.0.0 host replaced by "
                        + "the local host name.");
        define(def, QUERY_THREADS_CONFIG, Type.INT, QUERY_THREADS_DEFAULT, ConfigValidators.between(2, 256),
                Importance.LOW, GROUP_QUERY,
                "Worker threads of the HTTP API's queries (a forwarded query holds one on each of two instances). "
                        + "When all are busy and their queue is full, a query answers 503 with Retry-After. "
                        + "/health/* and /metrics have a small pool of their own, so probes answer under load.");
        define(def, QUERY_AUTH_TOKEN_CONFIG, Type.PASSWORD, null, null, Importance.MEDIUM, GROUP_QUERY,
                "Bearer token the HTTP API requires ('Authorization: Bearer <token>') on every path except "
                        + "query.auth.open.paths; 401 without it. Every instance must have the same token: they "
                        + "forward queries to each other with it, and the CLI (-c) sends it too. Unset: no token. "
                        + "Use a config provider (${file:...}, ${env:...}) rather than writing it in the file.");
        define(def, QUERY_AUTH_OPEN_PATHS_CONFIG, Type.LIST, QUERY_AUTH_OPEN_PATHS_DEFAULT,
                ConfigValidators.paths(), Importance.LOW, GROUP_QUERY,
                "Paths answered without the token (exact paths, comma-separated), for probes and scrapers that "
                        + "cannot send one. Empty: every path needs the token.");
    }

    /** The HTTP API's TLS: its keystore, the truststore for client certificates, and whether to ask for them. */
    private static void defineQueryTls(ConfigDef def) {
        define(def, QUERY_TLS_KEYSTORE_LOCATION_CONFIG, Type.STRING, null, null, Importance.MEDIUM, GROUP_QUERY,
                "Keystore with the HTTP API's key and certificate; set, the API is served over HTTPS only "
                        + "(and instances forward to each other over HTTPS: their certificates must be valid for "
                        + "their query.advertised hosts). Unset: plain HTTP.");
        define(def, QUERY_TLS_KEYSTORE_PASSWORD_CONFIG, Type.PASSWORD, null, null, Importance.MEDIUM, GROUP_QUERY,
                "Password of query.tls.keystore.location (PKCS12, JKS; for PEM, leave unset).");
        define(def, QUERY_TLS_KEYSTORE_TYPE_CONFIG, Type.STRING, "PKCS12",
                ConfigValidators.oneOf(QUERY_TLS_STORE_TYPES), Importance.LOW, GROUP_QUERY,
                "Format of query.tls.keystore.location: PKCS12, JKS, or PEM (one file with the private key, "
                        + "PKCS#8, followed by the certificate chain), as Kafka's ssl.keystore.type.");
        define(def, QUERY_TLS_KEY_PASSWORD_CONFIG, Type.PASSWORD, null, null, Importance.LOW, GROUP_QUERY,
                "Password of the private key in the keystore, when it differs from the keystore's (for PEM: the "
                        + "password of an encrypted key).");
        define(def, QUERY_TLS_TRUSTSTORE_LOCATION_CONFIG, Type.STRING, null, null, Importance.LOW, GROUP_QUERY,
                "Truststore of the certificates (or their CA) the HTTP API trusts: client certificates when "
                        + "query.tls.client.auth is set, and other instances' certificates when forwarding. Unset: "
                        + "the JVM's default trust (client certificates then cannot be required).");
        define(def, QUERY_TLS_TRUSTSTORE_PASSWORD_CONFIG, Type.PASSWORD, null, null, Importance.LOW, GROUP_QUERY,
                "Password of query.tls.truststore.location (PKCS12, JKS; for PEM, leave unset).");
        define(def, QUERY_TLS_TRUSTSTORE_TYPE_CONFIG, Type.STRING, "PKCS12",
                ConfigValidators.oneOf(QUERY_TLS_STORE_TYPES), Importance.LOW, GROUP_QUERY,
                "Format of query.tls.truststore.location: PKCS12, JKS, or PEM (CA certificates).");
        define(def, QUERY_TLS_CLIENT_AUTH_CONFIG, Type.STRING, "none",
                ConfigValidators.oneOf(QUERY_TLS_CLIENT_AUTH_VALUES), Importance.LOW, GROUP_QUERY,
                "Client certificates on the HTTP API's TLS: 'none', 'requested' (checked when sent), or "
                        + "'required' (a client without one trusted by query.tls.truststore.location cannot connect). "
                        + "Instances present their own keystore's certificate to each other.");
    }

    /** When the HTTP API reports this instance not ready. */
    private static void defineHealth(ConfigDef def) {
        define(def, HEALTH_DESTINATION_TIMEOUT_MS_CONFIG, Type.LONG, HEALTH_DESTINATION_TIMEOUT_MS_DEFAULT,
                ConfigValidators.atLeast(0), Importance.LOW, GROUP_QUERY,
                "How long, in milliseconds, the destination may be unreachable before /health/ready says so in "
                        + "its body (status DEGRADED, with the reason). The status code stays 200, and liveness too: "
                        + "the instance still serves queries, restarting it does not bring a destination back, and "
                        + "positions keep being read and kept meanwhile; alert on sextant_destination_up.");
    }
}
