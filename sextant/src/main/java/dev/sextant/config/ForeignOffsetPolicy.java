package dev.sextant.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What Sextant does with a destination offset it did not write ({@code sync.foreign.offsets}): MirrorMaker 2's own
 * group sync, a consumer that ran on the destination, another tool.
 */
public enum ForeignOffsetPolicy {
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

    public String configValue() {
        return configValue;
    }

    /** Parses a configuration value, ignoring case. */
    public static ForeignOffsetPolicy fromConfigValue(String value) {
        for (ForeignOffsetPolicy p : values()) {
            if (p.configValue.equals(value.trim().toLowerCase(Locale.ROOT))) {
                return p;
            }
        }
        throw new IllegalArgumentException("Unknown foreign offset policy '" + value + "'; expected one of "
                + configValues());
    }

    public static List<String> configValues() {
        return Arrays.stream(values()).map(ForeignOffsetPolicy::configValue).toList();
    }

    @Override
    public String toString() {
        return configValue;
    }
}
