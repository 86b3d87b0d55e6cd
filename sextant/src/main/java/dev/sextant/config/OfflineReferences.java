package dev.sextant.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.provider.ConfigProvider;

/**
 * Config-provider references checked without opening a provider, for {@code config check --offline} (a GitOps
 * change checked in CI, where neither the secrets nor the mounted paths exist): the {@code config.providers} keys
 * (each listed provider has a class, a {@link ConfigProvider} where that class is on the classpath) and every
 * {@code ${provider:path:key}} reference (well formed, naming a listed provider, its path under the provider's
 * {@code allowed.paths} when it has some). Nothing is read, nothing is resolved.
 *
 * <p>Invariants: the result holds the configuration less the provider keys, every reference as written; a key whose
 * value holds a reference and whose type is neither a string, a password nor a list (its value is known only once
 * resolved) is left out of the value checks and named in a warning. A provider class not on this classpath (its jar
 * in {@code plugins/} where Sextant runs) is a warning, not an error.
 */
final class OfflineReferences {

    /** Kafka's {@code ConfigTransformer.DEFAULT_PATTERN}: {@code ${provider:[path:]key}}. */
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{([^}]*?):(([^}]*?):)?([^}]*?)}");
    private static final Set<Type> TEXT_TYPES = Set.of(Type.STRING, Type.PASSWORD, Type.LIST);

    /**
     * @param props    the configuration to check the values of, references as written
     * @param errors   what {@code run} would refuse, whatever the secrets hold
     * @param warnings what cannot be checked offline
     */
    record Result(Map<String, Object> props, List<InvalidConfigurationException> errors, List<String> warnings) {
    }

    private OfflineReferences() {
    }

    static Result check(Map<String, ?> raw) {
        List<InvalidConfigurationException> errors = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        Map<String, List<String>> providers = providers(raw, errors, warnings);
        Map<String, Object> props = new LinkedHashMap<>();
        raw.forEach((key, value) -> {
            if (key != null && ConfigProviders.isProviderKey(key)) {
                return;
            }
            if (key != null && value instanceof String s && s.contains("${")) {
                boolean wellFormed = checkReferences(key, s, providers, errors);
                Optional<Type> type = type(key);
                if (wellFormed && type.isPresent() && !TEXT_TYPES.contains(type.get())) {
                    warnings.add("'" + key + "' is not checked offline: its value comes from a config provider");
                    return;
                }
            }
            props.put(key, value);
        });
        return new Result(props, errors, warnings);
    }

    /** The providers {@code config.providers} lists, each with its {@code allowed.paths} (empty: any path). */
    private static Map<String, List<String>> providers(Map<String, ?> raw, List<InvalidConfigurationException> errors,
                                                       List<String> warnings) {
        Map<String, List<String>> providers = new TreeMap<>();
        Object names = raw.get(ConfigProviders.CONFIG_PROVIDERS);
        if (names == null) {
            return providers;
        }
        for (String name : names.toString().split(",")) {
            name = name.trim();
            if (name.isEmpty()) {
                continue;
            }
            String prefix = ConfigProviders.CONFIG_PROVIDERS + "." + name + ".";
            Object className = raw.get(prefix + "class");
            if (className == null || className.toString().isBlank()) {
                errors.add(new InvalidConfigurationException(prefix + "class", null, "config.providers lists '"
                        + name + "' but '" + prefix + "class' is not set. Fix: set it, e.g. " + prefix + "class="
                        + "org.apache.kafka.common.config.provider." + (name.equals("env") ? "EnvVarConfigProvider"
                        : "FileConfigProvider") + "."));
            } else {
                checkClass(prefix + "class", className.toString().trim(), errors, warnings);
            }
            Object allowed = raw.get(prefix + "param.allowed.paths");
            List<String> paths = new ArrayList<>();
            if (allowed != null) {
                for (String path : allowed.toString().split(",")) {
                    if (!path.isBlank()) {
                        paths.add(path.trim());
                    }
                }
            }
            providers.put(name, paths);
        }
        return providers;
    }

    private static void checkClass(String key, String className, List<InvalidConfigurationException> errors,
                                   List<String> warnings) {
        Class<?> type;
        try {
            type = Class.forName(className, false, OfflineReferences.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            warnings.add("'" + key + "=" + className + "' is not on this classpath, so not checked offline: put its "
                    + "jar in plugins/ (or SEXTANT_CLASSPATH) where Sextant runs");
            return;
        }
        if (!ConfigProvider.class.isAssignableFrom(type)) {
            errors.add(new InvalidConfigurationException(key, className, "'" + key + "=" + className + "' is no "
                    + ConfigProvider.class.getName() + ". Fix: name a config provider, e.g. "
                    + "org.apache.kafka.common.config.provider.FileConfigProvider."));
        }
    }

    /** Checks each reference of {@code value}; false when it holds a {@code ${} that is no reference. */
    private static boolean checkReferences(String key, String value, Map<String, List<String>> providers,
                                           List<InvalidConfigurationException> errors) {
        Matcher m = REFERENCE.matcher(value);
        while (m.find()) {
            String provider = m.group(1);
            String path = m.group(3);
            if (!providers.containsKey(provider)) {
                errors.add(new InvalidConfigurationException(key, "[reference]", "'" + key + "' refers to config "
                        + "provider '" + provider + "', which config.providers does not list. Fix: check the "
                        + "reference (provider:path:key), or list and configure the provider (config.providers="
                        + provider + ", config.providers." + provider + ".class=...)."));
            } else if (path != null && !allowed(path, providers.get(provider))) {
                errors.add(new InvalidConfigurationException(key, "[reference]", "'" + key + "' refers to path '"
                        + path + "' of config provider '" + provider + "', outside its allowed.paths ("
                        + String.join(",", providers.get(provider)) + "): the provider would refuse it. Fix: "
                        + "correct the path, or add its folder to config.providers." + provider
                        + ".param.allowed.paths."));
            }
        }
        if (REFERENCE.matcher(value).replaceAll("").contains("${")) {
            errors.add(new InvalidConfigurationException(key, "[reference]", "'" + key + "' holds '${' that is no "
                    + "complete config-provider reference. Accepted: ${provider:key} or ${provider:path:key}. Fix: "
                    + "close the reference with '}', or remove it."));
            return false;
        }
        return true;
    }

    /** True when {@code allowedPaths} is empty (no restriction) or {@code path} lies under one of them. */
    private static boolean allowed(String path, List<String> allowedPaths) {
        if (allowedPaths.isEmpty()) {
            return true;
        }
        Path normalized = Path.of(path).normalize();
        return allowedPaths.stream().anyMatch(a -> normalized.startsWith(Path.of(a).normalize()));
    }

    /**
     * True when {@code key} is a pass-through key of class type (a callback handler, an interceptor) whose value names
     * a class this classpath does not hold.
     */
    static boolean namesAbsentClass(String key, Object value) {
        if (!(value instanceof String className) || className.isBlank()
                || !type(key).filter(t -> t == Type.CLASS).isPresent()) {
            return false;
        }
        try {
            Class.forName(className.trim(), false, OfflineReferences.class.getClassLoader());
            return false;
        } catch (ClassNotFoundException | LinkageError e) {
            return true;
        }
    }

    /** The type of a key, Sextant's or, under a pass-through prefix, Kafka's; empty when neither defines it. */
    private static Optional<Type> type(String key) {
        ConfigKey defined = ConfigDefinitions.key(key);
        if (defined != null) {
            return Optional.of(defined.type);
        }
        return PassThroughKeys.lookup(key).map(PassThroughKeys.Known::definition).map(d -> d.type);
    }
}
