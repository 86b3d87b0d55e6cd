package dev.sextant.config;

import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.LambdaValidator;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.connect.mirror.DefaultReplicationPolicy;
import org.apache.kafka.connect.mirror.IdentityReplicationPolicy;
import org.apache.kafka.connect.mirror.ReplicationPolicy;

/**
 * The validators behind {@link SextantConfig}'s keys. Each one's {@code toString()} says in words what the key
 * accepts: it shows in the generated documentation and in error messages.
 */
final class ConfigValidators {

    private static final Pattern APPLICATION_ID = Pattern.compile("[a-zA-Z0-9._-]+");
    private static final Pattern KAFKA_VERSION = Pattern.compile("\\d+\\.\\d+\\.\\d+");
    private static final Pattern WHITESPACE = Pattern.compile(".*\\s.*", Pattern.DOTALL);

    private ConfigValidators() {
    }

    static ConfigDef.Validator nonEmptyWithoutWhitespace() {
        return LambdaValidator.with((name, value) -> {
            String s = (String) value;
            if (s == null || s.isEmpty()) {
                throw new ConfigException(name, value, "must not be empty");
            }
            if (WHITESPACE.matcher(s).matches()) {
                throw new ConfigException(name, value, "must not contain whitespace");
            }
        }, () -> "a non-empty name without whitespace");
    }

    static ConfigDef.Validator nonEmpty() {
        return LambdaValidator.with((name, value) -> {
            if (value == null || ((String) value).isEmpty()) {
                throw new ConfigException(name, value, "must not be empty");
            }
        }, () -> "a non-empty string");
    }

    /** One of the given words, ignoring case. */
    static ConfigDef.Validator oneOf(List<String> accepted) {
        return LambdaValidator.with((name, value) -> {
            String s = value == null ? null : ((String) value).toLowerCase(Locale.ROOT);
            if (!accepted.contains(s)) {
                String hint = value == null ? "" : Suggestions.closest((String) value, accepted)
                        .map(s2 -> " (did you mean '" + s2 + "'?)").orElse("");
                throw new ConfigException(name, value, "not one of " + String.join(", ", accepted) + hint);
            }
        }, () -> "one of " + String.join(", ", accepted));
    }

    /** A Kafka release as {@code major.minor.patch} ({@code 4.2.1}), or empty. */
    static ConfigDef.Validator kafkaVersionOrEmpty() {
        return LambdaValidator.with((name, value) -> {
            String s = value == null ? "" : ((String) value).trim();
            if (!s.isEmpty() && !KAFKA_VERSION.matcher(s).matches()) {
                throw new ConfigException(name, value, "not a Kafka release like 4.2.1");
            }
        }, () -> "a Kafka release like 4.2.1, or empty");
    }

    /** A legal Kafka topic name; {@code null} is allowed when {@code nullable} (meaning "derive it"). */
    static ConfigDef.Validator topicName(boolean nullable) {
        return LambdaValidator.with((name, value) -> {
            if (value == null) {
                if (nullable) {
                    return;
                }
                throw new ConfigException(name, null, "must be set");
            }
            try {
                Topic.validate((String) value);
            } catch (InvalidTopicException e) {
                throw new ConfigException(name, value, e.getMessage());
            }
        }, () -> "a valid Kafka topic name: 1 to 249 characters from [a-zA-Z0-9._-], not '.' or '..'");
    }

    /** A comma-separated list of absolute URL paths ({@code /health/live}). */
    static ConfigDef.Validator paths() {
        return LambdaValidator.with((name, value) -> {
            if (value instanceof List<?> list) {
                for (Object path : list) {
                    String p = String.valueOf(path);
                    if (!p.startsWith("/") || p.contains("?") || p.contains(" ")) {
                        throw new ConfigException(name, value, "'" + p + "' is not a path (it must start with /, "
                                + "without query string or spaces)");
                    }
                }
            }
        }, () -> "comma-separated paths, each starting with /");
    }

    /**
     * A regular expression that compiles ({@link Pattern} syntax), or a comma-separated list of them
     * ({@link PatternList}).
     */
    static ConfigDef.Validator regex() {
        return LambdaValidator.with((name, value) -> {
            List<String> expressions = PatternList.expressions((String) value);
            for (String expression : expressions) {
                try {
                    Pattern.compile(expression);
                } catch (PatternSyntaxException e) {
                    throw new ConfigException(name, value, "the regular expression "
                            + (expressions.size() > 1 ? "'" + expression + "' " : "") + "does not compile: "
                            + e.getDescription() + " near index " + e.getIndex());
                }
            }
        }, () -> "a Java regular expression, matched against the whole name, or a comma-separated list of them "
                + "(MirrorMaker 2's form: any may match)");
    }

    /** A whole number of at least {@code min}. */
    static ConfigDef.Validator atLeast(long min) {
        return LambdaValidator.with((name, value) -> {
            if (value == null || ((Number) value).longValue() < min) {
                throw new ConfigException(name, value, "must be at least " + min);
            }
        }, () -> "at least " + min);
    }

    /** A whole number from {@code min} to {@code max}. */
    static ConfigDef.Validator between(long min, long max) {
        return LambdaValidator.with((name, value) -> {
            long v = value == null ? Long.MIN_VALUE : ((Number) value).longValue();
            if (v < min || v > max) {
                throw new ConfigException(name, value, "must be from " + min + " to " + max);
            }
        }, () -> "from " + min + " to " + max);
    }

    /** -1 (the broker's default) or a replication factor of at least 1. */
    static ConfigDef.Validator replicationFactor() {
        return LambdaValidator.with((name, value) -> {
            int v = value == null ? 0 : ((Number) value).intValue();
            if (v != -1 && v < 1) {
                throw new ConfigException(name, value,
                        "must be -1 (the broker's default.replication.factor) or at least 1");
            }
        }, () -> "-1 (the broker default) or at least 1");
    }

    /** A Kafka Streams application id. */
    static ConfigDef.Validator applicationId() {
        return LambdaValidator.with((name, value) -> {
            if (value == null || !APPLICATION_ID.matcher((String) value).matches()) {
                throw new ConfigException(name, value,
                        "may only contain ASCII letters, digits, '.', '_' and '-', and must not be empty");
            }
        }, () -> "one or more of [a-zA-Z0-9._-]");
    }

    /**
     * {@code host:port}.
     *
     * @param allowZeroPort whether port 0 ("pick a free port") is allowed
     * @param nullable whether no value (meaning "derive it") is allowed
     * @param allowWildcard whether 0.0.0.0 / :: is allowed as the host
     */
    static ConfigDef.Validator hostAndPort(boolean allowZeroPort, boolean nullable, boolean allowWildcard) {
        return LambdaValidator.with((name, value) -> {
            if (value == null) {
                if (nullable) {
                    return;
                }
                throw new ConfigException(name, null, "must be set");
            }
            HostAndPort hp;
            try {
                hp = HostAndPort.parse((String) value);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(name, value, e.getMessage());
            }
            if (!allowZeroPort && hp.port() == 0) {
                throw new ConfigException(name, value,
                        "port 0 cannot be reached by other instances; give the real port");
            }
            if (!allowWildcard && hp.isWildcard()) {
                throw new ConfigException(name, value, hp.host()
                        + " cannot be reached by other instances; give a host name or address they can reach");
            }
        }, () -> "host:port, port " + (allowZeroPort ? "0..65535 (0 picks a free port)" : "1..65535")
                + (allowWildcard ? "" : ", host not 0.0.0.0"));
    }

    /** A non-empty list of {@code host:port} bootstrap addresses, as Kafka clients accept them. */
    static ConfigDef.Validator bootstrapServers() {
        return LambdaValidator.with((name, value) -> {
            @SuppressWarnings("unchecked")
            List<String> list = (List<String>) value;
            if (list == null || list.isEmpty()) {
                throw new ConfigException(name, value, "must list at least one host:port");
            }
            for (String address : list) {
                if (address.isBlank() || Utils.getHost(address) == null || Utils.getPort(address) == null) {
                    throw new ConfigException(name, value, "'" + address + "' is not of the form host:port");
                }
            }
        }, () -> "a comma-separated list of host:port");
    }

    /**
     * {@code default}, {@code identity} or the fully-qualified name of a public class with a public no-argument
     * constructor that implements MirrorMaker 2's {@link ReplicationPolicy}.
     */
    static ConfigDef.Validator replicationPolicy() {
        return LambdaValidator.with((name, value) -> replicationPolicyClass(name, (String) value),
                () -> "default, identity, or the name of a class implementing " + ReplicationPolicy.class.getName());
    }

    /** Resolves a {@code replication.policy} value to its class, or throws a {@link ConfigException} saying why not. */
    static Class<? extends ReplicationPolicy> replicationPolicyClass(String name, String value) {
        if (value == null || value.isEmpty()) {
            throw new ConfigException(name, value, "must not be empty");
        }
        String keyword = value.toLowerCase(Locale.ROOT);
        if (keyword.equals(ConfigKeys.REPLICATION_POLICY_DEFAULT)) {
            return DefaultReplicationPolicy.class;
        }
        if (keyword.equals(ConfigKeys.REPLICATION_POLICY_IDENTITY)) {
            return IdentityReplicationPolicy.class;
        }
        Class<?> c = loadPolicyClass(name, value);
        requireInstantiablePolicy(name, value, c);
        return c.asSubclass(ReplicationPolicy.class);
    }

    /** The class {@code value} names, loaded without initialising it; a failure says what the user likely meant. */
    private static Class<?> loadPolicyClass(String name, String value) {
        try {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            return Class.forName(value, false, loader != null ? loader : ConfigValidators.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new ConfigException(name, value, "it is neither 'default' nor 'identity', and no class of that name "
                    + "can be loaded" + notLoadableHint(value));
        }
    }

    /** A name without a dot is likely a misspelt keyword, or a class name that is not fully qualified. */
    private static String notLoadableHint(String value) {
        if (value.indexOf('.') >= 0) {
            return " (is its jar on the classpath?)";
        }
        List<String> keywords = List.of(ConfigKeys.REPLICATION_POLICY_DEFAULT,
                ConfigKeys.REPLICATION_POLICY_IDENTITY);
        return Suggestions.closest(value, keywords)
                .map(s -> " (did you mean '" + s + "'?)").orElse(" (a class name must be fully qualified)");
    }

    /** Throws unless {@code c} is a public, concrete {@link ReplicationPolicy} with a public no-arg constructor. */
    private static void requireInstantiablePolicy(String name, String value, Class<?> c) {
        if (!ReplicationPolicy.class.isAssignableFrom(c)) {
            throw new ConfigException(name, value, "class " + c.getName() + " does not implement "
                    + ReplicationPolicy.class.getName());
        }
        if (c.isInterface() || Modifier.isAbstract(c.getModifiers())) {
            throw new ConfigException(name, value, "class " + c.getName() + " is abstract");
        }
        if (!Modifier.isPublic(c.getModifiers())) {
            throw new ConfigException(name, value, "class " + c.getName() + " is not public");
        }
        try {
            Constructor<?> constructor = c.getConstructor();
            if (!Modifier.isPublic(constructor.getModifiers())) {
                throw new NoSuchMethodException();
            }
        } catch (NoSuchMethodException e) {
            throw new ConfigException(name, value, "class " + c.getName() + " has no public no-argument constructor");
        }
    }
}
