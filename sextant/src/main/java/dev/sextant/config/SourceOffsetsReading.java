package dev.sextant.config;

import static dev.sextant.config.ConfigKeys.SOURCE_OFFSETS_POLL_INTERVAL_MS_CONFIG;
import static dev.sextant.config.ConfigKeys.SOURCE_OFFSETS_READ_CONFIG;

/**
 * How Sextant reads the source's committed offsets: {@code source.offsets.read} and, for the Admin API,
 * {@code source.offsets.poll.interval.ms}. A part of the configuration of its own, so that the choice is read in one
 * place.
 *
 * @param read           where the commits come from
 * @param pollIntervalMs how often the Admin API is asked, with {@link SourceOffsetsRead#ADMIN}
 */
public record SourceOffsetsReading(SourceOffsetsRead read, long pollIntervalMs) {

    /** The reading {@code config} asks for. */
    public static SourceOffsetsReading of(SextantConfig config) {
        SourceOffsetsRead read = SourceOffsetsRead.fromConfigValue(config.getString(SOURCE_OFFSETS_READ_CONFIG));
        return new SourceOffsetsReading(read, config.getLong(SOURCE_OFFSETS_POLL_INTERVAL_MS_CONFIG));
    }

    /** True when the commits are read from {@code __consumer_offsets} (the default). */
    public boolean fromLog() {
        return read == SourceOffsetsRead.LOG;
    }
}
