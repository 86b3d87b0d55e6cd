package dev.sextant.config;

import static dev.sextant.config.ConfigKeys.APPLICATION_ID_CONFIG;
import static dev.sextant.config.ConfigKeys.DESTINATION_BOOTSTRAP_SERVERS_CONFIG;
import static dev.sextant.config.ConfigKeys.DESTINATION_PREFIX;
import static dev.sextant.config.ConfigKeys.QUERY_ADVERTISED_CONFIG;
import static dev.sextant.config.ConfigKeys.SOURCE_BOOTSTRAP_SERVERS_CONFIG;
import static dev.sextant.config.ConfigKeys.SOURCE_PREFIX;
import static dev.sextant.config.ConfigKeys.STATE_DIR_CONFIG;
import static dev.sextant.config.ConfigKeys.STREAMS_PREFIX;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checks a configuration passes before Sextant uses it, and the messages that refuse it.
 *
 * <p>Invariants: every refusal is an {@link InvalidConfigurationException} whose key is the key at fault, as the
 * operator wrote it, and whose message names that key, where it came from (a file, an environment variable), what
 * was wrong, what is accepted and the fix; a bad value of a secret shows as {@value SecretMasking#HIDDEN}. Every
 * problem is found before the configuration is refused, once, for all of them
 * ({@link InvalidConfigurationException#problems()}), in a fixed order: forbidden {@code streams.*} keys, unknown
 * keys (MirrorMaker 2's answered with Sextant's), Sextant's values, pass-through values; then, once those pass and
 * the values are parsed, {@link SextantConfig} checks the replication policy ({@link ReplicationPolicies}) and the
 * TLS keys ({@link QueryApiConfig}). What is doubtful but not refused (a key Kafka
 * does not define, under a prefix whose clients load plugins that may read it) is a warning, logged and kept in
 * {@link Checked#warnings()}.
 */
final class ConfigChecks {

    /** Kafka Streams keys that Sextant sets from its own keys: {@code streams.<key>} → the key to use instead. */
    static final Map<String, String> FORBIDDEN_STREAMS_KEYS = Map.of(
            StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID_CONFIG,
            StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, SOURCE_BOOTSTRAP_SERVERS_CONFIG,
            StreamsConfig.STATE_DIR_CONFIG, STATE_DIR_CONFIG,
            StreamsConfig.APPLICATION_SERVER_CONFIG, QUERY_ADVERTISED_CONFIG);

    private static final Logger LOG = LoggerFactory.getLogger(ConfigChecks.class);

    private static final List<String> PASS_THROUGH_PREFIXES = List.of(SOURCE_PREFIX, DESTINATION_PREFIX,
            STREAMS_PREFIX);

    /** What each pass-through prefix takes, in words. */
    private static final Map<String, String> PASS_THROUGH_ACCEPTS = Map.of(
            SOURCE_PREFIX, "under 'source.', a config of Kafka's Admin, consumer or producer clients or of Kafka "
                    + "Streams (which runs on the source), also under Kafka Streams' prefixes consumer., "
                    + "main.consumer., restore.consumer., global.consumer., producer., admin. and topic.",
            DESTINATION_PREFIX, "under 'destination.', a config of Kafka's Admin, consumer or producer clients",
            STREAMS_PREFIX, "under 'streams.', a Kafka Streams config or a config of its clients, also under its "
                    + "prefixes consumer., main.consumer., restore.consumer., global.consumer., producer., admin., "
                    + "topic. and client.tag.");

    /**
     * A configuration that passed: the map to hand to {@link org.apache.kafka.common.config.AbstractConfig}, what is
     * doubtful in it, and whether it was checked offline (then the files it names are not looked for).
     */
    record Checked(Map<String, Object> props, List<String> warnings, boolean offline) {
    }

    /** What the checks found so far. */
    private record Findings(List<InvalidConfigurationException> errors, List<String> warnings, Set<String> faulty) {

        Findings() {
            this(new ArrayList<>(), new ArrayList<>(), new HashSet<>());
        }

        void error(InvalidConfigurationException e) {
            errors.add(e);
            faulty.add(e.key());
        }
    }

    private ConfigChecks() {
    }

    /** What is done with config-provider references before the checks. */
    enum References {
        /** Every reference resolved, as {@code run} does. */
        RESOLVED,
        /** The references in secrets' values ({@link SecretMasking#isSecret}) kept as written, the rest resolved. */
        SECRETS_KEPT,
        /** None resolved, no provider opened: {@link OfflineReferences} checks them ({@code config check --offline}).
         */
        OFFLINE
    }

    /**
     * Resolves config providers, checks every key and value, and returns the map to hand to
     * {@link org.apache.kafka.common.config.AbstractConfig} with the warnings: a null value is dropped, and so is an
     * empty value for a key whose default is derived (offset.syncs.topic, query.advertised), which means "derive it".
     *
     * @param references what is done with config-provider references
     * @param origins    where each key came from, for the messages
     * @throws InvalidConfigurationException for every problem found
     */
    static Checked validate(Map<String, ?> raw, Map<String, String> origins, References references) {
        Findings findings = new Findings();
        boolean offline = references == References.OFFLINE;
        Map<String, Object> resolved;
        if (offline) {
            OfflineReferences.Result checked = OfflineReferences.check(raw);
            checked.errors().forEach(findings::error);
            findings.warnings().addAll(checked.warnings());
            resolved = checked.props();
        } else {
            resolved = ConfigProviders.resolve(raw, key -> references == References.SECRETS_KEPT
                    && SecretMasking.isSecret(key));
        }
        Map<String, Object> props = withoutUnset(resolved);
        checkNoForbiddenStreamsKey(props, origins, findings);
        checkNoUnknownKey(props, origins, findings);
        checkDefinedValues(props, origins, findings);
        checkPassThroughValues(props, origins, findings, offline);
        SourceOffsetsRead.conflict(props).ifPresent(problem -> findings.error(new InvalidConfigurationException(
                ConfigKeys.SYNC_SHARE_GROUPS_CONFIG, "true", problem)));
        if (!findings.errors().isEmpty()) {
            throw InvalidConfigurationException.of(findings.errors());
        }
        findings.warnings().forEach(LOG::warn);
        return new Checked(props, List.copyOf(findings.warnings()), offline);
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

    private static void checkNoForbiddenStreamsKey(Map<String, Object> props, Map<String, String> origins,
                                                   Findings findings) {
        for (String key : props.keySet()) {
            String use = key.startsWith(STREAMS_PREFIX)
                    ? FORBIDDEN_STREAMS_KEYS.get(key.substring(STREAMS_PREFIX.length())) : null;
            if (use != null) {
                String value = ConfigDefinitions.display(props.get(key));
                findings.error(new InvalidConfigurationException(key, value, "'" + key + "'" + origin(key, origins)
                        + " cannot be set: Sextant sets Kafka Streams' " + key.substring(STREAMS_PREFIX.length())
                        + " from its own key '" + use + "'. Fix: use '" + use + "=" + value
                        + "' instead (environment variable " + EnvironmentNames.of(use) + ")."));
            }
        }
    }

    /**
     * Every key must be Sextant's, or one Kafka defines under a pass-through prefix. A MirrorMaker 2 key is answered
     * with Sextant's; a key Kafka does not define, under a prefix whose clients load plugins, is only a warning.
     */
    private static void checkNoUnknownKey(Map<String, Object> props, Map<String, String> origins,
                                          Findings findings) {
        for (String key : props.keySet()) {
            if (ConfigDefinitions.key(key) != null || findings.faulty().contains(key)
                    || PassThroughKeys.lookup(key).isPresent()) {
                continue;
            }
            // MirrorMaker 2's answers show the value in their fix: a secret's, hidden
            String value = SecretMasking.isSecret(key) ? SecretMasking.HIDDEN
                    : ConfigDefinitions.display(props.get(key));
            Optional<MirrorMakerKeys.Counterpart> mirrorMaker = MirrorMakerKeys.counterpart(key, value, props);
            if (mirrorMaker.isPresent()) {
                findings.error(mirrorMakerKey(key, value, mirrorMaker.get(), origins));
                continue;
            }
            Optional<String> prefix = PassThroughKeys.prefixOf(key).filter(p -> key.length() > p.length());
            List<String> plugins = prefix.map(p -> PassThroughKeys.configuresPlugins(p, props)).orElse(List.of());
            if (!plugins.isEmpty()) {
                findings.warnings().add(pluginKey(key, prefix.get(), plugins, origins));
            } else {
                findings.error(unknownKey(key, value, origins));
            }
        }
    }

    private static void checkDefinedValues(Map<String, Object> props, Map<String, String> origins,
                                           Findings findings) {
        for (ConfigKey key : ConfigDefinitions.keys()) {
            Object value = props.get(key.name);
            if (value != null) {
                checkValue(key.name, key, value, origins).ifPresent(findings::error);
            } else if (!key.hasDefault()) {
                findings.error(missing(key));
            }
        }
    }

    /**
     * A pass-through value is checked against Kafka's definition of the key, when Kafka defines it; offline, a class
     * not on this classpath (a plugin's, in plugins/ where Sextant runs) is a warning.
     */
    private static void checkPassThroughValues(Map<String, Object> props, Map<String, String> origins,
                                               Findings findings, boolean offline) {
        for (Map.Entry<String, Object> e : props.entrySet()) {
            String key = e.getKey();
            if (ConfigDefinitions.key(key) != null || findings.faulty().contains(key)) {
                continue;
            }
            if (offline && OfflineReferences.namesAbsentClass(key, e.getValue())) {
                findings.warnings().add("'" + key + "=" + e.getValue() + "' names a class not on this classpath, so "
                        + "not checked offline: put its jar in plugins/ (or SEXTANT_CLASSPATH) where Sextant runs");
                continue;
            }
            PassThroughKeys.lookup(key).filter(known -> known.definition() != null)
                    .flatMap(known -> checkValue(key, known.definition(), e.getValue(), origins))
                    .ifPresent(findings::error);
        }
    }

    /**
     * Parses and validates one value against a key's definition; {@code key} is the name the user wrote. The refusal,
     * if any.
     */
    private static Optional<InvalidConfigurationException> checkValue(String key, ConfigKey definition, Object value,
                                                                     Map<String, String> origins) {
        Object parsed;
        try {
            parsed = ConfigDef.parseType(definition.name, value, definition.type);
        } catch (ConfigException e) {
            return Optional.of(badValue(key, definition, value, "expected "
                    + ConfigDefinitions.describeType(definition.type), origins, e));
        }
        if (definition.validator != null) {
            try {
                definition.validator.ensureValid(definition.name, parsed);
            } catch (ConfigException e) {
                return Optional.of(badValue(key, definition, value, reason(e, definition.name), origins, e));
            } catch (RuntimeException e) {
                return Optional.of(badValue(key, definition, value, String.valueOf(e.getMessage()), origins, e));
            }
        }
        return Optional.empty();
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
        Optional<String> prefix = PassThroughKeys.prefixOf(key).filter(p -> key.length() > p.length());
        Optional<String> suggestion = prefix.isPresent() ? suggestPassThroughKey(key, prefix.get()) : suggestKey(key);
        StringBuilder message = new StringBuilder("Unknown configuration key '").append(key).append("'")
                .append(origin(key, origins)).append('.');
        prefix.ifPresent(p -> message.append(" Kafka defines no such config ").append(p.equals(DESTINATION_PREFIX)
                ? "for the destination's clients" : p.equals(SOURCE_PREFIX)
                ? "for the source's clients or Kafka Streams" : "for Kafka Streams or its clients").append('.'));
        suggestion.ifPresent(s -> message.append(" Did you mean '").append(s).append("'?"));
        message.append(" Accepted: ");
        if (prefix.isPresent()) {
            message.append(PASS_THROUGH_ACCEPTS.get(prefix.get())).append(", as Kafka defines them");
        } else {
            message.append("the keys documented in config/sextant.properties, any client config under '")
                    .append(SOURCE_PREFIX).append("' or '").append(DESTINATION_PREFIX)
                    .append("', and any Kafka Streams config under '").append(STREAMS_PREFIX).append("'");
        }
        message.append(". Fix: ")
                .append(suggestion.map(s -> "rename it to '" + s + "', or remove it.").orElse("remove it."));
        return new InvalidConfigurationException(key, value, message.toString());
    }

    /** A MirrorMaker 2 key, answered with what Sextant has instead. */
    private static InvalidConfigurationException mirrorMakerKey(String key, String value,
                                                                MirrorMakerKeys.Counterpart counterpart,
                                                                Map<String, String> origins) {
        return new InvalidConfigurationException(key, value, "'" + key + "'" + origin(key, origins)
                + " is MirrorMaker 2's key, not Sextant's" + (counterpart.instead() == null ? ""
                : "; Sextant's is '" + counterpart.instead() + "'") + ": " + counterpart.why() + ". Fix: "
                + counterpart.fix() + ".");
    }

    /** A key Kafka does not define, kept for the plugins that may read it. */
    private static String pluginKey(String key, String prefix, List<String> plugins, Map<String, String> origins) {
        Optional<String> suggestion = suggestPassThroughKey(key, prefix);
        return "'" + key + "'" + origin(key, origins) + " is no config Kafka defines; passed on to the clients, as "
                + "the plugins of " + String.join(", ", plugins) + " may read it."
                + suggestion.map(s -> " If it is a typo: did you mean '" + s + "'?").orElse("");
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

    /**
     * For a key under a pass-through prefix that Kafka does not define: the same config without a client prefix the
     * prefix does not take ({@code destination.consumer.max.poll.records} → {@code destination.max.poll.records}), or
     * under another prefix ({@code destination.num.stream.threads} → {@code streams.num.stream.threads}), else the
     * closest config Kafka defines under its prefix, or Sextant's own key, within a few edits of the name.
     */
    static Optional<String> suggestPassThroughKey(String key, String prefix) {
        String rest = key.substring(prefix.length());
        for (String client : List.of("consumer.", "producer.", "admin.")) {
            // a client's prefix where the prefix takes none (destination.consumer.*): the same config, unprefixed
            if (rest.startsWith(client) && PassThroughKeys.lookup(prefix + rest.substring(client.length()))
                    .isPresent()) {
                return Optional.of(prefix + rest.substring(client.length()));
            }
        }
        // Kafka Streams' first: a Streams config under source. reaches Kafka Streams too, but streams. says so
        for (String other : List.of(STREAMS_PREFIX, SOURCE_PREFIX, DESTINATION_PREFIX)) {
            if (!other.equals(prefix) && PassThroughKeys.lookup(other + rest).isPresent()) {
                return Optional.of(other + rest);
            }
        }
        List<String> candidates = new ArrayList<>(PassThroughKeys.names(prefix));
        candidates.addAll(ConfigDefinitions.names());
        return Suggestions.nearest(key, candidates, Math.max(2, rest.length() / 4));
    }

    private static InvalidConfigurationException missing(ConfigKey key) {
        String example = key.name.equals(SOURCE_BOOTSTRAP_SERVERS_CONFIG) ? "127.0.0.1:9092"
                : key.name.equals(DESTINATION_BOOTSTRAP_SERVERS_CONFIG) ? "127.0.0.1:9093" : "...";
        return new InvalidConfigurationException(key.name, null, "Missing required configuration '" + key.name
                + "', which has no default. Accepted: " + ConfigDefinitions.accepts(key) + ". Fix: add '" + key.name
                + "=" + example + "' to the configuration file, or set the environment variable "
                + EnvironmentNames.of(key.name) + ".");
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
}
