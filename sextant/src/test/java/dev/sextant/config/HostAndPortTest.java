package dev.sextant.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HostAndPortTest {

    @Test
    void parses() {
        assertEquals(new HostAndPort("localhost", 8080), HostAndPort.parse("localhost:8080"));
        assertEquals(new HostAndPort("10.0.0.1", 0), HostAndPort.parse(" 10.0.0.1:0 "));
        assertEquals(new HostAndPort("::1", 65535), HostAndPort.parse("[::1]:65535"));
        assertEquals("[::1]:65535", new HostAndPort("::1", 65535).toString());
        assertEquals("a.example:1", HostAndPort.parse("a.example:1").toString());
    }

    @Test
    void wildcard() {
        assertTrue(HostAndPort.parse("0.0.0.0:1").isWildcard());
        assertTrue(HostAndPort.parse("[::]:1").isWildcard());
        assertFalse(HostAndPort.parse("127.0.0.1:1").isWildcard());
        assertEquals(new HostAndPort("h", 5), HostAndPort.parse("0.0.0.0:5").withHost("h"));
        assertEquals(new HostAndPort("h", 7), new HostAndPort("h", 0).withPort(7));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "localhost", ":80", "host:", "host:-1", "host:65536", "a b:80", "::1:80", "host:80:90"})
    void refuses(String text) {
        assertThrows(IllegalArgumentException.class, () -> HostAndPort.parse(text));
    }
}
