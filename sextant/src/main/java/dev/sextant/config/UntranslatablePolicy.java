package dev.sextant.config;

import java.util.List;

/**
 * What Sextant does with a committed offset no offset sync covers while the source still holds records below it
 * (below the partition's oldest sync, above its log start: MirrorMaker 2 coalesced the first syncs, or its
 * offset-syncs topic was compacted before Sextant read it) ({@code sync.untranslatable}). An offset at or below the
 * log start, or on an empty partition, needs no choice: nothing is left to skip, and it is written as the
 * destination's log start either way.
 */
public enum UntranslatablePolicy implements ConfigEnum {
    /** Write nothing for it: reported as {@code UNTRANSLATABLE} everywhere, and {@code failover} is not clean. */
    REFUSE("refuse"),
    /** Write the destination partition's log start: the consumer replays what the mirror holds, skips nothing. */
    EARLIEST("earliest");

    private final String configValue;

    UntranslatablePolicy(String configValue) {
        this.configValue = configValue;
    }

    /** The value as written in the configuration. */
    @Override
    public String configValue() {
        return configValue;
    }

    /** Parses a configuration value, ignoring case. */
    public static UntranslatablePolicy fromConfigValue(String value) {
        return ConfigEnum.parse(UntranslatablePolicy.class, "policy", value);
    }

    /** Every accepted configuration value, in declaration order. */
    public static List<String> configValues() {
        return ConfigEnum.configValues(UntranslatablePolicy.class);
    }

    @Override
    public String toString() {
        return configValue;
    }
}
