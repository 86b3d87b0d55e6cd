package dev.sextant.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Whether a commit between two offset syncs with equal deltas translates exactly, by interpolation
 * ({@code translation.interpolation}; only with {@code translation=offset-syncs}).
 */
public enum Interpolation {
    /** Only once the records of the interval were read on both clusters and found copied one for one. */
    VERIFIED("verified"),
    /**
     * On equal deltas alone, without reading records: a skipped record and a duplicate inside one interval (a
     * transaction marker and a MirrorMaker 2 restart) can then make a consumer skip a record.
     */
    UNVERIFIED("unverified"),
    /** Never: MirrorMaker 2's rule, the newest sync at or below the commit plus one. */
    OFF("off");

    private final String configValue;

    Interpolation(String configValue) {
        this.configValue = configValue;
    }

    /** The value as written in the configuration. */
    public String configValue() {
        return configValue;
    }

    /** Parses a configuration value, ignoring case. */
    public static Interpolation fromConfigValue(String value) {
        for (Interpolation i : values()) {
            if (i.configValue.equals(value.trim().toLowerCase(Locale.ROOT))) {
                return i;
            }
        }
        throw new IllegalArgumentException("Unknown interpolation '" + value + "'; expected one of " + configValues());
    }

    /** Every accepted configuration value, in declaration order. */
    public static List<String> configValues() {
        return Arrays.stream(values()).map(Interpolation::configValue).toList();
    }

    @Override
    public String toString() {
        return configValue;
    }
}
