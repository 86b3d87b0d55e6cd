package dev.sextant.config;

import static dev.sextant.config.ConfigKeys.APPLICATION_ID_CONFIG;
import static dev.sextant.config.ConfigKeys.DESTINATION_BOOTSTRAP_SERVERS_CONFIG;
import static dev.sextant.config.ConfigKeys.DESTINATION_PREFIX;
import static dev.sextant.config.ConfigKeys.QUERY_ADVERTISED_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_CLIENT_AUTH_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_KEYSTORE_LOCATION_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_TRUSTSTORE_LOCATION_CONFIG;
import static dev.sextant.config.ConfigKeys.SOURCE_BOOTSTRAP_SERVERS_CONFIG;
import static dev.sextant.config.ConfigKeys.SOURCE_PREFIX;
import static dev.sextant.config.ConfigKeys.STATE_DIR_CONFIG;
import static dev.sextant.config.ConfigKeys.STREAMS_PREFIX;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The checks a configuration passes before Sextant uses it, and the messages that refuse it.
 *
 * <p>Invariants: every refusal is an {@link InvalidConfigurationException} whose key is the key at fault, as the
 * operator wrote it, and whose message names that key, where it came from (a file, an environment variable), what
 * was wrong, what is accepted and the fix; a bad value of a secret shows as {@value SecretMasking#HIDDEN}. The checks
 * run in a fixed order (forbidden {@code streams.*} keys, unknown keys, Sextant's values, pass-through values, then,
 * once parsed, the replication policy and the TLS keys), so the same configuration is always refused for the same
 * first fault.
 */
final class ConfigChecks {

    /** Kafka Streams keys that Sextant sets from its own keys: {@code streams.<key>} → the key to use instead. */
    static final Map<String, String> FORBIDDEN_STREAMS_KEYS = Map.of(
            StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID_CONFIG,
            StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, SOURCE_BOOTSTRAP_SERVERS_CONFIG,
            StreamsConfig.STATE_DIR_CONFIG, STATE_DIR_CONFIG,
            StreamsConfig.APPLICATION_SERVER_CONFIG, QUERY_ADVERTISED_CONFIG);

    private static final List<String> PASS_THROUGH_PREFIXES = List.of(SOURCE_PREFIX, DESTINATION_PREFIX,
            STREAMS_PREFIX);

    /** What a {@code source.*} or {@code destination.*} value is checked against, first definition found wins. */
    private static final List<ConfigDef> CLIENT_CONFIG_DEFS = List.of(
            AdminClientConfig.configDef(), ConsumerConfig.configDef(), ProducerConfig.configDef());

    /** What a {@code streams.*} value is checked against: Kafka Streams' own keys, then its clients'. */
    private static final List<ConfigDef> STREAMS_CONFIG_DEFS = List.of(StreamsConfig.configDef(),
            CLIENT_CONFIG_DEFS.get(0), CLIENT_CONFIG_DEFS.get(1), CLIENT_CONFIG_DEFS.get(2));

    private ConfigChecks() {
    }

    /**
     * Resolves config providers, checks every key and value, and returns the map to hand to
     * {@link org.apache.kafka.common.config.AbstractConfig}: a null value is dropped, and so is an empty value for a
     * key whose default is derived (offset.syncs.topic, query.advertised), which means "derive it".
     *
     * @param origins where each key came from, for the messages
     */
    static Map<String, Object> validate(Map<String, ?> raw, Map<String, String> origins) {
        return validate(raw, origins, true);
    }

    /**
     * As {@link #validate(Map, Map)}; with {@code resolveSecrets} false, the references in secrets' values
     * ({@link SecretMasking#isSecret}) stay as written, unresolved.
     */
    static Map<String, Object> validate(Map<String, ?> raw, Map<String, String> origins, boolean resolveSecrets) {
        Map<String, Object> props = withoutUnset(ConfigProviders.resolve(raw,
                key -> !resolveSecrets && SecretMasking.isSecret(key)));
        checkNoForbiddenStreamsKey(props, origins);
        checkNoUnknownKey(props, origins);
        checkDefinedValues(props, origins);
        checkPassThroughValues(props, origins);
        return props;
    }

    private static Map<String, Object> withoutUnset(Map<String, Object> props) {
        Map<String, Object> result = new TreeMap<>();
        for (Map.Entry<String, Object> e : props.entrySet()) {
            String key = e.getKey();
            Object value = e.getValue();
            if (key == null) {
                throw new InvalidConfigurationException(null, String.valueOf(value),
                        "A configuration entry has no key (value '" + value + "'). Fix: remove it.");
            }
            ConfigKey defined = ConfigDefinitions.key(key);
            boolean derive = defined != null && defined.defaultValue == null && value instanceof String s
                    && s.isBlank();
            if (value != null && !derive) {
                result.put(key, value);
            }
        }
        return result;
    }

    private static void checkNoForbiddenStreamsKey(Map<String, Object> props, Map<String, String> origins) {
        for (String key : props.keySet()) {
            String use = key.startsWith(STREAMS_PREFIX)
                    ? FORBIDDEN_STREAMS_KEYS.get(key.substring(STREAMS_PREFIX.length())) : null;
            if (use != null) {
                String value = ConfigDefinitions.display(props.get(key));
                throw new InvalidConfigurationException(key, value, "'" + key + "'" + origin(key, origins)
                        + " cannot be set: Sextant sets Kafka Streams' " + key.substring(STREAMS_PREFIX.length())
                        + " from its own key '" + use + "'. Fix: use '" + use + "=" + value
                        + "' instead (environment variable " + SextantConfigLoader.environmentVariable(use) + ").");
            }
        }
    }

    private static void checkNoUnknownKey(Map<String, Object> props, Map<String, String> origins) {
        for (String key : props.keySet()) {
            if (ConfigDefinitions.key(key) == null && !isPassThrough(key)) {
                throw unknownKey(key, ConfigDefinitions.display(props.get(key)), origins);
            }
        }
    }

    private static void checkDefinedValues(Map<String, Object> props, Map<String, String> origins) {
        for (ConfigKey key : ConfigDefinitions.keys()) {
            Object value = props.get(key.name);
            if (value != null) {
                checkValue(key.name, key, value, origins);
            } else if (!key.hasDefault()) {
                throw missing(key);
            }
        }
    }

    /** A pass-through value is checked against Kafka's definition of the key, when Kafka defines it. */
    private static void checkPassThroughValues(Map<String, Object> props, Map<String, String> origins) {
        for (Map.Entry<String, Object> e : props.entrySet()) {
            String key = e.getKey();
            if (ConfigDefinitions.key(key) != null) {
                continue;
            }
            String name = key.substring(key.indexOf('.') + 1);
            for (ConfigDef def : key.startsWith(STREAMS_PREFIX) ? STREAMS_CONFIG_DEFS : CLIENT_CONFIG_DEFS) {
                ConfigKey known = def.configKeys().get(name);
                if (known != null) {
                    checkValue(key, known, e.getValue(), origins);
                    break;
                }
            }
        }
    }

    private static boolean isPassThrough(String key) {
        for (String prefix : PASS_THROUGH_PREFIXES) {
            if (key.startsWith(prefix) && key.length() > prefix.length()) {
                return true;
            }
        }
        return false;
    }

    /** Parses and validates one value against a key's definition; {@code key} is the name the user wrote. */
    private static void checkValue(String key, ConfigKey definition, Object value, Map<String, String> origins) {
        Object parsed;
        try {
            parsed = ConfigDef.parseType(definition.name, value, definition.type);
        } catch (ConfigException e) {
            throw badValue(key, definition, value, "expected " + ConfigDefinitions.describeType(definition.type),
                    origins, e);
        }
        if (definition.validator != null) {
            try {
                definition.validator.ensureValid(definition.name, parsed);
            } catch (ConfigException e) {
                throw badValue(key, definition, value, reason(e, definition.name), origins, e);
            } catch (RuntimeException e) {
                throw badValue(key, definition, value, String.valueOf(e.getMessage()), origins, e);
            }
        }
    }

    private static InvalidConfigurationException badValue(String key, ConfigKey definition, Object value,
                                                          String reason, Map<String, String> origins,
                                                          Exception cause) {
        String shown = SecretMasking.shown(key, definition, value);
        StringBuilder message = new StringBuilder()
                .append("Invalid value '").append(shown).append("' for '").append(key).append("'")
                .append(origin(key, origins)).append(": ").append(reason).append(". Accepted: ")
                .append(ConfigDefinitions.accepts(definition)).append(". Fix: ");
        if (ConfigDefinitions.key(key) == definition) {
            if (definition.hasDefault()) {
                message.append("set '").append(key).append("' to an accepted value, or remove it to use the default (")
                        .append(ConfigDefinitions.displayDefault(definition)).append(").");
            } else {
                message.append("set '").append(key).append("' to an accepted value.");
            }
        } else {
            message.append("set '").append(key).append("' to an accepted value, or remove it to use Kafka's default")
                    .append(definition.hasDefault() ? " (" + ConfigDefinitions.displayDefault(definition) + ")" : "")
                    .append('.');
        }
        return new InvalidConfigurationException(key, shown, message.toString(), cause);
    }

    private static InvalidConfigurationException unknownKey(String key, String value, Map<String, String> origins) {
        Optional<String> suggestion = suggestKey(key);
        StringBuilder message = new StringBuilder("Unknown configuration key '").append(key).append("'")
                .append(origin(key, origins)).append('.');
        suggestion.ifPresent(s -> message.append(" Did you mean '").append(s).append("'?"));
        message.append(" Accepted: the keys documented in config/sextant.properties, any client config under '")
                .append(SOURCE_PREFIX).append("' or '").append(DESTINATION_PREFIX)
                .append("', and any Kafka Streams config under '").append(STREAMS_PREFIX).append("'. Fix: ")
                .append(suggestion.map(s -> "rename it to '" + s + "', or remove it.").orElse("remove it."));
        return new InvalidConfigurationException(key, value, message.toString());
    }

    /** The closest defined key, or the same key under the closest pass-through prefix. */
    static Optional<String> suggestKey(String key) {
        List<String> candidates = new ArrayList<>(ConfigDefinitions.names());
        int dot = key.indexOf('.');
        if (dot > 0) {
            String first = key.substring(0, dot + 1).toLowerCase(Locale.ROOT);
            String rest = key.substring(dot + 1);
            for (String prefix : PASS_THROUGH_PREFIXES) {
                if (!first.equals(prefix) && Suggestions.editDistance(first, prefix) <= 2 && !rest.isEmpty()) {
                    candidates.add(prefix + rest);
                }
            }
        }
        return Suggestions.closest(key, candidates);
    }

    private static InvalidConfigurationException missing(ConfigKey key) {
        String example = key.name.equals(SOURCE_BOOTSTRAP_SERVERS_CONFIG) ? "127.0.0.1:9092"
                : key.name.equals(DESTINATION_BOOTSTRAP_SERVERS_CONFIG) ? "127.0.0.1:9093" : "...";
        return new InvalidConfigurationException(key.name, null, "Missing required configuration '" + key.name
                + "', which has no default. Accepted: " + ConfigDefinitions.accepts(key) + ". Fix: add '" + key.name
                + "=" + example + "' to the configuration file, or set the environment variable "
                + SextantConfigLoader.environmentVariable(key.name) + ".");
    }

    /** {@code " (from <origin>)"} when {@code origins} knows where {@code key} came from, else empty. */
    static String origin(String key, Map<String, String> origins) {
        String origin = origins.get(key);
        return origin == null ? "" : " (from " + origin + ")";
    }

    /** The reason part of a ConfigException message, without Kafka's "Invalid value X for configuration Y: ". */
    private static String reason(ConfigException e, String name) {
        String message = String.valueOf(e.getMessage());
        String marker = " for configuration " + name + ": ";
        int at = message.indexOf(marker);
        if (message.startsWith("Invalid value ") && at >= 0) {
            message = message.substring(at + marker.length());
        }
        if (message.endsWith(".")) {
            message = message.substring(0, message.length() - 1);
        }
        return message.isEmpty() ? "not accepted" : message;
    }

    // ------------------------------------------------------------------------------------------------ TLS

    /**
     * The keys of the HTTP API's TLS that only make sense together, and the files they name; runs once the values
     * themselves are parsed.
     */
    static void checkQueryTls(SextantConfig config, Map<String, String> origins) {
        String clientAuth = config.queryTlsClientAuth();
        if (!clientAuth.equals("none")) {
            checkClientAuthHasStores(config, clientAuth, origins);
        }
        for (String key : List.of(QUERY_TLS_KEYSTORE_LOCATION_CONFIG, QUERY_TLS_TRUSTSTORE_LOCATION_CONFIG)) {
            String location = config.getString(key);
            if (location != null && !new File(location).canRead()) {
                throw new InvalidConfigurationException(key, location, "'" + key + "=" + location + "'"
                        + origin(key, origins) + ": " + (new File(location).exists() ? "the file cannot be read"
                        : "no such file") + ". Fix: point '" + key + "' at the store's file (readable by Sextant's "
                        + "user), or remove it.");
            }
        }
    }

    private static void checkClientAuthHasStores(SextantConfig config, String clientAuth,
                                                 Map<String, String> origins) {
        if (config.getString(QUERY_TLS_KEYSTORE_LOCATION_CONFIG) == null) {
            throw new InvalidConfigurationException(QUERY_TLS_CLIENT_AUTH_CONFIG, clientAuth, "'"
                    + QUERY_TLS_CLIENT_AUTH_CONFIG + "=" + clientAuth + "'" + origin(QUERY_TLS_CLIENT_AUTH_CONFIG,
                    origins) + " needs TLS. Fix: set '" + QUERY_TLS_KEYSTORE_LOCATION_CONFIG + "' (the API's own "
                    + "key and certificate), or set '" + QUERY_TLS_CLIENT_AUTH_CONFIG + "=none'.");
        }
        if (config.getString(QUERY_TLS_TRUSTSTORE_LOCATION_CONFIG) == null) {
            throw new InvalidConfigurationException(QUERY_TLS_CLIENT_AUTH_CONFIG, clientAuth, "'"
                    + QUERY_TLS_CLIENT_AUTH_CONFIG + "=" + clientAuth + "'" + origin(QUERY_TLS_CLIENT_AUTH_CONFIG,
                    origins) + " checks client certificates against a truststore. Fix: set '"
                    + QUERY_TLS_TRUSTSTORE_LOCATION_CONFIG + "' to the CA (or certificates) of the clients.");
        }
    }
}
