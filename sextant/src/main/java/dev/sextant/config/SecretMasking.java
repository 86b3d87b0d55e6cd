package dev.sextant.config;

import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * Which configuration values are secrets, and how a configuration shows with them hidden: in
 * {@link SextantConfig#toString()} and in the error messages of {@link ConfigChecks}.
 *
 * <p>Invariant: a value whose key names a password, secret, JAAS config, private key, credentials or token, or whose
 * definition is of type {@link Type#PASSWORD}, is shown as {@value #HIDDEN}, never as written. The test is by name
 * because pass-through keys ({@code source.sasl.jaas.config}) have no Sextant definition to carry a type.
 */
final class SecretMasking {

    static final String HIDDEN = "[hidden]";

    private SecretMasking() {
    }

    /** Whether {@code key}'s value is a secret by its name alone. */
    static boolean isSecret(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return k.contains("password") || k.contains("secret") || k.contains("jaas") || k.endsWith(".key")
                || k.contains("credentials") || k.contains("token");
    }

    /**
     * {@code value} of {@code key} as an error message may show it; {@code definition} is Sextant's for a defined key,
     * Kafka's (client or Streams) for a pass-through key.
     */
    static String shown(String key, ConfigKey definition, Object value) {
        return isSecret(key) || definition.type == Type.PASSWORD ? HIDDEN : ConfigDefinitions.display(value);
    }

    /** {@code name{key=value, ...}}, sorted by key, secrets hidden. */
    static String describe(String name, Map<String, ?> values) {
        StringJoiner joined = new StringJoiner(", ", name + "{", "}");
        new TreeMap<>(values).forEach((key, value) ->
                joined.add(key + "=" + (isSecretKey(key) ? HIDDEN : ConfigDefinitions.display(value))));
        return joined.toString();
    }

    private static boolean isSecretKey(String key) {
        ConfigKey defined = ConfigDefinitions.key(key);
        return isSecret(key) || defined != null && defined.type == Type.PASSWORD;
    }
}
