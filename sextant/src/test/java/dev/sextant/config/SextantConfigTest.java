package dev.sextant.config;

import static dev.sextant.config.TestConfigs.config;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.mirror.DefaultReplicationPolicy;
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
}
