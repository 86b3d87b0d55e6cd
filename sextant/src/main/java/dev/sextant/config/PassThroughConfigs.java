package dev.sextant.config;

import static dev.sextant.config.ConfigKeys.DESTINATION_PREFIX;
import static dev.sextant.config.ConfigKeys.SOURCE_PREFIX;
import static dev.sextant.config.ConfigKeys.STREAMS_PREFIX;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.streams.StreamsConfig;

/**
 * What Sextant hands on to Kafka as given: the configs of the source's clients ({@code source.*}), of the
 * destination's ({@code destination.*}) and of Kafka Streams ({@code streams.*}), each with its prefix stripped.
 * {@link PassThroughKeys} knows which keys Kafka defines under each prefix; this holds the values.
 *
 * <p>Invariants: a key of Sextant's own under a prefix ({@code source.alias}, {@code destination.alias}) is never
 * handed on, but for {@code bootstrap.servers}, which is both Sextant's and the clients'; values are as configured
 * (after config providers); the maps are sorted by key and cannot be changed.
 */
final class PassThroughConfigs {

    private final Map<String, Object> source;
    private final Map<String, Object> destination;
    private final Map<String, Object> streams;

    /** @param props the configuration that passed {@link ConfigChecks}, as written (not parsed) */
    PassThroughConfigs(Map<String, Object> props) {
        this.source = underPrefix(props, SOURCE_PREFIX);
        this.destination = underPrefix(props, DESTINATION_PREFIX);
        this.streams = underPrefix(props, STREAMS_PREFIX);
    }

    /** The {@code source.*} configs. */
    Map<String, Object> source() {
        return source;
    }

    /** The {@code destination.*} configs. */
    Map<String, Object> destination() {
        return destination;
    }

    /** The {@code streams.*} configs. */
    Map<String, Object> streams() {
        return streams;
    }

    /** True when {@code streams.processing.guarantee} asks for exactly-once. */
    boolean exactlyOnce() {
        Object guarantee = streams.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG);
        return guarantee != null && guarantee.toString().startsWith("exactly_once");
    }

    /** The keys under {@code prefix} (not the prefix alone), stripped of it, less Sextant's own. */
    private static Map<String, Object> underPrefix(Map<String, Object> props, String prefix) {
        Map<String, Object> config = new TreeMap<>();
        props.forEach((key, value) -> {
            if (key.startsWith(prefix) && key.length() > prefix.length()) {
                config.put(key.substring(prefix.length()), value);
            }
        });
        config.keySet().removeIf(name -> ConfigDefinitions.key(prefix + name) != null
                && !name.equals(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG));
        return Collections.unmodifiableMap(config);
    }
}
