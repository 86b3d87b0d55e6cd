package dev.sextant.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The Kafka Streams configuration of one Sextant instance, the only place it is built (the application and the tests
 * both use {@link #of}), and the write lease that follows from it.
 *
 * <p>Precedence, lowest first; a later layer replaces a key an earlier one set:
 * <ol>
 *   <li>every {@code source.*} client config, prefix stripped: the application runs on the source cluster;</li>
 *   <li>Sextant's own settings for Kafka Streams (below), which it needs to read internal topics and keep up, and a
 *       {@code group.instance.id} for static membership ({@link StaticMembership});</li>
 *   <li>the {@code defaults} the caller passes, such as the error handlers an instance installs;</li>
 *   <li>every {@code streams.*} config, prefix stripped: an operator's choice wins over Sextant's, handlers
 *       included;</li>
 *   <li>{@code application.id}, {@code bootstrap.servers} (from {@code source.bootstrap.servers}),
 *       {@code state.dir} and {@code application.server} (the advertised address): always from Sextant's keys, as
 *       {@code streams.*} of these four is refused when the configuration loads.</li>
 * </ol>
 * The environment is not a layer here: {@link SextantConfigLoader} applies {@code SEXTANT_*} variables over the file
 * before the configuration is built, so {@code SEXTANT_STREAMS_COMMIT_INTERVAL_MS} is
 * {@code streams.commit.interval.ms} in layer 4 and wins over the same key in the file as well as over Sextant's
 * setting; {@code SEXTANT_SOURCE_*} is layer 1. Kafka Streams then gives a client-prefixed key ({@code consumer.},
 * {@code main.consumer.}, {@code producer.}) precedence over the unprefixed one: {@code source.isolation.level} does
 * not undo Sextant's {@code consumer.isolation.level}, {@code streams.consumer.isolation.level} does.
 */
public final class StreamsProperties {

    /** Its StreamsConfig constant is deprecated: Kafka Streams 5.0 removes the key and makes true the default. */
    private static final String PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED =
            "processing.exception.handler.global.enabled";
    private static final long LEASE_MARGIN_MS = 1_000;
    private static final long MIN_LEASE_MS = 1_000;
    private static final Map<String, Object> CONSUMER_DEFAULTS = ConsumerConfig.configDef().defaultValues();

    private StreamsProperties() {
    }

    /**
     * The configuration to create this instance's Kafka Streams client with, layered as the class describes.
     *
     * @param advertised this instance's HTTP API address, with the port actually bound
     * @param defaults   settings that {@code streams.*} may replace, such as the error handlers
     */
    public static Properties of(SextantConfig config, HostAndPort advertised, Map<String, ?> defaults) {
        Map<String, Object> layers = layers(config, defaults);
        layers.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
        layers.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
                config.sourceClientConfig().get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG));
        layers.put(StreamsConfig.STATE_DIR_CONFIG, config.stateDir());
        layers.put(StreamsConfig.APPLICATION_SERVER_CONFIG, advertised.toString());
        Properties properties = new Properties();
        properties.putAll(layers);
        return properties;
    }

    /**
     * The write lease: the stream consumer's session timeout less one heartbeat interval and a second of margin. An
     * instance that stops heartbeating keeps its tasks at least that long after its last heartbeat, which was at most
     * one interval before it planned a write; so a write sent within the lease is sent before another instance can
     * own the group.
     *
     * <p>Both settings are read from the layers above as Kafka Streams' main consumer reads them ({@code
     * main.consumer.}, then {@code consumer.}, then unprefixed), and default to the Kafka consumer's own defaults, so
     * the lease follows the Kafka version rather than a copy of its numbers. Never less than a second.
     */
    public static long writeLeaseMs(SextantConfig config) {
        Map<String, Object> layers = layers(config, Map.of());
        long session = mainConsumerSetting(layers, ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG);
        long heartbeat = mainConsumerSetting(layers, ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG);
        return Math.max(MIN_LEASE_MS, session - heartbeat - LEASE_MARGIN_MS);
    }

    /** Layers 1 to 4. */
    private static Map<String, Object> layers(SextantConfig config, Map<String, ?> defaults) {
        Map<String, Object> layers = new LinkedHashMap<>(config.sourceClientConfig());
        layers.putAll(sextantSettings(config.exactlyOnce()));
        // static membership: a restarted instance takes its tasks back at once, not after session.timeout.ms
        layers.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, StaticMembership.defaultInstanceId(config.stateDir()));
        layers.putAll(defaults);
        layers.putAll(config.streamsOverrides());
        // streams.group.instance.id set empty: dynamic membership
        layers.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "");
        return layers;
    }

    private static Map<String, Object> sextantSettings(boolean exactlyOnce) {
        Map<String, Object> settings = new LinkedHashMap<>();
        // Internal topics are read by pattern: the consumer must be allowed to match them, and should notice a
        // topic that appears (share state, MirrorMaker 2's offset syncs) within seconds, not minutes.
        settings.put(StreamsConfig.consumerPrefix(ConsumerConfig.EXCLUDE_INTERNAL_TOPICS_CONFIG), false);
        settings.put(StreamsConfig.consumerPrefix(ConsumerConfig.METADATA_MAX_AGE_CONFIG), 5_000);
        // Transactional offset commits that were aborted must not be synced.
        settings.put(StreamsConfig.consumerPrefix(ConsumerConfig.ISOLATION_LEVEL_CONFIG), "read_committed");
        settings.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 5);
        // A Streams commit costs: it is itself a record in __consumer_offsets that Sextant reads, and it writes every
        // position changed since the last one to RocksDB and its changelog. Seldom commits write a hot position once
        // per interval instead of once per commit; a crash replays up to an interval of __consumer_offsets, which the
        // guards make harmless. Under exactly-once a commit also makes Sextant's own records visible (offset-sync
        // history, share positions), so it stays short there.
        settings.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, exactlyOnce ? 1_000 : 5_000);
        // A task reads two inputs whose relative order does not matter (commits, and share positions; names that
        // arrive late are resolved through placeholders): never wait for the empty one (Streams' default, 0, also
        // formats a diagnostic string for every empty partition on every pass).
        settings.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
        // Sextant handles bad input itself; this only opts in to Kafka 5.0's default and silences the warning.
        settings.put(PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED, true);
        return settings;
    }

    /** A main-consumer setting of {@code layers} as a number, or Kafka's default for {@code key}. */
    private static long mainConsumerSetting(Map<String, Object> layers, String key) {
        long kafkaDefault = ((Number) CONSUMER_DEFAULTS.get(key)).longValue();
        for (String name : List.of(StreamsConfig.mainConsumerPrefix(key), StreamsConfig.consumerPrefix(key), key)) {
            Object value = layers.get(name);
            if (value != null) {
                try {
                    return Long.parseLong(value.toString().trim());
                } catch (NumberFormatException e) {
                    return kafkaDefault; // Kafka Streams itself rejects it at start, naming the key
                }
            }
        }
        return kafkaDefault;
    }
}
