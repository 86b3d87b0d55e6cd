package dev.sextant.config;

import static dev.sextant.config.ConfigKeys.SOURCE_OFFSETS_READ_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_SHARE_GROUPS_CONFIG;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where Sextant finds the source's committed offsets ({@code source.offsets.read}): in {@code __consumer_offsets},
 * or through the Admin API on an interval, for a source (a managed service) that lets no client read that topic.
 */
public enum SourceOffsetsRead implements ConfigEnum {
    /** Every commit as the group coordinator writes it, read from {@code __consumer_offsets}. */
    LOG("log"),
    /** Every group's committed offsets, asked through the Admin API every {@code source.offsets.poll.interval.ms}. */
    ADMIN("admin");

    private final String configValue;

    SourceOffsetsRead(String configValue) {
        this.configValue = configValue;
    }

    /** The value as written in the configuration. */
    @Override
    public String configValue() {
        return configValue;
    }

    /** Parses a configuration value, ignoring case. */
    public static SourceOffsetsRead fromConfigValue(String value) {
        return ConfigEnum.parse(SourceOffsetsRead.class, "way to read the source's offsets", value);
    }

    /** Every accepted configuration value, in declaration order. */
    public static List<String> configValues() {
        return ConfigEnum.configValues(SourceOffsetsRead.class);
    }

    /**
     * What is wrong with the keys as written, or empty: share groups asked for ({@code sync.share.groups=true} set)
     * with the Admin API, which answers only consumer groups' committed offsets; left unset, share groups are just not
     * synced in that mode.
     *
     * @param props the configuration as written, values not parsed
     */
    static Optional<String> conflict(Map<String, Object> props) {
        Object read = props.get(SOURCE_OFFSETS_READ_CONFIG);
        Object share = props.get(SYNC_SHARE_GROUPS_CONFIG);
        if (read == null || !ADMIN.configValue().equalsIgnoreCase(read.toString().trim())
                || share == null || !Boolean.parseBoolean(share.toString().trim())) {
            return Optional.empty();
        }
        return Optional.of("'" + SYNC_SHARE_GROUPS_CONFIG + "=true' cannot be synced with '"
                + SOURCE_OFFSETS_READ_CONFIG + "=admin': the Admin API answers consumer groups' committed offsets "
                + "only, and a share group's positions are in __share_group_state, which Sextant does not read in "
                + "that mode. Fix: remove '"
                + SYNC_SHARE_GROUPS_CONFIG + "' (share groups are then not synced), or set '"
                + SOURCE_OFFSETS_READ_CONFIG + "=log' where the source lets Sextant read its internal topics.");
    }

    @Override
    public String toString() {
        return configValue;
    }
}
