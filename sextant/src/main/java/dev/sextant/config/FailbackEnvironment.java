package dev.sextant.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What {@code sextant failback-config} does with the forward Sextant's {@code SEXTANT_*} environment, where a
 * deployment often keeps its Kafka credentials: each variable is read as {@link SextantConfigLoader} reads it (it
 * wins over the file), and its key is written to the reverse configuration swapped as the file's keys are
 * ({@link FailbackConfig#reverseKey}). Pure: the environment in, what is carried and what is not, in words, out.
 *
 * <p>Invariants: a secret's value ({@link SecretMasking#isSecret}) is never written (it was kept out of the file on
 * purpose); it is named with the variable the failback Sextant needs instead. A value that belongs to one instance
 * ({@code query.listen}, {@code query.advertised}, a {@code group.instance.id}) is not carried either, and named.
 * Every {@code SEXTANT_*} variable that sets a key is either carried or named; the launcher's own
 * ({@code SEXTANT_JAVA_OPTS}, {@code SEXTANT_CLASSPATH}, ...) set none and are left alone.
 */
public final class FailbackEnvironment {

    /**
     * @param keys       forward keys and values to apply over the file's, as the loader would
     * @param carried    each variable carried, and the reverse key it becomes
     * @param notCarried each variable not carried, and what to do instead
     */
    public record Carried(Map<String, String> keys, List<String> carried, List<String> notCarried) {

        /** True when some variable set configuration: the failback Sextant must not inherit them. */
        public boolean any() {
            return !carried.isEmpty() || !notCarried.isEmpty();
        }
    }

    private FailbackEnvironment() {
    }

    /** @param environment the process environment, or any map of variables */
    public static Carried of(Map<String, String> environment) {
        Map<String, String> keys = new TreeMap<>();
        List<String> carried = new ArrayList<>();
        List<String> notCarried = new ArrayList<>();
        for (Map.Entry<String, String> e : new TreeMap<>(environment).entrySet()) {
            String variable = e.getKey();
            if (!variable.startsWith(EnvironmentNames.PREFIX) || e.getValue() == null) {
                continue;
            }
            Optional<String> key = SextantConfigLoader.keyForEnvironmentVariable(variable);
            if (key.isEmpty()) {
                continue;
            }
            String reverse = FailbackConfig.reverseKey(key.get());
            if (SecretMasking.isSecret(key.get())) {
                notCarried.add(variable + ": a secret, not written to the file; give the failback Sextant "
                        + EnvironmentNames.of(reverse) + " with this value (or set " + reverse + " in its file with "
                        + "a ${provider:path:key} reference)");
            } else if (perInstance(key.get())) {
                notCarried.add(variable + ": " + key.get() + " of one instance, not carried; set it for each "
                        + "failback instance (e.g. " + EnvironmentNames.of(key.get()) + " in its own manifest)");
            } else {
                keys.put(key.get(), e.getValue());
                carried.add(variable + " as " + reverse);
            }
        }
        return new Carried(keys, carried, notCarried);
    }

    private static boolean perInstance(String key) {
        return key.equals(ConfigKeys.QUERY_LISTEN_CONFIG) || key.equals(ConfigKeys.QUERY_ADVERTISED_CONFIG)
                || key.endsWith("group.instance.id");
    }
}
