package dev.sextant.config;

import static dev.sextant.config.TestConfigs.assertContains;
import static dev.sextant.config.TestConfigs.config;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SecretMaskingTest {

    @Test
    void toStringHidesSecrets() {
        SextantConfig c = config("source.sasl.jaas.config", "... password=\"hunter2\";",
                "destination.ssl.truststore.password", "hunter2");
        assertFalse(c.toString().contains("hunter2"), c.toString());
        assertContains(c.toString(), "source.bootstrap.servers=127.0.0.1:9092");
    }

    @ParameterizedTest
    @ValueSource(strings = {"source.sasl.jaas.config", "destination.ssl.keystore.password", "query.auth.token",
            "source.ssl.key", "source.sasl.oauthbearer.client.credentials.client.secret", "query.tls.key.password"})
    void secretsAreKnownByName(String key) {
        assertTrue(SecretMasking.isSecret(key), key);
    }

    @ParameterizedTest
    @ValueSource(strings = {"source.bootstrap.servers", "query.tls.keystore.location", "sync.interval.ms",
            "source.ssl.key.type"})
    void otherKeysAreNot(String key) {
        assertFalse(SecretMasking.isSecret(key), key);
    }

    @Test
    void describeSortsAndJoinsValues() {
        assertEquals("X{a=1, b=x,y, query.auth.token=[hidden]}",
                SecretMasking.describe("X", Map.of("b", List.of("x", "y"), "query.auth.token", "t0ken", "a", 1)));
    }
}
