package dev.sextant.query;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The parameters of a query string ({@code a=1&b=x}), decoded with {@link URLDecoder}, and typed accessors that
 * answer 400 with a message naming the parameter when a value is missing or malformed.
 */
public final class QueryParams {

    private final Map<String, String> values;

    private QueryParams(Map<String, String> values) {
        this.values = values;
    }

    /** Parses a raw (still percent-encoded) query string; null or empty gives no parameters. */
    public static QueryParams parse(String rawQuery) {
        Map<String, String> values = new LinkedHashMap<>();
        if (rawQuery != null && !rawQuery.isEmpty()) {
            for (String pair : rawQuery.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String name = decode(eq < 0 ? pair : pair.substring(0, eq));
                String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
                if (values.putIfAbsent(name, value) != null) {
                    throw QueryException.badRequest("parameter '" + name + "' is given more than once");
                }
            }
        }
        return new QueryParams(Collections.unmodifiableMap(values));
    }

    private static String decode(String raw) {
        try {
            return URLDecoder.decode(raw, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw QueryException.badRequest("malformed query string: " + e.getMessage());
        }
    }

    /** The value, or empty when the parameter is absent or empty. */
    public Optional<String> optional(String name) {
        String value = values.get(name);
        return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
    }

    public String required(String name) {
        return optional(name).orElseThrow(() -> QueryException.badRequest("missing parameter '" + name + "'"));
    }

    /** A required integer {@code >= 0}. */
    public int requiredNonNegativeInt(String name) {
        long value = requiredNonNegativeLong(name);
        if (value > Integer.MAX_VALUE) {
            throw QueryException.badRequest("parameter '" + name + "' must be a non-negative integer up to "
                    + Integer.MAX_VALUE + ", got '" + values.get(name) + "'");
        }
        return (int) value;
    }

    /** A required long {@code >= 0}. */
    public long requiredNonNegativeLong(String name) {
        return nonNegative(name, required(name));
    }

    /** An optional integer in {@code [min, max]}, or {@code fallback} when absent. */
    public int optionalInt(String name, int min, int max, int fallback) {
        Optional<String> raw = optional(name);
        if (raw.isEmpty()) {
            return fallback;
        }
        long value;
        try {
            value = Long.parseLong(raw.get());
        } catch (NumberFormatException e) {
            value = Long.MIN_VALUE;
        }
        if (value < min || value > max) {
            throw QueryException.badRequest("parameter '" + name + "' must be an integer from " + min + " to " + max
                    + ", got '" + raw.get() + "'");
        }
        return (int) value;
    }

    private static long nonNegative(String name, String raw) {
        try {
            long value = Long.parseLong(raw);
            if (value >= 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // fall through to the message
        }
        throw QueryException.badRequest("parameter '" + name + "' must be a non-negative integer, got '" + raw + "'");
    }
}
