package dev.sextant.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sextant.acl.RequiredAcl;
import dev.sextant.acl.RequiredAcls;
import dev.sextant.acl.SourceTopicReads;
import dev.sextant.config.SextantConfig;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.utils.internals.SecurityUtils;
import picocli.CommandLine;

/**
 * Sextant's ACLs as Strimzi {@code KafkaUser} resources, one per cluster ({@code config acls --format strimzi}): the
 * User Operator of each cluster creates the user, its ACLs ({@code spec.authorization}, type {@code simple}) and a
 * Secret of the user's name holding its credentials. The ACLs are exactly
 * {@code RequiredAcls.of(config, reads, cluster)}: resource type, name, pattern (literal or prefix), operations, host
 * {@code *}.
 */
final class StrimziKafkaUsers {

    static final String CLUSTER_LABEL = "strimzi.io/cluster";

    /** A Kubernetes object name (RFC 1123 subdomain), which a KafkaUser's name is. */
    private static final Pattern KUBERNETES_NAME = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");
    /** A Kubernetes label value, which the strimzi.io/cluster label's is. */
    private static final Pattern LABEL_VALUE = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");

    private StrimziKafkaUsers() {
    }

    /**
     * The KafkaUser's API version: v1beta2, which every Strimzi up to 0.51 serves; v1, which 0.49 and later serve and
     * 1.0 alone. The spec Sextant writes is the same in both (v1 requires {@code operations}, which it always gives).
     */
    enum ApiVersion {
        V1BETA2, V1;

        String apiVersion() {
            return "kafka.strimzi.io/" + name().toLowerCase(Locale.ROOT);
        }

        /** {@code v1beta2} or {@code v1}, in any case. */
        static final class Converter implements CommandLine.ITypeConverter<ApiVersion> {
            @Override
            public ApiVersion convert(String value) {
                for (ApiVersion version : values()) {
                    if (version.name().equalsIgnoreCase(value)) {
                        return version;
                    }
                }
                throw new CommandLine.TypeConversionException("'" + value + "' is not one of v1beta2, v1");
            }
        }
    }

    /** A KafkaUser's {@code spec.authentication.type}. */
    enum Authentication {
        SCRAM_SHA_512("scram-sha-512", "password, sasl.jaas.config"),
        TLS("tls", "user.crt, user.key, user.p12, user.password, ca.crt");

        final String type;
        /** The keys of the Secret the User Operator writes. */
        final String secretKeys;

        Authentication(String type, String secretKeys) {
            this.type = type;
            this.secretKeys = secretKeys;
        }

        /** {@code scram-sha-512} or {@code tls}, in any case. */
        static final class Converter implements CommandLine.ITypeConverter<Authentication> {
            @Override
            public Authentication convert(String value) {
                for (Authentication authentication : values()) {
                    if (authentication.type.equalsIgnoreCase(value)) {
                        return authentication;
                    }
                }
                throw new CommandLine.TypeConversionException("'" + value + "' is not one of scram-sha-512, tls");
            }
        }
    }

    /**
     * One cluster's KafkaUser.
     *
     * @param kafka              the Kafka resource, the {@value #CLUSTER_LABEL} label
     * @param kafkaFrom          where {@code kafka} came from, for the comment (null: the option)
     * @param authenticationFrom why this authentication, for the comment
     */
    record User(RequiredAcl.Cluster cluster, String name, String kafka, String kafkaFrom,
                Authentication authentication, String authenticationFrom) {
    }

    /**
     * The authentication a cluster's client settings use, when it is one a KafkaUser gives: SCRAM-SHA-512 over
     * SASL, or TLS with a keystore (a client certificate). Empty otherwise.
     */
    static Optional<Authentication> detect(Map<String, Object> client) {
        String protocol = setting(client, CommonClientConfigs.SECURITY_PROTOCOL_CONFIG);
        if (protocol.startsWith("SASL_") && setting(client, SaslConfigs.SASL_MECHANISM).equals("SCRAM-SHA-512")) {
            return Optional.of(Authentication.SCRAM_SHA_512);
        }
        boolean keystore = client.get(SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG) != null
                || client.get(SslConfigs.SSL_KEYSTORE_CERTIFICATE_CHAIN_CONFIG) != null;
        return protocol.equals("SSL") && keystore ? Optional.of(Authentication.TLS) : Optional.empty();
    }

    /** {@code security.protocol} and {@code sasl.mechanism} as the client reads them: upper case, "" when unset. */
    static String setting(Map<String, Object> client, String key) {
        Object value = client.get(key);
        return value == null ? "" : value.toString().trim().toUpperCase(Locale.ROOT);
    }

    /**
     * The KafkaUser's name for a principal: its user name, {@code User:NAME}, or {@code User:CN=NAME} as Strimzi
     * names a tls user.
     *
     * @throws IllegalArgumentException saying why when that is no Kubernetes name
     */
    static String userName(String principal) {
        String name = principal.startsWith("User:") ? principal.substring("User:".length()) : null;
        if (name != null && name.startsWith("CN=")) {
            name = name.substring("CN=".length());
        }
        if (name == null || !KUBERNETES_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("'" + principal + "' gives no KafkaUser name: the principal must be "
                    + "User:NAME (or User:CN=NAME), NAME a Kubernetes name (lower-case letters, digits, '-' and '.', "
                    + "beginning and ending with a letter or digit)");
        }
        return name;
    }

    /** Whether {@code value} can be the {@value #CLUSTER_LABEL} label's value. */
    static boolean isLabelValue(String value) {
        return LABEL_VALUE.matcher(value).matches();
    }

    /** The YAML: a comment, then one document per user, each after {@code ---}. */
    static String yaml(SextantConfig config, SourceTopicReads reads, List<User> users, ApiVersion version) {
        StringBuilder out = new StringBuilder()
                .append("# Sextant's Strimzi KafkaUsers for this configuration (sextant config acls --format strimzi), "
                        + "one per\n")
                .append("# cluster: apply each where the User Operator of its Kafka resource (the strimzi.io/cluster "
                        + "label) watches,\n")
                .append("# usually that Kafka's namespace. It creates the user, its ACLs and a Secret of the user's "
                        + "name with its\n")
                .append("# credentials; the cluster CA's certificate is in the Secret <Kafka>-cluster-ca-cert "
                        + "(ca.crt). Why each ACL is\n")
                .append("# needed: docs/security.md.\n");
        for (User user : users) {
            List<RequiredAcl> acls = RequiredAcls.of(config, reads, user.cluster());
            out.append("---\n").append(comment(config, user, acls,
                    SourceTopicReadOptions.notes(config, reads, user.cluster()))).append(document(user, acls, version));
        }
        return out.toString();
    }

    private static String comment(SextantConfig config, User user, List<RequiredAcl> acls, List<String> notes) {
        String cluster = user.cluster().label();
        String principal = "User:" + (user.authentication() == Authentication.TLS ? "CN=" : "") + user.name();
        StringBuilder comment = new StringBuilder()
                .append("# ").append(cluster).append(" cluster, alias ").append(alias(config, user.cluster()))
                .append('\n')
                .append("# Kafka resource: ").append(user.kafka())
                .append(user.kafkaFrom() == null ? "" : " (" + user.kafkaFrom() + ")").append('\n')
                .append("# user: ").append(user.name()).append(", principal ").append(principal).append('\n')
                .append("# authentication: ").append(user.authentication().type).append(" (")
                .append(user.authenticationFrom()).append(")\n")
                .append("# its Secret ").append(user.name()).append(": ").append(user.authentication().secretKeys)
                .append('\n')
                .append("# ACLs:\n");
        for (RequiredAcl acl : acls) {
            comment.append("#   ").append(acl.describe()).append(": ").append(acl.why()).append('\n');
        }
        notes.forEach(note -> comment.append("# note: ").append(note).append('\n'));
        return comment.toString();
    }

    private static String alias(SextantConfig config, RequiredAcl.Cluster cluster) {
        return cluster == RequiredAcl.Cluster.SOURCE ? config.sourceAlias() : config.destinationAlias();
    }

    private static String document(User user, List<RequiredAcl> acls, ApiVersion version) {
        ObjectNode kafkaUser = Json.YAML.createObjectNode()
                .put("apiVersion", version.apiVersion())
                .put("kind", "KafkaUser");
        ObjectNode metadata = kafkaUser.putObject("metadata").put("name", user.name());
        metadata.putObject("labels").put(CLUSTER_LABEL, user.kafka());
        ObjectNode spec = kafkaUser.putObject("spec");
        spec.putObject("authentication").put("type", user.authentication().type);
        ObjectNode authorization = spec.putObject("authorization").put("type", "simple");
        ArrayNode entries = authorization.putArray("acls");
        for (RequiredAcl acl : acls) {
            ObjectNode entry = entries.addObject();
            entry.putObject("resource")
                    .put("type", resourceType(acl))
                    .put("name", acl.name())
                    .put("patternType", acl.patternType() == PatternType.PREFIXED ? "prefix" : "literal");
            ArrayNode operations = entry.putArray("operations");
            acl.operations().forEach(op -> operations.add(SecurityUtils.operationName(op)));
            entry.put("host", "*");
        }
        try {
            return Json.YAML.writeValueAsString(kafkaUser);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the KafkaUser " + user.name() + " as YAML", e);
        }
    }

    /** Strimzi's spelling of the resource types Sextant's ACLs name. */
    private static String resourceType(RequiredAcl acl) {
        return switch (acl.resourceType()) {
            case TOPIC -> "topic";
            case GROUP -> "group";
            case CLUSTER -> "cluster";
            case TRANSACTIONAL_ID -> "transactionalId";
            default -> throw new IllegalStateException("no Strimzi ACL resource type for " + acl.resourceType());
        };
    }
}
