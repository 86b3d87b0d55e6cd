package dev.sextant.testkit;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/**
 * How a {@link LocalKafkaBroker} authenticates and authorizes connections, and the credentials of the principals it
 * knows: the server side ({@code server.properties} entries, format-time SCRAM users) and the matching client side.
 *
 * <p>Three kinds: {@link #plaintext()} (no security at all, as every broker was before), {@link #scram} (clients on
 * SASL_SSL with SCRAM-SHA-512) and {@link #mutualTls} (clients on SSL with a required client certificate whose CN is
 * the principal). Invariants of the two secured kinds:
 * <ul>
 *   <li>Every listener encrypts and authenticates; none is PLAINTEXT, so no connection is ever
 *       {@code User:ANONYMOUS}. The controller listener is SSL with a required client certificate on both kinds
 *       (SCRAM cannot authenticate controller connections: its credentials live in the metadata the controller
 *       serves), and the broker presents its own server certificate there.</li>
 *   <li>The broker itself is {@code User:}{@value #BROKER_PRINCIPAL} on every listener (its certificate's CN, or its
 *       SCRAM user on the SASL_SSL inter-broker listener), and the tests' admin is {@code User:}{@value #ADMIN}; both
 *       are super users. Everyone else is denied whatever no ACL allows ({@code StandardAuthorizer},
 *       {@code allow.everyone.if.no.acl.found=false}).</li>
 *   <li>SCRAM credentials, the broker's and the admin's included, are written at format time, so they exist from
 *       the broker's first start; their passwords are known to this object, which is how it makes client configs.</li>
 *   <li>The CA and every certificate are made for this broker alone ({@link TestCertificates}, in the broker's
 *       directory): two secured brokers never trust each other's clients.</li>
 * </ul>
 */
final class BrokerSecurity {

    /** The broker's own principal name: the CN of its certificate and its SCRAM user. */
    static final String BROKER_PRINCIPAL = "kafka-broker";
    /** The tests' super user, whose credentials {@link LocalKafkaBroker#clientProperties()} returns. */
    static final String ADMIN = "admin";
    static final String SCRAM_MECHANISM = "SCRAM-SHA-512";
    static final String CONTROLLER_LISTENER = "CONTROLLER";
    static final String AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer";
    /** {@code User:<CN>} for a subject {@code CN=<name>[,...]}; anything else by Kafka's default (the whole DN). */
    static final String PRINCIPAL_MAPPING_RULES = "RULE:^CN=([^,]+).*$/$1/,DEFAULT";
    /**
     * SCRAM user names and passwords go verbatim into the format tool's {@code [name=..,password=..]} syntax and
     * into a JAAS string: this keeps them free of characters either would need escaped.
     */
    static final String CREDENTIAL_PATTERN = "[A-Za-z0-9._-]+";

    private static final String PEM = "PEM";
    private static final String SCRAM_LOGIN_MODULE = "org.apache.kafka.common.security.scram.ScramLoginModule";

    private final SecurityProtocol protocol;
    private final TestCertificates certificates; // null when plaintext
    private final Map<String, String> scramPasswords; // empty unless SCRAM

    private BrokerSecurity(SecurityProtocol protocol, TestCertificates certificates,
                           Map<String, String> scramPasswords) {
        this.protocol = protocol;
        this.certificates = certificates;
        this.scramPasswords = scramPasswords;
    }

    /** No security: PLAINTEXT listeners, no authorizer. */
    static BrokerSecurity plaintext() {
        return new BrokerSecurity(SecurityProtocol.PLAINTEXT, null, Map.of());
    }

    /**
     * Clients on SASL_SSL with SCRAM-SHA-512; {@code users} (name to password) are created at format time next to
     * the broker's own user and the admin (both with random passwords). The CA goes into {@code tlsDirectory}.
     */
    static BrokerSecurity scram(Path tlsDirectory, Map<String, String> users) {
        Map<String, String> passwords = new LinkedHashMap<>();
        passwords.put(BROKER_PRINCIPAL, randomPassword());
        passwords.put(ADMIN, randomPassword());
        users.forEach((name, password) -> {
            checkScramUser(name, password);
            passwords.put(name, password);
        });
        return new BrokerSecurity(SecurityProtocol.SASL_SSL, newCertificates(tlsDirectory),
                Collections.unmodifiableMap(passwords));
    }

    /** Clients on SSL with a required client certificate, issued on demand by a CA in {@code tlsDirectory}. */
    static BrokerSecurity mutualTls(Path tlsDirectory) {
        return new BrokerSecurity(SecurityProtocol.SSL, newCertificates(tlsDirectory), Map.of());
    }

    /**
     * The security of a broker whose clients speak {@code protocol}: {@link #scram} for SASL_SSL (with
     * {@code scramUsers}), {@link #mutualTls} for SSL, and {@link #plaintext()} for anything else.
     */
    static BrokerSecurity forProtocol(SecurityProtocol protocol, Path tlsDirectory, Map<String, String> scramUsers) {
        return switch (protocol) {
            case SASL_SSL -> scram(tlsDirectory, scramUsers);
            case SSL -> mutualTls(tlsDirectory);
            default -> plaintext();
        };
    }

    /** Rejects a user the builder must not accept (reserved, or not writable into the format tool's syntax). */
    static void checkScramUser(String name, String password) {
        if (name.equals(BROKER_PRINCIPAL) || name.equals(ADMIN)) {
            throw new IllegalArgumentException("SCRAM user " + name + " is reserved (the broker's or the admin's)");
        }
        if (!name.matches(CREDENTIAL_PATTERN) || !password.matches(CREDENTIAL_PATTERN)) {
            throw new IllegalArgumentException("SCRAM user names and passwords must match " + CREDENTIAL_PATTERN
                    + ": " + name);
        }
    }

    private static TestCertificates newCertificates(Path tlsDirectory) {
        TestCertificates ca = TestCertificates.create(tlsDirectory, "sextant-local-ca");
        ca.server(BROKER_PRINCIPAL);
        return ca;
    }

    private static String randomPassword() {
        byte[] bytes = new byte[16];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** What clients speak on the client listener: PLAINTEXT, SASL_SSL or SSL. */
    SecurityProtocol protocol() {
        return protocol;
    }

    boolean secured() {
        return protocol != SecurityProtocol.PLAINTEXT;
    }

    /** The client listener's name: the protocol's name, so a config reads as what it is. */
    String clientListener() {
        return protocol.name;
    }

    /** The controller listener's protocol: SSL when secured (see the class comment), else PLAINTEXT. */
    SecurityProtocol controllerProtocol() {
        return secured() ? SecurityProtocol.SSL : SecurityProtocol.PLAINTEXT;
    }

    Optional<TestCertificates> certificates() {
        return Optional.ofNullable(certificates);
    }

    /**
     * The {@code server.properties} entries for TLS, SASL and authorization (empty when plaintext), without the
     * listeners themselves; {@code clientListeners} are the names of every listener clients connect to.
     */
    Map<String, String> serverProperties(List<String> clientListeners) {
        Map<String, String> p = new LinkedHashMap<>();
        if (!secured()) {
            return p;
        }
        // the same key serves every listener, and is what the broker presents when it is the client
        p.putAll(pemStores(certificates.server(BROKER_PRINCIPAL)));
        p.put("ssl.principal.mapping.rules", PRINCIPAL_MAPPING_RULES);
        if (protocol == SecurityProtocol.SSL) {
            // every listener is SSL: clients, inter-broker and controller all need a certificate
            p.put("ssl.client.auth", "required");
        } else {
            // only the controller listener is SSL; set per listener, because the unprefixed setting would also ask
            // SASL_SSL clients for a certificate
            p.put(listenerPrefix(CONTROLLER_LISTENER) + "ssl.client.auth", "required");
            p.put("sasl.enabled.mechanisms", SCRAM_MECHANISM);
            p.put("sasl.mechanism.inter.broker.protocol", SCRAM_MECHANISM);
            for (String listener : clientListeners) {
                p.putAll(listenerProperties(listener));
            }
        }
        p.put("authorizer.class.name", AUTHORIZER);
        p.put("allow.everyone.if.no.acl.found", "false");
        p.put("super.users", "User:" + BROKER_PRINCIPAL + ";User:" + ADMIN);
        return p;
    }

    /**
     * The entries one more client listener needs: for SASL, the broker's JAAS config on it (Kafka requires one per
     * listener and mechanism; its credentials are what the broker uses when it is the client there).
     */
    Map<String, String> listenerProperties(String listener) {
        if (protocol != SecurityProtocol.SASL_SSL) {
            return Map.of();
        }
        return Map.of(listenerPrefix(listener) + SCRAM_MECHANISM.toLowerCase(Locale.ROOT) + "."
                + SaslConfigs.SASL_JAAS_CONFIG, scramJaas(BROKER_PRINCIPAL, scramPasswords.get(BROKER_PRINCIPAL)));
    }

    /** The format tool's {@code --add-scram} arguments, one per SCRAM user (none unless SCRAM). */
    List<String> formatArguments() {
        List<String> args = new ArrayList<>();
        scramPasswords.forEach((name, password) -> {
            args.add("--add-scram");
            args.add(SCRAM_MECHANISM + "=[name=" + name + ",password=" + password + "]");
        });
        return args;
    }

    /** Client settings (without {@code bootstrap.servers}) of the admin; empty when plaintext. */
    Map<String, Object> adminClientProperties() {
        return secured() ? clientProperties(ADMIN) : new LinkedHashMap<>();
    }

    /**
     * Client settings (without {@code bootstrap.servers}) of {@code principal}: a known SCRAM user with its
     * password, or a client certificate with CN {@code principal} (issued on first use).
     *
     * @throws IllegalStateException if this broker is not secured
     * @throws IllegalArgumentException if SCRAM and no such user was created
     */
    Map<String, Object> clientProperties(String principal) {
        if (protocol == SecurityProtocol.SASL_SSL) {
            String password = scramPasswords.get(principal);
            if (password == null) {
                throw new IllegalArgumentException("no SCRAM user " + principal + " on this broker (create it with "
                        + "scramUser(name, password)); users: " + scramPasswords.keySet());
            }
            return scramClientProperties(principal, password);
        }
        if (!secured()) {
            throw new IllegalStateException("this broker is not secured: every client is anonymous");
        }
        Map<String, Object> p = new LinkedHashMap<>();
        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, protocol.name);
        p.putAll(pemStores(certificates.client(principal)));
        return p;
    }

    /**
     * SCRAM client settings for {@code user} with {@code password}, right or not (for tests of failed logins).
     *
     * @throws IllegalStateException unless this broker takes SCRAM
     */
    Map<String, Object> scramClientProperties(String user, String password) {
        if (protocol != SecurityProtocol.SASL_SSL) {
            throw new IllegalStateException("this broker does not take SCRAM (" + protocol + ")");
        }
        Map<String, Object> p = new LinkedHashMap<>();
        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, protocol.name);
        p.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, PEM);
        p.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, path(certificates.trust().caPem()));
        p.put(SaslConfigs.SASL_MECHANISM, SCRAM_MECHANISM);
        p.put(SaslConfigs.SASL_JAAS_CONFIG, scramJaas(user, password));
        return p;
    }

    /**
     * Key and trust store as PEM files: Kafka reads them without a password, where a PKCS12 store costs ~80 ms of
     * key derivation per load in a C1-only JVM, and a broker or MirrorMaker 2 loads its stores once per internal
     * client (measured: ~1 s less CPU to start a secured broker). The PKCS12 stores stay in {@link #certificates()}.
     */
    private Map<String, String> pemStores(TestCertificates.KeyMaterial key) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put(SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, PEM);
        p.put(SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, path(key.pem()));
        p.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, PEM);
        p.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, path(certificates.trust().caPem()));
        return p;
    }

    private static String path(Path file) {
        return file.toAbsolutePath().toString();
    }

    private static String scramJaas(String user, String password) {
        // quoted, as JAAS wants any value that is not a plain word
        return SCRAM_LOGIN_MODULE + " required username=\"" + user + "\" password=\"" + password + "\";";
    }

    private static String listenerPrefix(String listener) {
        return "listener.name." + listener.toLowerCase(Locale.ROOT) + ".";
    }

    @Override
    public String toString() {
        return switch (protocol) {
            case SASL_SSL -> "SASL_SSL/" + SCRAM_MECHANISM;
            case SSL -> "SSL with client certificates";
            default -> protocol.name;
        };
    }
}
