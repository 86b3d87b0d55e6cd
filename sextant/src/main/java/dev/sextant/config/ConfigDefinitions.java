package dev.sextant.config;

import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * The definition of every key of {@link SextantConfig}: its type, default, validator, importance, group and
 * documentation, in Kafka's own {@link ConfigDef}, as MirrorMaker 2 defines its keys. The generated documentation
 * ({@link ConfigDocs}) and the error messages ({@link ConfigChecks}) are both read from here, so a key's description
 * and what it accepts are written once.
 *
 * <p>The keys themselves are defined by role, in {@link ClusterKeys}, {@link SyncKeys}, {@link QueryKeys} and
 * {@link StreamsKeys}, each adding its own to the one definition built here.
 *
 * <p>Invariants: keys are defined in the order the documentation lists them, each group's keys together; the
 * shared {@link #DEFINITION} is never modified after this class loads, and code outside this package gets copies.
 */
final class ConfigDefinitions {

    /** Every key; read-only by convention: {@link #copy()} for anyone who might change it. */
    static final ConfigDef DEFINITION = build();

    private ConfigDefinitions() {
    }

    /** A copy of the definition of every key. */
    static ConfigDef copy() {
        return new ConfigDef(DEFINITION);
    }

    /** The names of the defined keys (not the pass-through prefixes), sorted. */
    static Set<String> names() {
        return Collections.unmodifiableSet(new TreeSet<>(DEFINITION.names()));
    }

    /** Every defined key, in documentation order. */
    static List<ConfigKey> keys() {
        return List.copyOf(DEFINITION.configKeys().values());
    }

    /** The definition of {@code name}, or null when it is not a defined key (a pass-through key, a typo). */
    static ConfigKey key(String name) {
        return DEFINITION.configKeys().get(name);
    }

    /** Each role's keys in turn: the order of these calls is the order of the documentation. */
    private static ConfigDef build() {
        ConfigDef def = new ConfigDef();
        ClusterKeys.addTo(def);
        SyncKeys.addTo(def);
        QueryKeys.addTo(def);
        StreamsKeys.addTo(def);
        return def;
    }

    // ------------------------------------------------------------------------------------------------ in words

    /** What a key accepts, in words: its validator's description, or its type's when it has none. */
    static String accepts(ConfigKey key) {
        if (key.validator == null) {
            return describeType(key.type);
        }
        return switch (key.type) {
            case SHORT, INT, LONG -> "a whole number, " + key.validator;
            case DOUBLE -> "a number, " + key.validator;
            default -> key.validator.toString();
        };
    }

    /** What a value of a type is, in words. */
    static String describeType(Type type) {
        return switch (type) {
            case BOOLEAN -> "true or false";
            case SHORT -> "a whole number from " + Short.MIN_VALUE + " to " + Short.MAX_VALUE;
            case INT -> "a whole number from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE;
            case LONG -> "a whole number";
            case DOUBLE -> "a number";
            case LIST -> "a comma-separated list";
            case CLASS -> "a fully-qualified class name on the classpath";
            case PASSWORD -> "a password";
            case STRING -> "a string";
        };
    }

    /** A key's default as an operator reads it: the computed form for a derived default, "unset", or the value. */
    static String displayDefault(ConfigKey key) {
        if (key.alternativeString != null) {
            return key.alternativeString;
        }
        if (!key.hasDefault()) {
            return "none, required";
        }
        Object value = key.defaultValue;
        return value == null ? "unset" : display(value);
    }

    /** A value as written in a properties file: a list comma-separated, a class by its name. */
    static String display(Object value) {
        if (value instanceof List<?> list) {
            return String.join(",", list.stream().map(String::valueOf).toList());
        }
        if (value instanceof Class<?> c) {
            return c.getName();
        }
        return String.valueOf(value);
    }
}
