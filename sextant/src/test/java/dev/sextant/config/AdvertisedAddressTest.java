package dev.sextant.config;

import static dev.sextant.config.TestConfigs.config;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class AdvertisedAddressTest {

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
    void theDerivedAddressIsKept() {
        AdvertisedAddress address = new AdvertisedAddress(new HostAndPort("0.0.0.0", 0), null);
        HostAndPort first = address.get();
        assertEquals(0, first.port(), "the server knows the bound port, not the configuration");
        assertSame(first, address.get());
    }

    @Test
    void aConfiguredAddressIsKeptAsIs() {
        HostAndPort configured = new HostAndPort("sextant-0.internal", 8081);
        assertSame(configured, new AdvertisedAddress(new HostAndPort("0.0.0.0", 8080), configured).get());
    }
}
