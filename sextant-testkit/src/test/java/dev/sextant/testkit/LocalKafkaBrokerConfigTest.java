package dev.sextant.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.security.ssl.SslPrincipalMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalKafkaBrokerConfigTest {

    private final Map<String, String> config =
            BrokerProperties.serverProperties(19092, 19093, Path.of("/tmp/b/data"), 5);

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
    void plainBrokerHasNoSecurityAtAll() {
        assertEquals("PLAINTEXT", config.get("inter.broker.listener.name"));
        assertEquals("CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT", config.get("listener.security.protocol.map"));
        assertTrue(config.keySet().stream().noneMatch(key -> key.startsWith("ssl.") || key.startsWith("sasl.")
                || key.contains("authorizer") || key.equals("super.users")), config.toString());
        assertEquals(List.of(), BrokerSecurity.plaintext().formatArguments());
    }

    @Test
    void scramBrokerHasNoPlaintextListenerAndAuthorizesWithAcls(@TempDir Path tls) {
        BrokerSecurity security = BrokerSecurity.scram(tls, Map.of("alice", "alice-secret"));
        Map<String, String> p = BrokerProperties.serverProperties(19092, 19093, Path.of("/tmp/b/data"), 5, security);

        assertEquals("SASL_SSL://127.0.0.1:19092,CONTROLLER://127.0.0.1:19093", p.get("listeners"));
        assertEquals("CONTROLLER:SSL,SASL_SSL:SASL_SSL", p.get("listener.security.protocol.map"));
        assertEquals("SASL_SSL", p.get("inter.broker.listener.name"));
        assertEquals("SCRAM-SHA-512", p.get("sasl.enabled.mechanisms"));
        assertEquals("SCRAM-SHA-512", p.get("sasl.mechanism.inter.broker.protocol"));
        // the controller listener wants the broker's certificate; SASL_SSL clients are not asked for one
        assertEquals("required", p.get("listener.name.controller.ssl.client.auth"));
        assertFalse(p.containsKey("ssl.client.auth"));
        assertTrue(p.get("listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config")
                .contains("username=\"kafka-broker\""));
        assertSecuredWithAcls(p);

        List<String> format = security.formatArguments();
        assertEquals(6, format.size(), format.toString()); // the broker, the admin, alice
        assertTrue(format.contains("SCRAM-SHA-512=[name=alice,password=alice-secret]"), format.toString());
        assertTrue(format.stream().anyMatch(arg -> arg.startsWith("SCRAM-SHA-512=[name=admin,password=")));
    }

    @Test
    void scramClientPropertiesNameTheUserAndTrustTheBrokersCa(@TempDir Path tls) {
        BrokerSecurity security = BrokerSecurity.scram(tls, Map.of("alice", "alice-secret"));

        Map<String, Object> alice = security.clientProperties("alice");
        assertEquals("SASL_SSL", alice.get("security.protocol"));
        assertEquals("SCRAM-SHA-512", alice.get("sasl.mechanism"));
        assertEquals("org.apache.kafka.common.security.scram.ScramLoginModule required username=\"alice\" "
                + "password=\"alice-secret\";", alice.get("sasl.jaas.config"));
        assertTrue(Files.exists(Path.of((String) alice.get("ssl.truststore.location"))));
        assertTrue(((String) security.adminClientProperties().get("sasl.jaas.config")).contains("username=\"admin\""));
        assertTrue(((String) security.scramClientProperties("alice", "wrong").get("sasl.jaas.config"))
                .contains("password=\"wrong\""));
        assertThrows(IllegalArgumentException.class, () -> security.clientProperties("bob"));
    }

    @Test
    void mutualTlsBrokerWantsCertificatesEverywhereAndMapsTheirCn(@TempDir Path tls) throws Exception {
        BrokerSecurity security = BrokerSecurity.mutualTls(tls);
        Map<String, String> p = BrokerProperties.serverProperties(19092, 19093, Path.of("/tmp/b/data"), 5, security);

        assertEquals("SSL://127.0.0.1:19092,CONTROLLER://127.0.0.1:19093", p.get("listeners"));
        assertEquals("CONTROLLER:SSL,SSL:SSL", p.get("listener.security.protocol.map"));
        assertEquals("SSL", p.get("inter.broker.listener.name"));
        assertEquals("required", p.get("ssl.client.auth"));
        assertFalse(p.containsKey("sasl.enabled.mechanisms"));
        assertSecuredWithAcls(p);
        SslPrincipalMapper mapper = SslPrincipalMapper.fromRules(p.get("ssl.principal.mapping.rules"));
        assertEquals("sextant", mapper.getName("CN=sextant"));
        assertEquals("sextant", mapper.getName("CN=sextant,OU=tests,O=example"));
        assertEquals(List.of(), security.formatArguments());

        Map<String, Object> client = security.clientProperties("sextant");
        assertEquals("SSL", client.get("security.protocol"));
        assertEquals("PEM", client.get("ssl.keystore.type"));
        assertEquals(security.certificates().orElseThrow().client("sextant").pem().toString(),
                client.get("ssl.keystore.location"));
        assertEquals("CN=sextant", security.certificates().orElseThrow().client("sextant").certificate()
                .getSubjectX500Principal().getName());
        assertThrows(IllegalStateException.class, () -> security.scramClientProperties("sextant", "x"));
    }

    @Test
    void builderRejectsScramUsersItCannotOrMustNotCreate() {
        LocalKafkaBroker.Builder builder = LocalKafkaBroker.builder("source");
        assertThrows(IllegalArgumentException.class, () -> builder.scramUser("admin", "x"));
        assertThrows(IllegalArgumentException.class, () -> builder.scramUser("kafka-broker", "x"));
        assertThrows(IllegalArgumentException.class, () -> builder.scramUser("alice", "a,b]"));
        // a user without SCRAM: refused before anything starts
        assertThrows(IllegalStateException.class, () -> LocalKafkaBroker.builder("destination").mutualTls()
                .scramUser("alice", "alice-secret").start());
        assertThrows(IllegalStateException.class, () -> LocalClusters.builder().scramUser("alice", "s").start());
    }

    private static void assertSecuredWithAcls(Map<String, String> p) {
        assertFalse(p.get("listener.security.protocol.map").contains("PLAINTEXT"), p.toString());
        assertEquals("org.apache.kafka.metadata.authorizer.StandardAuthorizer", p.get("authorizer.class.name"));
        assertEquals("false", p.get("allow.everyone.if.no.acl.found"));
        assertEquals("User:kafka-broker;User:admin", p.get("super.users"));
        // PEM files: no password to derive keys from at every load
        assertEquals("PEM", p.get("ssl.keystore.type"));
        assertEquals("PEM", p.get("ssl.truststore.type"));
        assertFalse(p.containsKey("ssl.keystore.password") || p.containsKey("ssl.truststore.password"));
        assertTrue(Files.exists(Path.of(p.get("ssl.keystore.location"))));
        assertTrue(Files.exists(Path.of(p.get("ssl.truststore.location"))));
    }

    @Test
    void builderRejectsNamesThatAreNotFileNames() {
        assertThrows(IllegalArgumentException.class, () -> LocalKafkaBroker.builder("../evil"));
        assertThrows(IllegalArgumentException.class,
                () -> LocalKafkaBroker.builder("source").offsetsTopicPartitions(0));
    }
}
