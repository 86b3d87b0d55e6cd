package dev.sextant.config;

import static dev.sextant.config.TestConfigs.assertContains;
import static dev.sextant.config.TestConfigs.assertNamesKey;
import static dev.sextant.config.TestConfigs.config;
import static dev.sextant.config.TestConfigs.minimal;
import static dev.sextant.config.TestConfigs.refused;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** What {@link ConfigChecks} refuses, and how its messages say it. */
class ConfigChecksTest {

    // ---------------------------------------------------------------- unknown keys

    @Test
    void unknownKeySuggestsTheClosestKey() {
        InvalidConfigurationException e = refused("sync.intervall.ms", "sync.intervall.ms", "100");
        assertContains(e.getMessage(), "Unknown configuration key 'sync.intervall.ms'");
        assertContains(e.getMessage(), "did you mean 'sync.interval.ms'?".replace("did", "Did"));
        assertContains(e.getMessage(), "rename it to 'sync.interval.ms'");
        assertEquals("100", e.value());
    }

    @ParameterizedTest
    @CsvSource({
            "groups.includes, groups.include",
            "dlq.topic.partition, dlq.topic.partitions",
            "aplication.id, application.id",
            "sync-interval.ms, sync.interval.ms",
            "query.listen.address, query.listen",
            "sourc.bootstrap.servers, source.bootstrap.servers",
            "stream.num.stream.threads, streams.num.stream.threads",
            "SYNC.INTERVAL.MS, sync.interval.ms",
    })
    void unknownKeySuggestions(String typo, String suggestion) {
        InvalidConfigurationException e = refused(typo, typo, "1");
        assertContains(e.getMessage(), "Did you mean '" + suggestion + "'?");
    }

    @Test
    void unknownKeyWithoutAnythingClose() {
        InvalidConfigurationException e = refused("completely.unrelated.thing", "completely.unrelated.thing", "x");
        assertFalse(e.getMessage().contains("Did you mean"), e.getMessage());
        assertContains(e.getMessage(), "Fix: remove it.");
    }

    @Test
    void aBarePrefixIsUnknown() {
        refused("streams.", "streams.", "x");
    }

    @Test
    void kafkasOwnKeysPassThrough() {
        SextantConfig c = config("source.sasl.mechanism", "PLAIN", "source.num.stream.threads", "2",
                "source.main.consumer.max.poll.records", "10", "destination.client.id", "sextant-admin",
                "destination.max.poll.records", "5", "destination.linger.ms", "5",
                "streams.group.instance.id", "sextant-0", "streams.num.standby.replicas", "1",
                "streams.main.consumer.max.poll.records", "100", "streams.restore.consumer.fetch.max.bytes", "1000",
                "streams.producer.compression.type", "lz4", "streams.admin.retries", "3",
                "streams.topic.min.insync.replicas", "2", "streams.client.tag.zone", "eu-1",
                "source.config.providers", "env",
                "source.config.providers.env.class", "org.apache.kafka.common.config.provider.EnvVarConfigProvider");
        assertEquals(List.of(), c.warnings());
    }

    /** The typos, and their like under each prefix: refused, with Kafka's key of the nearest name. */
    @ParameterizedTest
    @CsvSource({
            "source.sasl.mechanizm, source.sasl.mechanism",
            "streams.num.stream.thread, streams.num.stream.threads",
            "destination.request.timeout, destination.request.timeout.ms",
            "destination.num.stream.threads, streams.num.stream.threads",
            "streams.main.consumer.max.poll.record, streams.main.consumer.max.poll.records",
            "streams.producer.compresion.type, streams.producer.compression.type",
            "streams.topic.min.insync.replica, streams.topic.min.insync.replicas",
            "source.securty.protocol, source.security.protocol",
    })
    void unknownClientKeysAreRefusedWithKafkasNearestKey(String typo, String suggestion) {
        InvalidConfigurationException e = refused(typo, typo, "1");
        assertContains(e.getMessage(), "Unknown configuration key '" + typo + "'. Kafka defines no such config");
        assertContains(e.getMessage(), "Did you mean '" + suggestion + "'?");
        assertContains(e.getMessage(), "Fix: rename it to '" + suggestion + "', or remove it.");
    }

    @ParameterizedTest
    @ValueSource(strings = {"source.my.custom.interceptor.setting", "streams.some.future.setting",
            "destination.consumer.max.poll.records"})
    void aKeyKafkaDoesNotDefineIsRefused(String key) {
        InvalidConfigurationException e = refused(key, key, "1");
        assertContains(e.getMessage(), "as Kafka defines them");
    }

    /** Kafka hands a client's whole configuration to its plugins, which may read keys of their own. */
    @Test
    void aKeyForTheClientsPluginsIsAWarning() {
        SextantConfig c = config("source.interceptor.classes", "com.example.Interceptor",
                "source.example.interceptor.setting", "x");
        assertEquals(1, c.warnings().size(), c.warnings().toString());
        assertContains(c.warnings().get(0), "'source.example.interceptor.setting' is no config Kafka defines");
        assertContains(c.warnings().get(0), "source.interceptor.classes");
        refused("destination.example.interceptor.setting", "source.interceptor.classes", "com.example.Interceptor",
                "destination.example.interceptor.setting", "x");
    }

    // ---------------------------------------------------------------- every problem at once

    @Test
    void everyProblemIsReportedAtOnce() {
        Map<String, Object> props = minimal("sync.intervall.ms", "100", "source.sasl.mechanizm", "PLAIN",
                "streams.num.stream.thread", "2", "dlq.topic.partitions", "0", "groups", "orders",
                "streams.application.id", "x", "streams.consumer.session.timeout.ms", "soon");
        props.remove("destination.bootstrap.servers");
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> new SextantConfig(props));
        List<String> keys = e.problems().stream().map(InvalidConfigurationException::key).toList();
        assertEquals(List.of("streams.application.id", "groups", "source.sasl.mechanizm", "streams.num.stream.thread",
                "sync.intervall.ms", "destination.bootstrap.servers", "dlq.topic.partitions",
                "streams.consumer.session.timeout.ms"), keys, e.getMessage());
        assertEquals("streams.application.id", e.key());
        assertTrue(e.getMessage().startsWith("8 problems, each to fix:\n  1. 'streams.application.id' cannot be "
                + "set"), e.getMessage());
        for (int i = 0; i < keys.size(); i++) {
            assertContains(e.getMessage(), "\n  " + (i + 1) + ". " + e.problems().get(i).getMessage());
        }
    }

    @Test
    void oneProblemIsReportedAsBefore() {
        InvalidConfigurationException e = refused("sync.intervall.ms", "sync.intervall.ms", "100");
        assertEquals(List.of(e), e.problems());
        assertTrue(e.getMessage().startsWith("Unknown configuration key"), e.getMessage());
    }

    // ---------------------------------------------------------------- bad values

    @ParameterizedTest
    @CsvSource({
            "sync.interval.ms, abc",
            "sync.interval.ms, 1.5",
            "sync.pending.timeout.ms, ''",
            "sync.consumer.groups, yes",
            "sync.share.groups, 1",
            "dlq.topic.partitions, many",
            "dlq.topic.partitions, 3000000000",
            "dlq.topic.replication.factor, 40000",
            "replication.policy.internal.topic.separator.enabled, maybe",
    })
    void badType(String key, String value) {
        InvalidConfigurationException e = refused(key, key, value);
        assertContains(e.getMessage(), "Invalid value '" + value + "' for '" + key + "'");
        assertContains(e.getMessage(), "expected ");
        assertContains(e.getMessage(), "Accepted: ");
        assertContains(e.getMessage(), "Fix: ");
        assertEquals(value, e.value());
    }

    @Test
    void badTypeFromAMap() {
        InvalidConfigurationException e = refused("sync.interval.ms", "sync.interval.ms", Boolean.TRUE);
        assertContains(e.getMessage(), "a whole number");
    }

    @ParameterizedTest
    @CsvSource({
            "sync.interval.ms, 9, at least 10",
            "sync.interval.ms, -1, at least 10",
            "sync.pending.timeout.ms, -1, at least 0",
            "sync.write.parallelism, 0, from 1 to 64",
            "sync.write.parallelism, 65, from 1 to 64",
            "dlq.topic.partitions, 0, at least 1",
            "dlq.topic.replication.factor, 0, -1",
            "dlq.topic.replication.factor, -2, -1",
            "query.listen, 0.0.0.0:65536, outside 0..65535",
            "query.listen, localhost:99999, outside 0..65535",
    })
    void outOfRange(String key, String value, String expected) {
        InvalidConfigurationException e = refused(key, key, value);
        assertContains(e.getMessage(), "'" + value + "'");
        assertContains(e.getMessage(), expected);
        assertContains(e.getMessage(), "remove it to use the default");
    }

    @Test
    void rangeMessageIsReadable() {
        InvalidConfigurationException e = refused("sync.interval.ms", "sync.interval.ms", "5");
        assertEquals("Invalid value '5' for 'sync.interval.ms': must be at least 10. Accepted: a whole number, at "
                + "least 10. Fix: set 'sync.interval.ms' to an accepted value, or remove it to use the default (250).",
                e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({
            "translation, offsetsyncs, offset-syncs",
            "translation, identical, identity",
            "sync.rewind, follow, follow-source",
            "sync.rewind, nevr, never",
    })
    void badEnum(String key, String value, String suggestion) {
        InvalidConfigurationException e = refused(key, key, value);
        assertContains(e.getMessage(), "not one of");
        assertContains(e.getMessage(), "did you mean '" + suggestion + "'?");
    }

    @Test
    void enumsIgnoreCase() {
        assertEquals(Translation.IDENTITY, config("translation", "Identity").translation());
        assertEquals(RewindPolicy.FOLLOW_SOURCE, config("sync.rewind", "FOLLOW-SOURCE").rewindPolicy());
    }

    @ParameterizedTest
    @ValueSource(strings = {"groups.include", "groups.exclude", "topics.include", "topics.exclude"})
    void badRegex(String key) {
        InvalidConfigurationException e = refused(key, key, "orders-(.*");
        assertContains(e.getMessage(), "does not compile");
        assertContains(e.getMessage(), "'orders-(.*'");
    }

    @ParameterizedTest
    @CsvSource({
            "source.alias, 'my source'",
            "destination.alias, 'a\tb'",
            "application.id, 'sextant prod'",
            "application.id, 'sextant/prod'",
            "dlq.topic, 'bad topic'",
            "dlq.topic, '..'",
            "offset.syncs.topic, 'a:b'",
            "query.listen, 'localhost'",
            "query.listen, ':8080'",
            "query.advertised, '0.0.0.0:8080'",
            "query.advertised, 'host:0'",
            "source.bootstrap.servers, 'localhost'",
            "destination.bootstrap.servers, ''",
            "replication.policy.separator, ''",
            "state.dir, ''",
    })
    void badStrings(String key, String value) {
        refused(key, key, value);
    }

    @Test
    void emptyAliasIsRefused() {
        InvalidConfigurationException e = refused("source.alias", "source.alias", "");
        assertContains(e.getMessage(), "must not be empty");
    }

    // ---------------------------------------------------------------- missing and forbidden keys

    @ParameterizedTest
    @ValueSource(strings = {"source.bootstrap.servers", "destination.bootstrap.servers"})
    void missingRequiredKey(String key) {
        Map<String, Object> props = minimal();
        props.remove(key);
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> new SextantConfig(props));
        assertNamesKey(e, key);
        assertContains(e.getMessage(), "Missing required configuration");
        assertContains(e.getMessage(), SextantConfigLoader.environmentVariable(key));
        assertNull(e.value());
    }

    @ParameterizedTest
    @CsvSource({
            "streams.application.id, application.id",
            "streams.bootstrap.servers, source.bootstrap.servers",
            "streams.state.dir, state.dir",
            "streams.application.server, query.advertised",
    })
    void forbiddenStreamsKeys(String key, String instead) {
        InvalidConfigurationException e = refused(key, key, "x");
        assertContains(e.getMessage(), "use '" + instead + "=x' instead");
    }

    // ---------------------------------------------------------------- pass-through values Kafka knows

    @ParameterizedTest
    @CsvSource({
            "streams.num.stream.threads, many",
            "streams.processing.guarantee, exactly_twice",
            "source.security.protocol, SASL_TLS",
            "destination.request.timeout.ms, soon",
            "streams.max.poll.records, lots",
            "streams.consumer.session.timeout.ms, soon",
            "streams.main.consumer.max.poll.records, -",
            "source.main.consumer.isolation.level, read_all",
            "streams.producer.acks, some",
    })
    void passThroughValuesAreCheckedAgainstKafkasDefinitions(String key, String value) {
        InvalidConfigurationException e = refused(key, key, value);
        assertContains(e.getMessage(), "Invalid value '" + value + "'");
        assertContains(e.getMessage(), "Kafka's default");
    }

    @Test
    void aBadSecretIsNotShown() {
        InvalidConfigurationException e = refused("source.ssl.key.password", "source.ssl.key.password", 424242);
        assertEquals("[hidden]", e.value());
        assertFalse(e.getMessage().contains("424242"), e.getMessage());
        assertContains(e.getMessage(), "Invalid value '[hidden]' for 'source.ssl.key.password'");
    }

    // ---------------------------------------------------------------- the HTTP API's TLS

    @ParameterizedTest
    @ValueSource(strings = {"requested", "required"})
    void clientCertificatesNeedAKeystoreAndATruststore(String clientAuth, @TempDir Path dir) throws IOException {
        Path store = Files.createFile(dir.resolve("store.p12"));
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> config("query.tls.client.auth", clientAuth));
        assertEquals("query.tls.client.auth", e.key());
        assertContains(e.getMessage(), "'query.tls.client.auth=" + clientAuth + "' needs TLS. Fix: set "
                + "'query.tls.keystore.location'");
        e = assertThrows(InvalidConfigurationException.class, () -> config("query.tls.client.auth", clientAuth,
                "query.tls.keystore.location", store.toString()));
        assertEquals("query.tls.client.auth", e.key());
        assertContains(e.getMessage(), "checks client certificates against a truststore");
        assertDoesNotThrow(() -> config("query.tls.client.auth", clientAuth,
                "query.tls.keystore.location", store.toString(), "query.tls.truststore.location", store.toString()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"query.tls.keystore.location", "query.tls.truststore.location"})
    void storeFilesMustExist(String key, @TempDir Path dir) {
        String missing = dir.resolve("missing.p12").toString();
        InvalidConfigurationException e = refused(key, key, missing);
        assertContains(e.getMessage(), "'" + key + "=" + missing + "': no such file");
    }
}
