package dev.sextant.config;

import java.util.List;

/** How a source offset becomes a destination offset ({@code translation}). */
public enum Translation implements ConfigEnum {
    /** Look the offset up in MirrorMaker 2's offset-syncs topic (the default). */
    OFFSET_SYNCS("offset-syncs"),
    /** The mirror preserves offsets (Cluster Linking, Kafka Cluster Mirroring): destination offset = source offset. */
    IDENTITY("identity");

    private final String configValue;

    Translation(String configValue) {
        this.configValue = configValue;
    }

    /** The value as written in the configuration, e.g. {@code offset-syncs}. */
    @Override
    public String configValue() {
        return configValue;
    }

    /** Parses a configuration value, ignoring case. */
    public static Translation fromConfigValue(String value) {
        return ConfigEnum.parse(Translation.class, "translation", value);
    }

    /** Every accepted configuration value, in declaration order. */
    public static List<String> configValues() {
        return ConfigEnum.configValues(Translation.class);
    }

    @Override
    public String toString() {
        return configValue;
    }
}
