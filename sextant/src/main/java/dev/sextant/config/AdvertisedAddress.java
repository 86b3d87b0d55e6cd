package dev.sextant.config;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The address other instances reach this one's HTTP API at ({@code query.advertised}): as configured, or derived
 * from {@code query.listen} with a wildcard host (0.0.0.0, ::) replaced by the local host name.
 *
 * <p>Invariants: the local host name is looked up on the first {@link #get()}, not when the configuration loads, so
 * only what advertises the API waits on the lookup; once a call has returned, every later call returns the same
 * address. An address derived from listen port 0 keeps port 0: only the bound server knows the real one.
 */
final class AdvertisedAddress {

    private final HostAndPort listen;
    private volatile HostAndPort advertised;

    /**
     * @param listen     {@code query.listen}
     * @param configured {@code query.advertised}, or null to derive it from {@code listen}
     */
    AdvertisedAddress(HostAndPort listen, HostAndPort configured) {
        this.listen = listen;
        this.advertised = configured;
    }

    /** The advertised address. Two first calls that race may both look the name up; either result is kept. */
    HostAndPort get() {
        HostAndPort address = advertised;
        if (address == null) {
            address = listen.isWildcard() ? listen.withHost(localHostName()) : listen;
            advertised = address;
        }
        return address;
    }

    /** The local host name, or {@code localhost} when it cannot be resolved. */
    private static String localHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
