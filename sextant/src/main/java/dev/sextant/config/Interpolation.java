package dev.sextant.config;

import java.util.List;

/**
 * Whether a commit between two offset syncs with equal deltas translates exactly, by interpolation
 * ({@code translation.interpolation}; only with {@code translation=offset-syncs}).
 */
public enum Interpolation implements ConfigEnum {
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
    @Override
    public String configValue() {
        return configValue;
    }

    /** Parses a configuration value, ignoring case. */
    public static Interpolation fromConfigValue(String value) {
        return ConfigEnum.parse(Interpolation.class, "interpolation", value);
    }

    /** Every accepted configuration value, in declaration order. */
    public static List<String> configValues() {
        return ConfigEnum.configValues(Interpolation.class);
    }

    @Override
    public String toString() {
        return configValue;
    }
}
