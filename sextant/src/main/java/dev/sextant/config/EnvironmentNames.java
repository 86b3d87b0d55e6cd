package dev.sextant.config;

import java.util.Locale;

/**
 * How a configuration key is named in the environment: {@code SEXTANT_} + the key upper-cased with {@code .} and
 * {@code -} replaced by {@code _} ({@code sync.interval.ms} is {@code SEXTANT_SYNC_INTERVAL_MS}). Its own holder, so
 * that the checks name a variable without depending on the loader that depends on them.
 */
final class EnvironmentNames {

    /** The prefix of every variable Sextant reads its configuration from. */
    static final String PREFIX = "SEXTANT_";

    private EnvironmentNames() {
    }

    static String of(String key) {
        return PREFIX + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }
}
