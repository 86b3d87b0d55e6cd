package dev.sextant.config;

import java.util.List;

/**
 * What Sextant does with a destination offset it did not write ({@code sync.foreign.offsets}): MirrorMaker 2's own
 * group sync, a consumer that ran on the destination, another tool.
 */
public enum ForeignOffsetPolicy implements ConfigEnum {
    /** Leave the group alone and dead-letter it as {@code DESTINATION_DIVERGED} (the default). */
    REFUSE("refuse"),
    /**
     * Take the group over when it has no members on the destination and every new translation is at or above the
     * offset there: moving forward never delivers again what the source group already processed.
     */
    ADOPT_FORWARD("adopt-forward");

    private final String configValue;

    ForeignOffsetPolicy(String configValue) {
        this.configValue = configValue;
    }

    @Override
    public String configValue() {
        return configValue;
    }

    /** Parses a configuration value, ignoring case. */
    public static ForeignOffsetPolicy fromConfigValue(String value) {
        return ConfigEnum.parse(ForeignOffsetPolicy.class, "foreign offset policy", value);
    }

    public static List<String> configValues() {
        return ConfigEnum.configValues(ForeignOffsetPolicy.class);
    }

    @Override
    public String toString() {
        return configValue;
    }
}
