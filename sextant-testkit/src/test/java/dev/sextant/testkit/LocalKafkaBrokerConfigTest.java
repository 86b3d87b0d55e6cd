package dev.sextant.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LocalKafkaBrokerConfigTest {

    private final Map<String, String> config =
            LocalKafkaBroker.serverProperties(19092, 19093, Path.of("/tmp/b/data"), 5);

    @Test
    void combinedNodeListensOnLoopbackOnly() {
        assertEquals("broker,controller", config.get("process.roles"));
        assertEquals("PLAINTEXT://127.0.0.1:19092,CONTROLLER://127.0.0.1:19093", config.get("listeners"));
        assertEquals(config.get("listeners"), config.get("advertised.listeners"));
        assertEquals("127.0.0.1:19093", config.get("controller.quorum.bootstrap.servers"));
        // --standalone formatting requires a dynamic quorum, i.e. no static voters
        assertFalse(config.containsKey("controller.quorum.voters"));
        assertEquals("/tmp/b/data", config.get("log.dirs"));
    }

    @Test
    void everyInternalTopicHasReplicationFactorOne() {
        assertEquals("1", config.get("offsets.topic.replication.factor"));
        assertEquals("1", config.get("transaction.state.log.replication.factor"));
        assertEquals("1", config.get("transaction.state.log.min.isr"));
        assertEquals("1", config.get("share.coordinator.state.topic.replication.factor"));
        assertEquals("1", config.get("share.coordinator.state.topic.min.isr"));
        assertEquals("3", config.get("share.coordinator.state.topic.num.partitions"));
    }

    @Test
    void offsetsTopicPartitionsAreConfigurableAndTopicsAreNeverAutoCreated() {
        assertEquals("5", config.get("offsets.topic.num.partitions"));
        assertEquals("false", config.get("auto.create.topics.enable"));
        assertEquals("0", config.get("group.initial.rebalance.delay.ms"));
    }

    @Test
    void builderRejectsNamesThatAreNotFileNames() {
        assertThrows(IllegalArgumentException.class, () -> LocalKafkaBroker.builder("../evil"));
        assertThrows(IllegalArgumentException.class, () -> LocalKafkaBroker.builder("source").offsetsTopicPartitions(0));
    }
}
