package dev.sextant.testkit;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.StringReader;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class LocalMirrorMakerConfigTest {

    @Test
    void defaultsMirrorEverythingOneWayWithoutTouchingGroups() {
        Map<String, String> p = MirrorMakerProperties.mm2Properties("127.0.0.1:1", "127.0.0.1:2",
                LocalMirrorMaker.Options.defaults());

        assertEquals("source, destination", p.get("clusters"));
        assertEquals("127.0.0.1:1", p.get("source.bootstrap.servers"));
        assertEquals("127.0.0.1:2", p.get("destination.bootstrap.servers"));
        assertEquals("true", p.get("source->destination.enabled"));
        assertEquals("false", p.get("destination->source.enabled"));
        assertEquals(".*", p.get("source->destination.topics"));
        assertEquals("false", p.get("sync.group.offsets.enabled"));
        assertEquals("false", p.get("emit.checkpoints.enabled"));
        assertEquals("100", p.get("offset.lag.max"));
        assertEquals("5", p.get("refresh.topics.interval.seconds"));
        assertEquals("5", p.get("refresh.groups.interval.seconds"));
        assertEquals("false", p.get("dedicated.mode.enable.internal.rest"));
    }

    @Test
    void workerSettingsArePrefixedWithTheTargetAlias() {
        Map<String, String> p = MirrorMakerProperties.mm2Properties("a:1", "b:2", LocalMirrorMaker.Options.defaults());

        assertEquals("service_load", p.get("destination.plugin.discovery"));
        assertEquals("1000", p.get("destination.offset.flush.interval.ms"));
    }

    @Test
    void everyCreatedTopicHasReplicationFactorOne() {
        Map<String, String> p = MirrorMakerProperties.mm2Properties("a:1", "b:2", LocalMirrorMaker.Options.defaults());

        for (String key : new String[] {"replication.factor", "checkpoints.topic.replication.factor",
                "heartbeats.topic.replication.factor", "offset-syncs.topic.replication.factor",
                "offset.storage.replication.factor", "status.storage.replication.factor",
                "config.storage.replication.factor"}) {
            assertEquals("1", p.get(key), key);
        }
    }

    @Test
    void optionsAndExtraPropertiesOverrideDefaults() {
        LocalMirrorMaker.Options options = LocalMirrorMaker.Options.builder()
                .topics("orders|payments")
                .groups("g.*")
                .offsetLagMax(0)
                .syncGroupOffsetsEnabled(true)
                .syncGroupOffsetsIntervalSeconds(2)
                .emitCheckpointsEnabled(true)
                .emitCheckpointsIntervalSeconds(3)
                .refreshIntervalSeconds(1)
                .property("tasks.max", "2")
                .build();

        Map<String, String> p = MirrorMakerProperties.mm2Properties("a:1", "b:2", options);

        assertEquals("orders|payments", p.get("source->destination.topics"));
        assertEquals("g.*", p.get("source->destination.groups"));
        assertEquals("0", p.get("offset.lag.max"));
        assertEquals("true", p.get("sync.group.offsets.enabled"));
        assertEquals("2", p.get("sync.group.offsets.interval.seconds"));
        assertEquals("true", p.get("emit.checkpoints.enabled"));
        assertEquals("3", p.get("emit.checkpoints.interval.seconds"));
        assertEquals("1", p.get("refresh.topics.interval.seconds"));
        assertEquals("2", p.get("tasks.max"));
    }

    @Test
    void jvmOptionsAndExtraClasspathDefaultToTheSmallHeapAndNothing() {
        LocalMirrorMaker.Options defaults = LocalMirrorMaker.Options.defaults();
        assertEquals(null, defaults.jvmOptions());
        assertEquals(List.of(), defaults.extraClasspath());

        LocalMirrorMaker.Options options = LocalMirrorMaker.Options.builder()
                .jvmOptions(List.of("-Xmx512m"))
                .extraClasspath(Path.of("/tmp/classes"))
                .build();
        assertEquals(List.of("-Xmx512m"), options.jvmOptions());
        assertEquals(List.of(Path.of("/tmp/classes")), options.extraClasspath());
    }

    @Test
    void clientConfigOfEachClusterGoesUnderItsAlias() {
        Map<String, Object> source = new LinkedHashMap<>();
        source.put("bootstrap.servers", "127.0.0.1:1");
        source.put("security.protocol", "SASL_SSL");
        source.put("sasl.mechanism", "SCRAM-SHA-512");
        source.put("sasl.jaas.config", "x required username=\"admin\" password=\"p\";");
        Map<String, Object> destination = Map.of("bootstrap.servers", "127.0.0.1:2", "security.protocol", "SSL",
                "ssl.keystore.location", "/tmp/admin.p12");

        Map<String, String> p = MirrorMakerProperties.mm2Properties(source, destination,
                LocalMirrorMaker.Options.defaults());

        assertEquals("127.0.0.1:1", p.get("source.bootstrap.servers"));
        assertEquals("SASL_SSL", p.get("source.security.protocol"));
        assertEquals("SCRAM-SHA-512", p.get("source.sasl.mechanism"));
        assertEquals("x required username=\"admin\" password=\"p\";", p.get("source.sasl.jaas.config"));
        assertEquals("127.0.0.1:2", p.get("destination.bootstrap.servers"));
        assertEquals("SSL", p.get("destination.security.protocol"));
        assertEquals("/tmp/admin.p12", p.get("destination.ssl.keystore.location"));
        assertEquals(null, p.get("security.protocol"), "never unprefixed: it would apply to both clusters");
        // the round trip through a properties file keeps the JAAS string intact
        Properties loaded = new Properties();
        assertDoesNotThrow(() -> loaded.load(new StringReader(PropertiesFiles.render("", p))));
        assertEquals(p.get("source.sasl.jaas.config"), loaded.getProperty("source.sasl.jaas.config"));
        assertThrows(IllegalArgumentException.class, () -> MirrorMakerProperties.mm2Properties(Map.of(), destination,
                LocalMirrorMaker.Options.defaults()));
    }

    @Test
    void mirroredTopicFollowsDefaultReplicationPolicy() {
        assertEquals("source.orders", LocalMirrorMaker.mirroredTopic("orders"));
    }

    @Test
    void builderRejectsInvalidValues() {
        LocalMirrorMaker.Options.Builder builder = LocalMirrorMaker.Options.builder();
        assertThrows(IllegalArgumentException.class, () -> builder.offsetLagMax(-1));
        assertThrows(IllegalArgumentException.class, () -> builder.refreshIntervalSeconds(0));
        assertThrows(IllegalArgumentException.class, () -> builder.emitCheckpointsIntervalSeconds(0));
    }
}
