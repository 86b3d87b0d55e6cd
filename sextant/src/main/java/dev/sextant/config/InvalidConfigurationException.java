package dev.sextant.config;

import java.util.List;

/**
 * A configuration Sextant cannot start with: an unknown key, a bad value, a missing required key, a key that belongs
 * elsewhere, or a configuration file that cannot be read.
 *
 * <p>The message is meant for a person: it names the key (or the file), the offending value, what the key accepts
 * and how to fix it. {@link #key()} names the key for programs; it is {@code null} only when the problem is the
 * configuration file itself rather than one key in it.
 *
 * <p>A configuration with several problems is refused once, for all of them ({@link #of}): {@link #problems()} lists
 * each, the message numbers them, and {@link #key()} and {@link #value()} are the first one's.
 */
public class InvalidConfigurationException extends RuntimeException {

    private final String key;
    private final String value;
    private final List<InvalidConfigurationException> problems;

    public InvalidConfigurationException(String key, String value, String message) {
        this(key, value, message, null);
    }

    public InvalidConfigurationException(String key, String value, String message, Throwable cause) {
        super(message, cause);
        this.key = key;
        this.value = value;
        this.problems = List.of(this);
    }

    private InvalidConfigurationException(List<InvalidConfigurationException> problems) {
        super(numbered(problems), problems.get(0).getCause());
        this.key = problems.get(0).key;
        this.value = problems.get(0).value;
        this.problems = problems;
    }

    /** One refusal for every problem of {@code problems} (at least one): the problem itself when there is one. */
    public static InvalidConfigurationException of(List<InvalidConfigurationException> problems) {
        List<InvalidConfigurationException> each = problems.stream().flatMap(p -> p.problems().stream()).toList();
        if (each.isEmpty()) {
            throw new IllegalArgumentException("no problem");
        }
        return each.size() == 1 ? each.get(0) : new InvalidConfigurationException(each);
    }

    /** The configuration key at fault, e.g. {@code sync.interval.ms}; {@code null} for an unreadable file. */
    public String key() {
        return key;
    }

    /** The offending value as given, or {@code null} when the key is missing or the problem is not a value. */
    public String value() {
        return value;
    }

    /** Every problem found, in the order the checks run: this one alone when there is one. */
    public List<InvalidConfigurationException> problems() {
        return problems;
    }

    private static String numbered(List<InvalidConfigurationException> problems) {
        StringBuilder message = new StringBuilder().append(problems.size()).append(" problems, each to fix:");
        for (int i = 0; i < problems.size(); i++) {
            message.append("\n  ").append(i + 1).append(". ").append(problems.get(i).getMessage());
        }
        return message.toString();
    }
}
