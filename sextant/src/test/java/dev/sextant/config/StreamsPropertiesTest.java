package dev.sextant.config;

import static dev.sextant.config.TestConfigs.config;
import static dev.sextant.config.TestConfigs.minimal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StreamsPropertiesTest {

    private static final HostAndPort ADVERTISED = new HostAndPort("sextant-0.internal", 8080);

    private static Properties of(SextantConfig config, Map<String, ?> defaults) {
        return StreamsProperties.of(config, ADVERTISED, defaults);
    }

    @Test
    void theConfigurationOfAnInstance() {
        SextantConfig c = config("source.security.protocol", "SASL_SSL", "streams.num.stream.threads", "4");
        Properties streams = of(c, Map.of());
        assertEquals("sextant", streams.get("application.id"));
        assertEquals("127.0.0.1:9092", streams.get("bootstrap.servers"));
        assertEquals(c.stateDir(), streams.get("state.dir"));
        assertEquals("sextant-0.internal:8080", streams.get("application.server"));
        assertEquals("SASL_SSL", streams.get("security.protocol"));
        assertEquals("4", streams.get("num.stream.threads"));
        assertEquals(false, streams.get("consumer.exclude.internal.topics"));
        assertEquals(5_000, streams.get("consumer.metadata.max.age.ms"));
        assertEquals("read_committed", streams.get("consumer.isolation.level"));
        assertEquals(5, streams.get("producer.linger.ms"));
        assertEquals(5_000, streams.get("commit.interval.ms"));
        assertEquals(-1L, streams.get("max.task.idle.ms"));
        assertEquals(true, streams.get("processing.exception.handler.global.enabled"));
        new StreamsConfig(streams); // Kafka Streams accepts it
    }

    @Test
    void exactlyOnceCommitsEverySecond() {
        assertEquals(1_000, of(config("streams.processing.guarantee", "exactly_once_v2"), Map.of())
                .get("commit.interval.ms"));
    }

    @Test
    void theCallersDefaultsGiveWayToStreamsKeysOnly() {
        String operatorsHandler = LogAndContinueProcessingExceptionHandler.class.getName();
        SextantConfig c = config("source.commit.interval.ms", "7",
                "streams.processing.exception.handler", operatorsHandler, "streams.max.task.idle.ms", "100");
        Properties streams = of(c, Map.of("processing.exception.handler", "sextant.Processing",
                "production.exception.handler", "sextant.Production", "commit.interval.ms", 3));
        assertEquals(3, streams.get("commit.interval.ms"), "defaults replace source.* and Sextant's settings");
        assertEquals(operatorsHandler, streams.get("processing.exception.handler"), "an operator's handler wins");
        assertEquals("sextant.Production", streams.get("production.exception.handler"));
        assertEquals("100", streams.get("max.task.idle.ms"), "streams.* replaces Sextant's settings");
    }

    @Test
    void sextantsOwnKeysAlwaysWin() {
        SextantConfig c = config("source.application.id", "from-source", "application.id", "sextant-prod");
        Properties streams = of(c, Map.of("application.id", "from-defaults", "state.dir", "/elsewhere",
                "application.server", "elsewhere:1"));
        assertEquals("sextant-prod", streams.get("application.id"));
        assertEquals(c.stateDir(), streams.get("state.dir"));
        assertEquals("sextant-0.internal:8080", streams.get("application.server"));
    }

    @Test
    void theEnvironmentIsAppliedBeforeTheLayers() {
        SextantConfig c = SextantConfigLoader.load(minimal("streams.commit.interval.ms", "2000"),
                Map.of("SEXTANT_STREAMS_COMMIT_INTERVAL_MS", "3000"));
        assertEquals("3000", of(c, Map.of()).get("commit.interval.ms"));
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> SextantConfigLoader.load(minimal(), Map.of("SEXTANT_STREAMS_APPLICATION_ID", "other")));
        assertEquals("streams.application.id", e.key());
    }

    // ---------------------------------------------------------------- the write lease

    /** The consumer configuration Kafka Streams gives its main consumer, with Kafka's defaults filled in. */
    private static ConsumerConfig mainConsumer(SextantConfig config) {
        StreamsConfig streams = new StreamsConfig(of(config, Map.of()));
        Map<String, Object> consumer = new HashMap<>(streams.getMainConsumerConfigs("sextant", "sextant-1", 0));
        consumer.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        consumer.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return new ConsumerConfig(consumer);
    }

    private static void assertLeaseFollowsTheMainConsumer(SextantConfig config) {
        ConsumerConfig consumer = mainConsumer(config);
        long expected = consumer.getInt(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG)
                - consumer.getInt(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG) - 1_000;
        assertEquals(expected, StreamsProperties.writeLeaseMs(config));
    }

    @Test
    void theLeaseFollowsKafkasDefaults() {
        assertLeaseFollowsTheMainConsumer(config());
    }

    @ParameterizedTest
    @CsvSource({
            "streams.session.timeout.ms, 30000, streams.heartbeat.interval.ms, 2000",
            "source.session.timeout.ms, 30000, source.heartbeat.interval.ms, 2000",
            "source.session.timeout.ms, 30000, streams.consumer.session.timeout.ms, 20000",
            "streams.consumer.session.timeout.ms, 30000, streams.main.consumer.session.timeout.ms, 20000",
            "streams.main.consumer.heartbeat.interval.ms, 5000, streams.heartbeat.interval.ms, 2000",
    })
    void theLeaseReadsSettingsAsTheMainConsumerDoes(String key, String value, String otherKey, String otherValue) {
        assertLeaseFollowsTheMainConsumer(config(key, value, otherKey, otherValue));
    }

    @Test
    void anUnreadableSettingNeverReachesTheLease() {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> config("streams.consumer.session.timeout.ms", "soon"));
        assertEquals("streams.consumer.session.timeout.ms", e.key());
    }

    @Test
    void theLeaseIsNeverLessThanASecond() {
        assertEquals(1_000, StreamsProperties.writeLeaseMs(config("streams.session.timeout.ms", "6000",
                "streams.heartbeat.interval.ms", "5500")));
    }
}
