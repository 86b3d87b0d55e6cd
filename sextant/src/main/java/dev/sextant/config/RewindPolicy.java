package dev.sextant.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** What Sextant does when a source group moves backwards, e.g. after an offset reset ({@code sync.rewind}). */
public enum RewindPolicy {
    /**
     * Follow the source: the destination offset is moved back too, as long as the destination offset is still the
     * one Sextant wrote (the default).
     */
    FOLLOW_SOURCE("follow-source"),
    /** Never move a destination offset backwards. */
    NEVER("never");

    private final String configValue;

    RewindPolicy(String configValue) {
        this.configValue = configValue;
    }

    /** The value as written in the configuration, e.g. {@code follow-source}. */
    public String configValue() {
        return configValue;
    }

    /** Parses a configuration value, ignoring case. */
    public static RewindPolicy fromConfigValue(String value) {
        for (RewindPolicy p : values()) {
            if (p.configValue.equals(value.trim().toLowerCase(Locale.ROOT))) {
                return p;
            }
        }
        throw new IllegalArgumentException("Unknown rewind policy '" + value + "'; expected one of " + configValues());
    }

    /** Every accepted configuration value, in declaration order. */
    public static List<String> configValues() {
        return Arrays.stream(values()).map(RewindPolicy::configValue).toList();
    }

    @Override
    public String toString() {
        return configValue;
    }
}
