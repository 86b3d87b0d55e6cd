package dev.sextant.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** failback-config and the forward Sextant's SEXTANT_* environment (issue 50, item 2). */
class FailbackEnvironmentTest {

    /** The Kubernetes base: the Secret's credentials and the StatefulSet's per-pod values, as variables. */
    private static final Map<String, String> DEPLOYMENT = Map.of(
            "SEXTANT_SOURCE_SECURITY_PROTOCOL", "SASL_SSL",
            "SEXTANT_SOURCE_SASL_MECHANISM", "SCRAM-SHA-512",
            "SEXTANT_SOURCE_SASL_JAAS_CONFIG", "ScramLoginModule required username=\"a\" password=\"pw\";",
            "SEXTANT_DESTINATION_SECURITY_PROTOCOL", "SSL",
            "SEXTANT_QUERY_AUTH_TOKEN", "t0ken",
            "SEXTANT_QUERY_ADVERTISED", "sextant-0.sextant:8080",
            "SEXTANT_STREAMS_GROUP_INSTANCE_ID", "sextant-0",
            "SEXTANT_STATE_DIR", "/var/lib/sextant",
            "SEXTANT_JAVA_OPTS", "-Xmx512m",
            "PATH", "/usr/bin");

    @Test
    void eachVariableIsCarriedSwappedOrNamed() {
        FailbackEnvironment.Carried carried = FailbackEnvironment.of(DEPLOYMENT);
        assertEquals(Map.of("source.security.protocol", "SASL_SSL", "source.sasl.mechanism", "SCRAM-SHA-512",
                "destination.security.protocol", "SSL", "state.dir", "/var/lib/sextant"), carried.keys(),
                "the forward keys, to be swapped as the file's are");
        assertTrue(carried.carried().contains("SEXTANT_SOURCE_SECURITY_PROTOCOL as destination.security.protocol"),
                carried.carried().toString());
        assertTrue(carried.carried().contains("SEXTANT_DESTINATION_SECURITY_PROTOCOL as source.security.protocol"),
                carried.carried().toString());
        List<String> named = carried.notCarried();
        assertEquals(4, named.size(), named.toString());
        assertTrue(named.stream().anyMatch(n -> n.startsWith("SEXTANT_SOURCE_SASL_JAAS_CONFIG: a secret")
                && n.contains("SEXTANT_DESTINATION_SASL_JAAS_CONFIG")), "the variable to set instead: " + named);
        assertTrue(named.stream().anyMatch(n -> n.startsWith("SEXTANT_QUERY_AUTH_TOKEN: a secret")), named.toString());
        assertTrue(named.stream().anyMatch(n -> n.startsWith("SEXTANT_QUERY_ADVERTISED: query.advertised of one "
                + "instance")), named.toString());
        assertTrue(named.stream().anyMatch(n -> n.startsWith("SEXTANT_STREAMS_GROUP_INSTANCE_ID")), named.toString());
        assertFalse(named.toString().contains("pw") || named.toString().contains("t0ken"), "no secret shown");
        assertFalse(named.toString().contains("JAVA_OPTS"), "the launcher's variables set no key");
        assertTrue(carried.any());
        assertFalse(FailbackEnvironment.of(Map.of("PATH", "/usr/bin", "SEXTANT_OPTS", "x")).any());
    }

    @Test
    void theReverseKeyOfAClientSettingIsTheOtherSide() {
        assertEquals("destination.sasl.mechanism", FailbackConfig.reverseKey("source.sasl.mechanism"));
        assertEquals("source.ssl.truststore.location",
                FailbackConfig.reverseKey("destination.ssl.truststore.location"));
        assertEquals("source.num.stream.threads", FailbackConfig.reverseKey("source.num.stream.threads"),
                "Kafka Streams' own stays with the application");
        assertEquals("groups.include", FailbackConfig.reverseKey("groups.include"));
    }

    /** MirrorMaker 2's IdentityReplicationPolicy with offset syncs: no mirror can be told from an own topic. */
    @Test
    void identityNamesWithOffsetSyncsAreRefusedAndWithIdentityTranslationDerived() {
        Map<String, String> base = Map.of("source.bootstrap.servers", "a:9092", "destination.bootstrap.servers",
                "b:9092", "source.alias", "east", "destination.alias", "west", "replication.policy", "identity");
        InvalidConfigurationException refused = assertThrows(
                InvalidConfigurationException.class,
                () -> FailbackConfig.requireDerivable(SextantConfigLoader.load(base, Map.of())));
        assertEquals("replication.policy", refused.key());
        assertTrue(refused.getMessage().contains("IdentityReplicationPolicy")
                && refused.getMessage().contains("translation=identity")
                && refused.getMessage().contains("default replication policy"), refused.getMessage());

        Map<String, String> keepsOffsets = new HashMap<>(base);
        keepsOffsets.put("translation", "identity");
        FailbackConfig.requireDerivable(SextantConfigLoader.load(keepsOffsets, Map.of()));
        Map<String, String> defaultNames = new HashMap<>(base);
        defaultNames.remove("replication.policy");
        FailbackConfig.requireDerivable(SextantConfigLoader.load(defaultNames, Map.of()));
    }
}
