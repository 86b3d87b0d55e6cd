package dev.sextant.config;

import java.util.List;

/** What Sextant does when a source group moves backwards, e.g. after an offset reset ({@code sync.rewind}). */
public enum RewindPolicy implements ConfigEnum {
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
    @Override
    public String configValue() {
        return configValue;
    }

    /** Parses a configuration value, ignoring case. */
    public static RewindPolicy fromConfigValue(String value) {
        return ConfigEnum.parse(RewindPolicy.class, "rewind policy", value);
    }

    /** Every accepted configuration value, in declaration order. */
    public static List<String> configValues() {
        return ConfigEnum.configValues(RewindPolicy.class);
    }

    @Override
    public String toString() {
        return configValue;
    }
}
