package dev.sextant.config;

import static dev.sextant.config.ConfigKeys.DESTINATION_PREFIX;
import static dev.sextant.config.ConfigKeys.SOURCE_PREFIX;
import static dev.sextant.config.ConfigKeys.STREAMS_PREFIX;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Which keys under the pass-through prefixes Kafka knows, read from Kafka's own definitions, and the definition each
 * value is checked against.
 *
 * <ul>
 *   <li>{@code destination.*} becomes the destination's Admin client (offset writes), consumers (offset syncs,
 *       interval proofs) and producer (checkpoints): any Admin, consumer or producer config;</li>
 *   <li>{@code streams.*} becomes Kafka Streams' configuration: its own configs, any config of its clients
 *       (unprefixed: Kafka Streams gives them to every client), and its prefixes {@code consumer.},
 *       {@code main.consumer.}, {@code restore.consumer.}, {@code global.consumer.}, {@code producer.},
 *       {@code admin.} (each followed by that client's configs), {@code topic.} (a topic config) and
 *       {@code client.tag.} (any tag);</li>
 *   <li>{@code source.*} becomes the source's clients and also the lowest layer of Kafka Streams' configuration
 *       ({@link StreamsProperties}): whatever either accepts.</li>
 * </ul>
 * Under each, {@code config.providers.<name>.*} configures a client's own config providers, as Kafka's clients read
 * them. Kafka hands every config of a client to the plugins it configures (interceptors, metric reporters, callback
 * handlers, serdes), which may read keys Kafka does not define: see {@link #configuresPlugins}.
 */
final class PassThroughKeys {

    /** The definitions of Kafka Streams' topic configs: names only, the brokers check the values. */
    private static final Set<String> TOPIC_CONFIGS = topicConfigs();

    private static final String CONFIG_PROVIDERS = "config.providers.";
    private static final List<ConfigDef> CLIENTS = List.of(AdminClientConfig.configDef(), ConsumerConfig.configDef(),
            ProducerConfig.configDef());
    private static final Scope DESTINATION = new Scope(CLIENTS, Map.of(), List.of(CONFIG_PROVIDERS));
    private static final Scope STREAMS = new Scope(List.of(StreamsConfig.configDef(), AdminClientConfig.configDef(),
            ConsumerConfig.configDef(), ProducerConfig.configDef()), streamsPrefixes(),
            List.of(CONFIG_PROVIDERS, StreamsConfig.CLIENT_TAG_PREFIX));
    /** The source's clients first: a name both define is checked as the clients define it. */
    private static final Scope SOURCE = new Scope(List.of(AdminClientConfig.configDef(), ConsumerConfig.configDef(),
            ProducerConfig.configDef(), StreamsConfig.configDef()), streamsPrefixes(), STREAMS.open);

    /**
     * A key Kafka knows under a pass-through prefix.
     *
     * @param definition what its value is checked against; null when Kafka takes any value (a tag, a topic config,
     *                   a config provider's parameter)
     * @param name       the key as Kafka names it, without Sextant's prefix and Kafka Streams' own
     */
    record Known(ConfigKey definition, String name) {
    }

    /**
     * What one Sextant prefix accepts.
     *
     * @param definitions the unprefixed configs, first definition found wins
     * @param prefixes    Kafka Streams' client prefixes, each with the configs it takes
     * @param open        prefixes under which any key is taken
     */
    private record Scope(List<ConfigDef> definitions, Map<String, ConfigDef> prefixes, List<String> open) {
    }

    private PassThroughKeys() {
    }

    /** True when {@code key} is under a pass-through prefix, with something after it. */
    static boolean isPassThrough(String key) {
        return prefixOf(key).filter(prefix -> key.length() > prefix.length()).isPresent();
    }

    /** The pass-through prefix {@code key} starts with. */
    static Optional<String> prefixOf(String key) {
        for (String prefix : List.of(SOURCE_PREFIX, DESTINATION_PREFIX, STREAMS_PREFIX)) {
            if (key.startsWith(prefix)) {
                return Optional.of(prefix);
            }
        }
        return Optional.empty();
    }

    /** {@code key} (with its Sextant prefix) as Kafka knows it; empty when Kafka does not know it. */
    static Optional<Known> lookup(String key) {
        Optional<String> prefix = prefixOf(key);
        if (prefix.isEmpty()) {
            return Optional.empty();
        }
        Scope scope = scope(prefix.get());
        String name = key.substring(prefix.get().length());
        for (ConfigDef def : scope.definitions) {
            ConfigKey known = def.configKeys().get(name);
            if (known != null) {
                return Optional.of(new Known(known, name));
            }
        }
        for (Map.Entry<String, ConfigDef> e : scope.prefixes.entrySet()) {
            if (name.startsWith(e.getKey())) {
                String rest = name.substring(e.getKey().length());
                if (e.getKey().equals(StreamsConfig.TOPIC_PREFIX)) {
                    return TOPIC_CONFIGS.contains(rest) ? Optional.of(new Known(null, rest)) : Optional.empty();
                }
                ConfigKey known = e.getValue().configKeys().get(rest);
                return known == null ? Optional.empty() : Optional.of(new Known(known, rest));
            }
        }
        for (String open : scope.open) {
            if (name.startsWith(open) && name.length() > open.length()) {
                return Optional.of(new Known(null, name));
            }
        }
        return Optional.empty();
    }

    /**
     * Every key Kafka defines under {@code prefix} (a pass-through prefix), with it: what an unknown key there may
     * have meant.
     */
    static Set<String> names(String prefix) {
        Scope scope = scope(prefix);
        Set<String> names = new TreeSet<>();
        scope.definitions.forEach(def -> def.names().forEach(name -> names.add(prefix + name)));
        scope.prefixes.forEach((sub, def) -> (sub.equals(StreamsConfig.TOPIC_PREFIX) ? TOPIC_CONFIGS : def.names())
                .forEach(name -> names.add(prefix + sub + name)));
        return names;
    }

    /** The unprefixed Admin, consumer and producer configs: a Kafka client setting, whichever client. */
    static boolean isClientConfig(String name) {
        return CLIENTS.stream().anyMatch(def -> def.configKeys().containsKey(name));
    }

    /**
     * The keys of {@code props} under {@code prefix} that name a plugin class Kafka configures with the client's
     * whole configuration (a class, interceptors, metric reporters): such a plugin may read keys Kafka does not
     * define.
     */
    static List<String> configuresPlugins(String prefix, Map<String, ?> props) {
        List<String> plugins = new ArrayList<>();
        for (String key : props.keySet()) {
            if (!key.startsWith(prefix)) {
                continue;
            }
            Optional<Known> known = lookup(key);
            if (known.isPresent() && known.get().definition() != null) {
                ConfigKey definition = known.get().definition();
                if (definition.type == ConfigDef.Type.CLASS || definition.name.endsWith(".classes")
                        || definition.name.equals(CommonClientConfigs.METRIC_REPORTER_CLASSES_CONFIG)) {
                    plugins.add(key);
                }
            }
        }
        return plugins;
    }

    private static Scope scope(String prefix) {
        return switch (prefix) {
            case SOURCE_PREFIX -> SOURCE;
            case DESTINATION_PREFIX -> DESTINATION;
            case STREAMS_PREFIX -> STREAMS;
            default -> throw new IllegalArgumentException("not a pass-through prefix: " + prefix);
        };
    }

    private static Map<String, ConfigDef> streamsPrefixes() {
        Map<String, ConfigDef> prefixes = new LinkedHashMap<>();
        // the longer first: main.consumer. is not consumer.
        prefixes.put(StreamsConfig.MAIN_CONSUMER_PREFIX, ConsumerConfig.configDef());
        prefixes.put(StreamsConfig.RESTORE_CONSUMER_PREFIX, ConsumerConfig.configDef());
        prefixes.put(StreamsConfig.GLOBAL_CONSUMER_PREFIX, ConsumerConfig.configDef());
        prefixes.put(StreamsConfig.CONSUMER_PREFIX, ConsumerConfig.configDef());
        prefixes.put(StreamsConfig.PRODUCER_PREFIX, ProducerConfig.configDef());
        prefixes.put(StreamsConfig.ADMIN_CLIENT_PREFIX, AdminClientConfig.configDef());
        prefixes.put(StreamsConfig.TOPIC_PREFIX, new ConfigDef());
        return prefixes;
    }

    /** The values of TopicConfig's {@code *_CONFIG} constants: Kafka's topic configs. */
    private static Set<String> topicConfigs() {
        Set<String> names = new TreeSet<>();
        for (Field field : TopicConfig.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class
                    && field.getName().endsWith("_CONFIG")) {
                try {
                    names.add((String) field.get(null));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return Set.copyOf(names);
    }
}
