package dev.sextant.config;

/**
 * A configuration Sextant cannot start with: an unknown key, a bad value, a missing required key, a key that belongs
 * elsewhere, or a configuration file that cannot be read.
 *
 * <p>The message is meant for a person: it names the key (or the file), the offending value, what the key accepts
 * and how to fix it. {@link #key()} names the key for programs; it is {@code null} only when the problem is the
 * configuration file itself rather than one key in it.
 */
public class InvalidConfigurationException extends RuntimeException {

    private final String key;
    private final String value;

    public InvalidConfigurationException(String key, String value, String message) {
        this(key, value, message, null);
    }

    public InvalidConfigurationException(String key, String value, String message, Throwable cause) {
        super(message, cause);
        this.key = key;
        this.value = value;
    }

    /** The configuration key at fault, e.g. {@code sync.interval.ms}; {@code null} for an unreadable file. */
    public String key() {
        return key;
    }

    /** The offending value as given, or {@code null} when the key is missing or the problem is not a value. */
    public String value() {
        return value;
    }
}
