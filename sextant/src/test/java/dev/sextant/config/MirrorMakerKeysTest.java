package dev.sextant.config;

import static dev.sextant.config.TestConfigs.assertContains;
import static dev.sextant.config.TestConfigs.config;
import static dev.sextant.config.TestConfigs.minimal;
import static dev.sextant.config.TestConfigs.refused;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** MirrorMaker 2's keys, written by habit in Sextant's configuration, are each answered with Sextant's. */
class MirrorMakerKeysTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "groups | orders.*, payments | groups.include | use 'groups.include=orders.*, payments' instead",
            "topics | orders, payments | topics.include | use 'topics.include=orders, payments' instead",
            "groups.blacklist | test.* | groups.exclude | use 'groups.exclude=test.*' instead",
            "topics.blacklist | test.* | topics.exclude | use 'topics.exclude=test.*' instead",
            "sync.group.offsets.enabled | true | sync.consumer.groups | on by default",
            "sync.group.offsets.interval.seconds | 60 | sync.interval.ms | in milliseconds",
            "emit.checkpoints.interval.seconds | 60 | emit.checkpoints.enabled | at no interval of its own",
            "replication.factor | 3 | streams.replication.factor | 'dlq.topic.replication.factor=3'",
            "replication.policy.class | org.apache.kafka.connect.mirror.IdentityReplicationPolicy "
                    + "| replication.policy | use 'replication.policy=org.apache.kafka.connect.mirror."
                    + "IdentityReplicationPolicy' instead",
            "source.cluster.alias | east | source.alias | use 'source.alias=east' instead",
            "target.cluster.alias | west | destination.alias | use 'destination.alias=west' instead",
            "source.cluster.bootstrap.servers | east:9092 | source.bootstrap.servers | "
                    + "use 'source.bootstrap.servers=east:9092' instead",
            "target.cluster.security.protocol | SSL | destination.security.protocol | "
                    + "use 'destination.security.protocol=SSL' instead",
            "tasks.max | 4 | streams.num.stream.threads | Kafka Streams threads",
            "group.filter.class | com.example.Filter | groups.include | 'groups.exclude'",
            "offset-syncs.topic.location | target | offset.syncs.topic | offset-syncs.topic.location=source",
            "emit.offset-syncs.enabled | false | translation | translation=identity",
            "checkpoints.topic.replication.factor | 3 | emit.checkpoints.enabled | create the topic beforehand",
    })
    void aMirrorMakerKeyNamesSextantsKey(String key, String value, String instead, String fix) {
        InvalidConfigurationException e = refused(key, key, value);
        assertContains(e.getMessage(), "'" + key + "' is MirrorMaker 2's key, not Sextant's; Sextant's is '"
                + instead + "'");
        assertContains(e.getMessage(), fix);
        assertEquals(value, e.value());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "refresh.groups.enabled | true | synced from its first commit",
            "refresh.groups.interval.seconds | 600 | synced from its first commit",
            "refresh.topics.enabled | true | synced from its first offset sync",
            "refresh.topics.interval.seconds | 600 | synced from its first offset sync",
            "emit.heartbeats.enabled | true | writes no heartbeats",
            "heartbeats.topic.replication.factor | 3 | writes no heartbeats",
            "offset-syncs.topic.replication.factor | 3 | creates none",
            "sync.topic.acls.enabled | false | keep it in MirrorMaker 2's configuration",
            "offset.lag.max | 100 | keep it in MirrorMaker 2's configuration",
            "offset.storage.replication.factor | 3 | Kafka Connect's internal topics",
            "dedicated.mode.enable.internal.rest | false | Kafka Connect's worker",
    })
    void aMirrorMakerKeySextantDoesNotNeedSaysWhy(String key, String value, String why) {
        InvalidConfigurationException e = refused(key, key, value);
        assertContains(e.getMessage(), "'" + key + "' is MirrorMaker 2's key, not Sextant's: not needed: ");
        assertContains(e.getMessage(), why);
        assertContains(e.getMessage(), "Fix: remove it.");
    }

    @Test
    void clustersIsAnsweredWithTheTwoAliases() {
        InvalidConfigurationException e = refused("clusters", "clusters", "east, west");
        assertContains(e.getMessage(), "'clusters' is MirrorMaker 2's key, not Sextant's: Sextant syncs one flow "
                + "between two clusters, named by source.alias and destination.alias");
        assertContains(e.getMessage(), "Fix: set 'source.alias' and 'destination.alias' to the flow's two aliases "
                + "(east, west), and remove it.");
    }

    @ParameterizedTest
    @CsvSource({"security.protocol, SSL", "bootstrap.servers, a:9092", "acks, all"})
    void aTopLevelClientSettingGoesUnderEachClustersPrefix(String key, String value) {
        InvalidConfigurationException e = refused(key, key, value);
        assertContains(e.getMessage(), "MirrorMaker 2 gives a top-level client setting to every cluster");
        assertContains(e.getMessage(), "Fix: use 'source." + key + "=" + value + "' and/or 'destination." + key + "="
                + value + "' instead.");
    }

    /** The trap of the issue: MirrorMaker 2's groups was answered with the boolean sync.consumer.groups. */
    @Test
    void groupsIsAnsweredWithGroupsIncludeNotABoolean() {
        InvalidConfigurationException e = refused("groups", "groups", "orders-.*");
        assertFalse(e.getMessage().contains("sync.consumer.groups"), e.getMessage());
        assertContains(e.getMessage(), "Fix: use 'groups.include=orders-.*' instead.");
    }

    @Test
    void aClustersKeysGoUnderTheSourceOrDestinationPrefixByItsAlias() {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class, () -> config(
                "source.alias", "east", "destination.alias", "west", "east.bootstrap.servers", "e:9092",
                "west.security.protocol", "SSL", "east.consumer.max.poll.records", "10"));
        assertEquals(3, e.problems().size(), e.getMessage());
        assertContains(e.getMessage(), "'east.bootstrap.servers' is MirrorMaker 2's key, not Sextant's; Sextant's is "
                + "'source.bootstrap.servers'");
        assertContains(e.getMessage(), "use 'source.bootstrap.servers=e:9092' instead");
        assertContains(e.getMessage(), "use 'destination.security.protocol=SSL' instead");
        assertContains(e.getMessage(), "use 'source.max.poll.records=10' instead");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "east.sasl.jaas.config | source.sasl.jaas.config",
            "target.cluster.ssl.keystore.password | destination.ssl.keystore.password",
            "sasl.jaas.config | source.sasl.jaas.config"})
    void aSecretsValueIsNotShownInTheFix(String key, String instead) {
        String secret = "ScramLoginModule required username=\"u\" password=\"s3cret\";";
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> config("source.alias", "east", key, secret));
        assertContains(e.getMessage(), "'" + instead + "=[hidden]'");
        assertFalse(e.getMessage().contains("s3cret"), e.getMessage());
        assertEquals("[hidden]", e.value());
    }

    @Test
    void aClusterNamedOnlyByClustersMayBeEither() {
        InvalidConfigurationException e = refused("A.bootstrap.servers", "A.bootstrap.servers", "a:9092");
        assertContains(e.getMessage(), "'source.bootstrap.servers=a:9092' or 'destination.bootstrap.servers=a:9092', "
                + "whichever cluster 'A' is");
        e = assertThrows(InvalidConfigurationException.class, () -> config("clusters", "A, B",
                "B.ssl.truststore.location", "/ca.crt"));
        InvalidConfigurationException b = e.problems().stream().filter(p -> p.key().startsWith("B.")).findFirst()
                .orElseThrow();
        assertContains(b.getMessage(), "'destination.ssl.truststore.location=/ca.crt', whichever cluster 'B' is");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "A->B.enabled | true | not needed: one Sextant syncs one flow",
            "A->B.groups | orders.* | use 'groups.include=orders.*' instead, and set 'source.alias=A' and "
                    + "'destination.alias=B'",
            "A->B.sync.group.offsets.enabled | true | Sextant's is 'sync.consumer.groups'",
            "A->B.emit.checkpoints.enabled | true | use 'emit.checkpoints.enabled=true' instead",
            "A->B.topics.exclude | test.* | use 'topics.exclude=test.*' instead",
    })
    void aFlowKeyIsAnsweredWithTheKeyWithoutTheFlow(String key, String value, String expected) {
        InvalidConfigurationException e = refused(key, key, value);
        assertContains(e.getMessage(), "'" + key + "' is MirrorMaker 2's key, not Sextant's");
        assertContains(e.getMessage(), "source.alias=A, destination.alias=B");
        assertContains(e.getMessage(), expected);
    }

    /** Kafka's own example, config/connect-mirror-maker.properties: every line gets an answer, none goes unknown. */
    @Test
    void kafkasMirrorMakerExampleIsAnsweredLineByLine() throws IOException {
        Properties mm2 = new Properties();
        mm2.load(new StringReader("""
                clusters = A, B
                A.bootstrap.servers = A_host1:9092, A_host2:9092, A_host3:9092
                B.bootstrap.servers = B_host1:9092, B_host2:9092, B_host3:9092
                A->B.enabled = true
                A->B.topics = .*
                B->A.enabled = true
                B->A.topics = .*
                replication.factor=1
                checkpoints.topic.replication.factor=1
                heartbeats.topic.replication.factor=1
                offset-syncs.topic.replication.factor=1
                offset.storage.replication.factor=1
                status.storage.replication.factor=1
                config.storage.replication.factor=1
                """));
        Map<String, Object> props = new TreeMap<>();
        mm2.stringPropertyNames().forEach(k -> props.put(k, mm2.getProperty(k)));
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> new SextantConfig(props));
        List<String> keys = e.problems().stream().map(InvalidConfigurationException::key).toList();
        assertTrue(keys.containsAll(props.keySet()), keys.toString());
        assertTrue(keys.containsAll(List.of("source.bootstrap.servers", "destination.bootstrap.servers")),
                keys.toString());
        assertEquals(props.size() + 2, e.problems().size(), e.getMessage());
        for (InvalidConfigurationException problem : e.problems()) {
            if (props.containsKey(problem.key())) {
                assertContains(problem.getMessage(), "is MirrorMaker 2's key, not Sextant's");
            }
        }
    }

    /** MirrorMaker 2's keys that Sextant shares mean the same, and stay valid. */
    @Test
    void sharedKeysStayValid() {
        assertDoesNotThrow(() -> config("groups.exclude", "test-.*", "topics.exclude", ".*\\.internal",
                "emit.checkpoints.enabled", "true", "replication.policy.separator", "_",
                "replication.policy.internal.topic.separator.enabled", "false"));
        assertDoesNotThrow(() -> new SextantConfig(minimal("source.alias", "east", "destination.alias", "west")));
    }
}
