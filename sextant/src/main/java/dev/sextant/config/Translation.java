package dev.sextant.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** How a source offset becomes a destination offset ({@code translation}). */
public enum Translation {
    /** Look the offset up in MirrorMaker 2's offset-syncs topic (the default). */
    OFFSET_SYNCS("offset-syncs"),
    /** The mirror preserves offsets (Cluster Linking, Kafka Cluster Mirroring): destination offset = source offset. */
    IDENTITY("identity");

    private final String configValue;

    Translation(String configValue) {
        this.configValue = configValue;
    }

    /** The value as written in the configuration, e.g. {@code offset-syncs}. */
    public String configValue() {
        return configValue;
    }

    /** Parses a configuration value, ignoring case. */
    public static Translation fromConfigValue(String value) {
        for (Translation t : values()) {
            if (t.configValue.equals(value.trim().toLowerCase(Locale.ROOT))) {
                return t;
            }
        }
        throw new IllegalArgumentException("Unknown translation '" + value + "'; expected one of " + configValues());
    }

    /** Every accepted configuration value, in declaration order. */
    public static List<String> configValues() {
        return Arrays.stream(values()).map(Translation::configValue).toList();
    }

    @Override
    public String toString() {
        return configValue;
    }
}
