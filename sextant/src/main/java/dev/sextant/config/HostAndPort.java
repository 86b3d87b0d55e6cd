package dev.sextant.config;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code host:port} pair as used by {@code query.listen} and {@code query.advertised}. An IPv6 literal is written in
 * brackets ({@code [::1]:8080}); {@link #host()} holds it without the brackets.
 *
 * @param host a host name or IP literal, never empty
 * @param port 0..65535; 0 in a listen address means "pick a free port"
 */
public record HostAndPort(String host, int port) {

    private static final Pattern FORMAT = Pattern.compile("(?:\\[([0-9A-Za-z:.%]+)]|([^\\s:\\[\\]/]+)):(\\d{1,5})");

    public HostAndPort {
        Objects.requireNonNull(host, "host");
        if (host.isBlank()) {
            throw new IllegalArgumentException("host must not be empty");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is outside 0..65535");
        }
    }

    /**
     * Parses {@code host:port} or {@code [ipv6]:port}.
     *
     * @throws IllegalArgumentException with a reason when the text is not of that form or the port is out of range
     */
    public static HostAndPort parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("no value");
        }
        Matcher m = FORMAT.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    "not of the form host:port (an IPv6 address goes in brackets: [::1]:8080)");
        }
        String host = m.group(1) != null ? m.group(1) : m.group(2);
        int port = Integer.parseInt(m.group(3));
        if (port > 65535) {
            throw new IllegalArgumentException("port " + port + " is outside 0..65535");
        }
        return new HostAndPort(host, port);
    }

    /** True for the any-address hosts {@code 0.0.0.0} and {@code ::}, which bind every interface. */
    public boolean isWildcard() {
        return host.equals("0.0.0.0") || host.equals("::") || host.equals("0:0:0:0:0:0:0:0");
    }

    /** The same host with another port, e.g. the port actually bound when the configured one was 0. */
    public HostAndPort withPort(int newPort) {
        return new HostAndPort(host, newPort);
    }

    /** The same port with another host. */
    public HostAndPort withHost(String newHost) {
        return new HostAndPort(newHost, port);
    }

    /** {@code host:port}, with an IPv6 host in brackets; {@link #parse} reads it back. */
    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
