package dev.sextant.config;

import static dev.sextant.config.TestConfigs.assertContains;
import static dev.sextant.config.TestConfigs.config;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.mirror.DefaultReplicationPolicy;
import org.apache.kafka.connect.mirror.IdentityReplicationPolicy;
import org.junit.jupiter.api.Test;

class SextantConfigTest {

    @Test
    void defaults() {
        SextantConfig c = config();
        assertEquals("source", c.sourceAlias());
        assertEquals("destination", c.destinationAlias());
        assertEquals(Translation.OFFSET_SYNCS, c.translation());
        assertEquals("mm2-offset-syncs.destination.internal", c.offsetSyncsTopic());
        assertInstanceOf(DefaultReplicationPolicy.class, c.replicationPolicy());
        assertEquals(".", c.replicationPolicySeparator());
        assertEquals(".*", c.groupsInclude().pattern());
        assertEquals(".*", c.topicsInclude().pattern());
        assertEquals(".*[-.]internal|.*\\.replica|__.*", c.topicsExclude().pattern());
        assertTrue(c.syncConsumerGroups());
        assertTrue(c.syncShareGroups());
        assertEquals(250L, c.syncIntervalMs());
        assertEquals(RewindPolicy.FOLLOW_SOURCE, c.rewindPolicy());
        assertEquals(60_000L, c.pendingTimeoutMs());
        assertEquals("sextant.conflicts", c.dlqTopic());
        assertEquals(1, c.dlqTopicPartitions());
        assertEquals((short) -1, c.dlqTopicReplicationFactor());
        assertEquals(new HostAndPort("127.0.0.1", 8080), c.queryListen());
        assertEquals("sextant", c.applicationId());
        assertEquals(System.getProperty("java.io.tmpdir") + File.separator + "sextant", c.stateDir());
        assertEquals(Map.of("bootstrap.servers", "127.0.0.1:9092"), c.sourceClientConfig());
        assertEquals(Map.of("bootstrap.servers", "127.0.0.1:9093"), c.destinationClientConfig());
        assertEquals(Map.of(), c.streamsOverrides());
    }

    @Test
    void everyKeyIsDocumented() {
        ConfigDef def = SextantConfig.configDef();
        assertEquals(41, def.names().size());
        for (ConfigDef.ConfigKey key : def.configKeys().values()) {
            assertFalse(key.documentation == null || key.documentation.isBlank(), key.name);
            assertTrue(key.importance != null, key.name);
        }
        String md = SextantConfig.documentation();
        for (String name : def.names()) {
            assertContains(md, "| `" + name + "` | `" + SextantConfigLoader.environmentVariable(name) + "` |");
        }
        assertContains(md, "`source.<client config>`");
        assertContains(md, "`${java.io.tmpdir}/sextant`");
        assertContains(SextantConfig.documentationRst(), "``sync.interval.ms``");
    }

    @Test
    void typedValues() {
        SextantConfig c = config(
                "source.alias", "east", "destination.alias", "west",
                "translation", "IDENTITY", "sync.rewind", "never",
                "sync.interval.ms", "1000", "sync.pending.timeout.ms", 0,
                "sync.consumer.groups", "false", "sync.share.groups", false,
                "dlq.topic", "my-dlq", "dlq.topic.partitions", "3", "dlq.topic.replication.factor", "3",
                "query.listen", "127.0.0.1:0", "query.advertised", "sextant-0.internal:8081",
                "application.id", "sextant-prod", "state.dir", "/var/lib/sextant");
        assertEquals("east", c.sourceAlias());
        assertEquals("west", c.destinationAlias());
        assertEquals(Translation.IDENTITY, c.translation());
        assertEquals(RewindPolicy.NEVER, c.rewindPolicy());
        assertEquals(1000L, c.syncIntervalMs());
        assertEquals(0L, c.pendingTimeoutMs());
        assertFalse(c.syncConsumerGroups());
        assertFalse(c.syncShareGroups());
        assertEquals("my-dlq", c.dlqTopic());
        assertEquals(3, c.dlqTopicPartitions());
        assertEquals((short) 3, c.dlqTopicReplicationFactor());
        assertEquals(new HostAndPort("127.0.0.1", 0), c.queryListen());
        assertEquals(new HostAndPort("sextant-0.internal", 8081), c.queryAdvertised());
        assertEquals("sextant-prod", c.applicationId());
        assertEquals("/var/lib/sextant", c.stateDir());
    }

    @Test
    void offsetSyncsTopicIsDerivedFromTheDestinationAliasAndSeparator() {
        assertEquals("mm2-offset-syncs.backup.internal",
                config("destination.alias", "backup").offsetSyncsTopic());
        assertEquals("mm2-offset-syncs_backup_internal",
                config("destination.alias", "backup", "replication.policy.separator", "_").offsetSyncsTopic());
        assertEquals("mm2-offset-syncs.backup.internal", config("destination.alias", "backup",
                "replication.policy.separator", "_", "replication.policy.internal.topic.separator.enabled", "false")
                .offsetSyncsTopic());
        assertEquals("mm2-offset-syncs.destination.internal",
                config("replication.policy", "identity").offsetSyncsTopic());
        assertEquals("explicit.syncs", config("offset.syncs.topic", "explicit.syncs").offsetSyncsTopic());
        assertEquals("mm2-offset-syncs.destination.internal", config("offset.syncs.topic", " ").offsetSyncsTopic());
    }

    @Test
    void replicationPolicies() {
        SextantConfig byDefault = config("source.alias", "east", "replication.policy.separator", "_");
        assertInstanceOf(DefaultReplicationPolicy.class, byDefault.replicationPolicy());
        assertEquals("east_orders", byDefault.replicationPolicy().formatRemoteTopic("east", "orders"));
        assertSame(byDefault.replicationPolicy(), byDefault.replicationPolicy());

        SextantConfig identity = config("source.alias", "east", "replication.policy", "Identity");
        assertInstanceOf(IdentityReplicationPolicy.class, identity.replicationPolicy());
        assertEquals("orders", identity.replicationPolicy().formatRemoteTopic("east", "orders"));
        assertEquals("east", identity.replicationPolicy().topicSource("orders"));

        SextantConfig custom = config("source.alias", "east", "destination.alias", "west",
                "replication.policy", RecordingReplicationPolicy.class.getName(),
                "replication.policy.separator", "-");
        RecordingReplicationPolicy policy = assertInstanceOf(RecordingReplicationPolicy.class,
                custom.replicationPolicy());
        assertEquals("-", policy.configured.get("replication.policy.separator"));
        assertEquals("east", policy.configured.get("source.cluster.alias"));
        assertEquals("west", policy.configured.get("target.cluster.alias"));
        assertEquals("custom-syncs-west", custom.offsetSyncsTopic());
    }

    @Test
    void groupFilterAlwaysExcludesTheApplicationId() {
        SextantConfig c = config("application.id", "sextant.prod");
        assertTrue(c.includesGroup("orders-service"));
        assertFalse(c.includesGroup("sextant.prod"));
        assertTrue(c.includesGroup("sextantXprod"), "the application id is matched literally");
        assertFalse(c.includesGroup("__internal"));
        assertFalse(c.includesGroup("connect-mirror"));
        assertFalse(c.includesGroup("console-consumer-1234"));

        SextantConfig nothingExcluded = config("groups.exclude", "");
        assertTrue(nothingExcluded.includesGroup("connect-mirror"));
        assertFalse(nothingExcluded.includesGroup("sextant"));

        SextantConfig narrow = config("groups.include", "orders-.*", "groups.exclude", "orders-test");
        assertTrue(narrow.includesGroup("orders-billing"));
        assertFalse(narrow.includesGroup("orders-test"));
        assertFalse(narrow.includesGroup("my-orders-billing"), "full-match semantics");
    }

    @Test
    void topicFilterUsesFullMatch() {
        SextantConfig c = config();
        assertTrue(c.includesTopic("orders"));
        assertFalse(c.includesTopic("mm2-offset-syncs.destination.internal"));
        assertFalse(c.includesTopic("source.checkpoints.internal"));
        assertFalse(c.includesTopic("heartbeats.replica"));
        assertFalse(c.includesTopic("__consumer_offsets"));
        assertTrue(c.includesTopic("internal-orders"));

        SextantConfig narrow = config("topics.include", "orders", "topics.exclude", "");
        assertTrue(narrow.includesTopic("orders"));
        assertFalse(narrow.includesTopic("orders-v2"));
    }

    @Test
    void passThroughConfigsHaveThePrefixStripped() {
        SextantConfig c = config(
                "source.security.protocol", "SASL_SSL", "source.sasl.mechanism", "PLAIN",
                "destination.request.timeout.ms", "5000",
                "streams.num.stream.threads", "4", "streams.processing.guarantee", "exactly_once_v2",
                "source.alias", "east");
        assertEquals(Map.of("bootstrap.servers", "127.0.0.1:9092", "security.protocol", "SASL_SSL",
                "sasl.mechanism", "PLAIN"), c.sourceClientConfig());
        assertEquals(Map.of("bootstrap.servers", "127.0.0.1:9093", "request.timeout.ms", "5000"),
                c.destinationClientConfig());
        assertEquals(Map.of("num.stream.threads", "4", "processing.guarantee", "exactly_once_v2"),
                c.streamsOverrides());
        assertThrows(UnsupportedOperationException.class, () -> c.streamsOverrides().put("x", "y"));
    }

    @Test
    void bootstrapServersMayBeAList() {
        SextantConfig c = new SextantConfig(Map.of(
                "source.bootstrap.servers", List.of("a:9092", "b:9092"),
                "destination.bootstrap.servers", "c:9093, d:9093"));
        assertEquals(List.of("a:9092", "b:9092"), c.sourceClientConfig().get("bootstrap.servers"));
        assertEquals("c:9093, d:9093", c.destinationClientConfig().get("bootstrap.servers"));
    }

    @Test
    void advertisedAddressDefaultsToTheListenAddress() {
        assertEquals(new HostAndPort("10.1.2.3", 9000), config("query.listen", "10.1.2.3:9000").queryAdvertised());
        HostAndPort derived = config("query.listen", "0.0.0.0:9000").queryAdvertised();
        assertEquals(9000, derived.port());
        assertNotEquals("0.0.0.0", derived.host());
        assertFalse(derived.host().isBlank());
        assertEquals(9000, config("query.listen", "[::]:9000", "query.advertised", "").queryAdvertised().port());
    }

    @Test
    void toStringHidesSecrets() {
        SextantConfig c = config("source.sasl.jaas.config", "... password=\"hunter2\";",
                "destination.ssl.truststore.password", "hunter2");
        assertFalse(c.toString().contains("hunter2"), c.toString());
        assertContains(c.toString(), "source.bootstrap.servers=127.0.0.1:9092");
    }
}
