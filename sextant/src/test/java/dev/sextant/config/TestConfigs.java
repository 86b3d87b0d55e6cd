package dev.sextant.config;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Assertions;

final class TestConfigs {

    private TestConfigs() {
    }

    /** The two required keys, plus {@code extra} as alternating key, value. */
    static Map<String, Object> minimal(Object... extra) {
        Map<String, Object> props = new HashMap<>();
        props.put("source.bootstrap.servers", "127.0.0.1:9092");
        props.put("destination.bootstrap.servers", "127.0.0.1:9093");
        for (int i = 0; i < extra.length; i += 2) {
            props.put((String) extra[i], extra[i + 1]);
        }
        return props;
    }

    static SextantConfig config(Object... extra) {
        return new SextantConfig(minimal(extra));
    }

    /** Expects the configuration to be refused for {@code key}, with a message that names it. */
    static InvalidConfigurationException refused(String key, Object... extra) {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class, () -> config(extra));
        assertNamesKey(e, key);
        return e;
    }

    static void assertNamesKey(InvalidConfigurationException e, String key) {
        Assertions.assertEquals(key, e.key(), e.getMessage());
        assertTrue(e.getMessage().contains("'" + key + "'"), () -> "message does not name '" + key + "': "
                + e.getMessage());
    }

    static void assertContains(String text, String expected) {
        assertTrue(text.contains(expected), () -> "expected \"" + expected + "\" in: " + text);
    }
}
