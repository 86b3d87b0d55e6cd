package dev.sextant.config;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.ConfigTransformer;
import org.apache.kafka.common.config.ConfigTransformerResult;
import org.apache.kafka.common.config.provider.ConfigProvider;
import org.apache.kafka.common.utils.Utils;

/**
 * Kafka's config providers for Sextant's whole configuration, as Kafka Connect and MirrorMaker 2 offer them: with
 * {@code config.providers=file,env} and {@code config.providers.file.class=...FileConfigProvider}, a value such as
 * {@code ${file:/etc/sextant/secrets.properties:sasl.password}} or {@code ${env:SASL_PASSWORD}} is replaced by what
 * the provider returns, before anything is validated. Secrets then stay out of the configuration file, and every
 * key (Sextant's own, {@code source.*}, {@code destination.*}, {@code streams.*}) can use them.
 *
 * <p>Invariants: the {@code config.providers*} keys themselves are removed from the result; a reference that its
 * provider cannot resolve, or names a provider that is not configured, is an {@link InvalidConfigurationException}
 * naming the key (and never showing the resolved value).
 */
final class ConfigProviders {

    static final String CONFIG_PROVIDERS = "config.providers";
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{([^}:]+):[^}]*}");

    private ConfigProviders() {
    }

    /** True for {@code config.providers} and {@code config.providers.<name>.*}. */
    static boolean isProviderKey(String key) {
        return key.equals(CONFIG_PROVIDERS) || key.startsWith(CONFIG_PROVIDERS + ".");
    }

    /** {@code props} with every reference resolved and the provider keys removed. */
    static Map<String, Object> resolve(Map<String, ?> props) {
        return resolve(props, key -> false);
    }

    /**
     * {@code props} with the provider keys removed and every reference resolved but those in the values of the keys
     * {@code kept} accepts, which stay as written.
     */
    static Map<String, Object> resolve(Map<String, ?> props, Predicate<String> kept) {
        Map<String, Object> rest = withoutProviderKeys(props);
        Object names = props.get(CONFIG_PROVIDERS);
        if (names == null || names.toString().isBlank()) {
            return rest;
        }
        Map<String, String> referencing = referencingValues(rest);
        if (referencing.keySet().removeIf(kept) && referencing.isEmpty()) {
            // only kept references: the providers are not opened, as they may need what exists only where Sextant
            // runs (a file provider's allowed.paths)
            return rest;
        }
        Map<String, ConfigProvider> providers = new LinkedHashMap<>();
        try {
            // filled one by one, so that the finally closes the ones created before a later one fails
            openProviders(names.toString(), props, providers);
            Map<String, String> resolved = transform(providers, referencing, names.toString());
            for (Map.Entry<String, String> e : resolved.entrySet()) {
                requireNoReferenceLeft(e.getKey(), e.getValue(), providers);
                rest.put(e.getKey(), e.getValue());
            }
            return rest;
        } finally {
            providers.values().forEach(p -> Utils.closeQuietly(p, "config provider"));
        }
    }

    /** {@code props} less the {@code config.providers*} keys, in their order. */
    private static Map<String, Object> withoutProviderKeys(Map<String, ?> props) {
        Map<String, Object> rest = new LinkedHashMap<>();
        props.forEach((k, v) -> {
            if (k == null || !isProviderKey(k)) {
                rest.put(k, v);
            }
        });
        return rest;
    }

    /** Creates and configures each provider {@code names} (comma-separated) lists, into {@code providers}. */
    private static void openProviders(String names, Map<String, ?> props, Map<String, ConfigProvider> providers) {
        for (String name : names.split(",")) {
            name = name.trim();
            if (!name.isEmpty()) {
                providers.put(name, provider(name, props));
            }
        }
    }

    /** The string values that may hold a reference: only these go through the transformer. */
    private static Map<String, String> referencingValues(Map<String, Object> props) {
        Map<String, String> strings = new HashMap<>();
        props.forEach((k, v) -> {
            if (k != null && v instanceof String s && s.contains("${")) {
                strings.put(k, s);
            }
        });
        return strings;
    }

    /** {@code strings} with their references replaced; a provider's failure names {@code config.providers}. */
    private static Map<String, String> transform(Map<String, ConfigProvider> providers, Map<String, String> strings,
            String names) {
        ConfigTransformerResult result;
        try {
            result = new ConfigTransformer(providers).transform(strings);
        } catch (RuntimeException e) {
            throw new InvalidConfigurationException(CONFIG_PROVIDERS, names, "A config provider "
                    + "failed: " + e.getMessage() + ". Fix: check the file or variable the reference names, "
                    + "and that Sextant's user can read it.", e);
        }
        return result.data();
    }

    /**
     * Throws if a reference is still in {@code value} after the transform: the transformer leaves a reference it
     * cannot resolve as it was, rather than failing. The message shows neither the value nor what it resolved to.
     */
    private static void requireNoReferenceLeft(String key, String value, Map<String, ConfigProvider> providers) {
        Matcher left = REFERENCE.matcher(value);
        if (left.find()) {
            String provider = left.group(1);
            throw new InvalidConfigurationException(key, "[reference]", "'" + key
                    + "' refers to " + (providers.containsKey(provider)
                    ? "a value config provider '" + provider + "' did not find"
                    : "config provider '" + provider + "', which config.providers does not list")
                    + ". Fix: check the reference (provider:path:key), or list and configure the provider "
                    + "(config.providers=" + provider + ", config.providers." + provider + ".class=...).");
        }
    }

    private static ConfigProvider provider(String name, Map<String, ?> props) {
        String classKey = CONFIG_PROVIDERS + "." + name + ".class";
        Object className = props.get(classKey);
        if (className == null || className.toString().isBlank()) {
            throw new InvalidConfigurationException(classKey, null, "config.providers lists '" + name + "' but '"
                    + classKey + "' is not set. Fix: set it, e.g. " + classKey + "="
                    + "org.apache.kafka.common.config.provider." + (name.equals("env") ? "EnvVarConfigProvider"
                    : "FileConfigProvider") + ".");
        }
        ConfigProvider provider;
        try {
            provider = Utils.newInstance(className.toString().trim(), ConfigProvider.class);
        } catch (ClassNotFoundException | RuntimeException e) {
            throw new InvalidConfigurationException(classKey, className.toString(), "Cannot create config provider '"
                    + className + "' (" + e + "). Fix: use a class implementing "
                    + ConfigProvider.class.getName() + ", with its jar in plugins/ (or SEXTANT_CLASSPATH).", e);
        }
        String paramPrefix = CONFIG_PROVIDERS + "." + name + ".param.";
        Map<String, Object> params = new HashMap<>();
        props.forEach((k, v) -> {
            if (k != null && k.startsWith(paramPrefix)) {
                params.put(k.substring(paramPrefix.length()), v);
            }
        });
        try {
            provider.configure(params);
        } catch (RuntimeException e) {
            Utils.closeQuietly(provider, "config provider");
            throw new InvalidConfigurationException(paramPrefix + "*", null, "Config provider '" + name + "' refused "
                    + "its parameters (" + paramPrefix + "*): " + e.getMessage() + ". Fix: check them (a path of "
                    + "allowed.paths must exist).", e);
        }
        return provider;
    }
}
