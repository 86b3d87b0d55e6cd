package dev.sextant.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * An enum whose constants are the values one configuration key accepts, each written in the configuration as its
 * {@link #configValue()} ({@code offset-syncs}, {@code adopt-forward}). The enums keep their own
 * {@code fromConfigValue} and {@code configValues}, which name what they parse and hand over to the two methods here.
 *
 * <p>Invariants: {@link #parse} accepts exactly the values {@link #configValues} lists, trimmed and in any case; a
 * value it refuses is an {@link IllegalArgumentException} that quotes the value as given, names what was parsed and
 * lists every accepted value in declaration order.
 */
interface ConfigEnum {

    /** The value as written in the configuration, in lower case. */
    String configValue();

    /**
     * The constant of {@code type} whose configuration value is {@code value}, ignoring case and surrounding blanks.
     *
     * @param what what the key chooses, for the message ({@code "rewind policy"})
     * @throws IllegalArgumentException {@code "Unknown <what> '<value>'; expected one of [<values>]"}
     */
    static <E extends Enum<E> & ConfigEnum> E parse(Class<E> type, String what, String value) {
        String wanted = value.trim().toLowerCase(Locale.ROOT);
        for (E constant : type.getEnumConstants()) {
            if (constant.configValue().equals(wanted)) {
                return constant;
            }
        }
        throw new IllegalArgumentException("Unknown " + what + " '" + value + "'; expected one of "
                + configValues(type));
    }

    /** Every configuration value of {@code type}, in declaration order. */
    static <E extends Enum<E> & ConfigEnum> List<String> configValues(Class<E> type) {
        return Arrays.stream(type.getEnumConstants()).map(ConfigEnum::configValue).toList();
    }
}
