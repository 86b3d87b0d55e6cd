package dev.sextant.config;

import static dev.sextant.config.TestConfigs.assertContains;
import static dev.sextant.config.TestConfigs.config;
import static dev.sextant.config.TestConfigs.refused;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.apache.kafka.connect.mirror.DefaultReplicationPolicy;
import org.apache.kafka.connect.mirror.IdentityReplicationPolicy;
import org.junit.jupiter.api.Test;

/** The replication policy a configuration names, and the offset-syncs topic derived from it. */
class ReplicationPoliciesTest {

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
    void derivedOffsetSyncsTopicMustBeValid() {
        InvalidConfigurationException e = refused("offset.syncs.topic", "destination.alias", "dest/west");
        assertContains(e.getMessage(), "destination.alias=dest/west");
        assertDoesNotThrow(() -> config("destination.alias", "dest/west", "offset.syncs.topic", "syncs"));
    }

    @Test
    void unknownReplicationPolicyClass() {
        InvalidConfigurationException e = refused("replication.policy", "replication.policy", "com.example.Nope");
        assertContains(e.getMessage(), "no class of that name can be loaded");
        assertContains(e.getMessage(), "default, identity, or the name of a class implementing");
    }

    @Test
    void misspeltReplicationPolicyKeyword() {
        InvalidConfigurationException e = refused("replication.policy", "replication.policy", "identiy");
        assertContains(e.getMessage(), "did you mean 'identity'?");
    }

    @Test
    void replicationPolicyClassMustImplementTheInterface() {
        InvalidConfigurationException e = refused("replication.policy", "replication.policy",
                RecordingReplicationPolicy.NotAPolicy.class.getName());
        assertContains(e.getMessage(), "does not implement org.apache.kafka.connect.mirror.ReplicationPolicy");
        e = refused("replication.policy", "replication.policy", "java.lang.String");
        assertContains(e.getMessage(), "does not implement");
    }

    @Test
    void replicationPolicyClassMustBeInstantiable() {
        InvalidConfigurationException e = refused("replication.policy", "replication.policy",
                "org.apache.kafka.connect.mirror.ReplicationPolicy");
        assertContains(e.getMessage(), "abstract");
        e = refused("replication.policy", "replication.policy",
                RecordingReplicationPolicy.NoDefaultConstructor.class.getName());
        assertContains(e.getMessage(), "no public no-argument constructor");
        e = refused("replication.policy", "replication.policy",
                RecordingReplicationPolicy.FailingPolicy.class.getName());
        assertContains(e.getMessage(), "boom");
    }
}
