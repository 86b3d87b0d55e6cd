package dev.sextant.query;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Whether a request may be answered: with {@code query.auth.token} set, only with {@code Authorization: Bearer
 * <token>}, except on the open paths (probes, scrapers) and the status page's own files, which hold no data (the
 * page sends the token on its API calls, taken from the URL fragment, which browsers never send to a server).
 *
 * <p>The comparison takes the same time whatever the token sent, so its timing tells nothing about the token.
 */
final class BearerTokenCheck {

    static final String SCHEME = "Bearer ";

    private final byte[] token;
    private final Set<String> openPaths;

    BearerTokenCheck(Optional<String> token, List<String> openPaths) {
        this.token = token.map(t -> t.getBytes(StandardCharsets.UTF_8)).orElse(null);
        this.openPaths = Set.copyOf(openPaths);
    }

    /** True when a token is required at all. */
    boolean enabled() {
        return token != null;
    }

    /** @param rawPath the path as received; {@code authorization} the header's value, or null */
    boolean allows(String rawPath, String authorization) {
        if (token == null || openPaths.contains(rawPath) || StatusPage.isPageFile(rawPath)) {
            return true;
        }
        if (authorization == null || !authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            return false;
        }
        byte[] sent = authorization.substring(SCHEME.length()).trim().getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(sent, token);
    }
}
