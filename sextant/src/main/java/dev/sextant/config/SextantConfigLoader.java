package dev.sextant.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads a {@link SextantConfig} from a properties file and/or a map, then environment variables, which win.
 *
 * <p>Environment variables: every defined key is also read from {@code SEXTANT_<KEY>}, the key upper-cased with
 * {@code .} and {@code -} replaced by {@code _} ({@code sync.interval.ms} ← {@code SEXTANT_SYNC_INTERVAL_MS}).
 * Pass-through configs come from {@code SEXTANT_SOURCE_*}, {@code SEXTANT_DESTINATION_*} and
 * {@code SEXTANT_STREAMS_*}: the rest of the name lower-cased with {@code _} replaced by {@code .}
 * ({@code SEXTANT_SOURCE_SASL_JAAS_CONFIG} → {@code source.sasl.jaas.config}). Other {@code SEXTANT_*} variables
 * (e.g. a launcher's {@code SEXTANT_OPTS}) are not configuration and are ignored; one that looks like a misspelt key
 * is logged as a warning.
 *
 * <p>Precedence, lowest first: the file, the map, the environment.
 */
public final class SextantConfigLoader {

    /** Prefix of every environment variable Sextant reads its configuration from. */
    public static final String ENV_PREFIX = EnvironmentNames.PREFIX;

    private static final Logger LOG = LoggerFactory.getLogger(SextantConfigLoader.class);

    private static final Map<String, String> ENV_TO_KEY;
    private static final List<String> PASS_THROUGH_PREFIXES = List.of(
            ConfigKeys.SOURCE_PREFIX, ConfigKeys.DESTINATION_PREFIX, ConfigKeys.STREAMS_PREFIX);

    static {
        Map<String, String> map = new TreeMap<>();
        for (String key : SextantConfig.definedKeys()) {
            map.put(environmentVariable(key), key);
        }
        ENV_TO_KEY = Collections.unmodifiableMap(map);
    }

    private SextantConfigLoader() {
    }

    /** Loads {@code file}, then the process environment. */
    public static SextantConfig load(Path file) {
        return load(file, Map.of(), System.getenv());
    }

    /** Loads {@code file}, then {@code environment}. */
    public static SextantConfig load(Path file, Map<String, String> environment) {
        return load(file, Map.of(), environment);
    }

    /** Loads {@code props}, then {@code environment}. */
    public static SextantConfig load(Map<String, ?> props, Map<String, String> environment) {
        return load(null, props, environment);
    }

    /**
     * Loads the configuration: {@code file} (may be {@code null}), overridden by {@code props}, overridden by the
     * {@code SEXTANT_*} variables of {@code environment}.
     *
     * @throws InvalidConfigurationException when the file cannot be read or the configuration is invalid
     */
    public static SextantConfig load(Path file, Map<String, ?> props, Map<String, String> environment) {
        return load(file, props, environment, ConfigChecks.References.RESOLVED);
    }

    /**
     * Loads {@code file}, then {@code environment}, leaving the config-provider references in secrets' values (JAAS
     * configs, passwords, tokens, keys) as written: for what reads no secret and may run where the secrets do not
     * exist yet, such as {@code config acls} printing the KafkaUsers from which Strimzi creates them.
     */
    public static SextantConfig loadWithoutSecrets(Path file, Map<String, String> environment) {
        return load(file, Map.of(), environment, ConfigChecks.References.SECRETS_KEPT);
    }

    /**
     * Loads {@code file}, then {@code environment}, checked as {@link #load} checks them but offline: no config
     * provider is opened and no reference resolved (their syntax, provider and allowed path are checked,
     * {@link OfflineReferences}), and the files the configuration names are not looked for. For a configuration
     * checked where it does not run ({@code config check --offline} in CI); never for running.
     */
    public static SextantConfig loadOffline(Path file, Map<String, String> environment) {
        return load(file, Map.of(), environment, ConfigChecks.References.OFFLINE);
    }

    private static SextantConfig load(Path file, Map<String, ?> props, Map<String, String> environment,
                                      ConfigChecks.References references) {
        Map<String, Object> merged = new LinkedHashMap<>();
        Map<String, String> origins = new LinkedHashMap<>();
        if (file != null) {
            for (Map.Entry<String, String> e : readFile(file).entrySet()) {
                merged.put(e.getKey(), e.getValue());
                origins.put(e.getKey(), "file " + file);
            }
        }
        for (Map.Entry<String, ?> e : props.entrySet()) {
            merged.put(e.getKey(), e.getValue());
            origins.remove(e.getKey());
        }
        Map<String, String> env = fromEnvironment(environment);
        for (Map.Entry<String, String> e : env.entrySet()) {
            merged.put(e.getKey(), e.getValue());
            origins.put(e.getKey(), "environment variable " + environmentVariable(e.getKey()));
        }
        return new SextantConfig(merged, origins, references);
    }

    /**
     * Reads a properties file (UTF-8, or ISO-8859-1 when it is not valid UTF-8), without interpreting it.
     *
     * @throws InvalidConfigurationException naming the file when it does not exist or cannot be read
     */
    public static Map<String, String> readFile(Path file) {
        if (Files.isDirectory(file)) {
            throw unreadable(file, "it is a directory", null);
        }
        Properties properties;
        try {
            properties = read(file, true);
        } catch (CharacterCodingException e) {
            try {
                properties = read(file, false);
            } catch (IOException e2) {
                throw unreadable(file, describe(e2), e2);
            }
        } catch (IOException e) {
            throw unreadable(file, describe(e), e);
        } catch (IllegalArgumentException e) {
            throw unreadable(file, "it is not a valid properties file (" + e.getMessage() + ")", e);
        }
        Map<String, String> result = new TreeMap<>();
        for (String name : properties.stringPropertyNames()) {
            result.put(name, properties.getProperty(name));
        }
        return result;
    }

    private static Properties read(Path file, boolean utf8) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = utf8
                ? Files.newBufferedReader(file, StandardCharsets.UTF_8)
                : Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
            properties.load(reader);
        }
        return properties;
    }

    private static String describe(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "it does not exist";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        return String.valueOf(e.getMessage());
    }

    private static InvalidConfigurationException unreadable(Path file, String why, Throwable cause) {
        return new InvalidConfigurationException(null, null, "Cannot read configuration file '" + file + "'"
                + (file.isAbsolute() ? "" : " (" + file.toAbsolutePath() + ")") + ": " + why + ". Accepted: a "
                + "readable Java properties file of key=value lines, like config/sextant.properties. Fix: pass the "
                + "path of an existing, readable file.", cause);
    }

    /**
     * The configuration keys set by {@code SEXTANT_*} variables of {@code environment}, with their values.
     * Variables that map to no key are ignored.
     */
    public static Map<String, String> fromEnvironment(Map<String, String> environment) {
        Map<String, String> result = new TreeMap<>();
        for (Map.Entry<String, String> e : new TreeMap<>(environment).entrySet()) {
            String name = e.getKey();
            if (!name.startsWith(ENV_PREFIX) || e.getValue() == null) {
                continue;
            }
            Optional<String> key = keyForEnvironmentVariable(name);
            if (key.isPresent()) {
                result.put(key.get(), e.getValue());
            } else {
                Optional<String> near = Suggestions.closest(name, ENV_TO_KEY.keySet())
                        .filter(s -> Suggestions.editDistance(s, name) <= 2);
                if (near.isPresent()) {
                    LOG.warn("Ignoring environment variable {}: it sets no configuration key. Did you mean {} ({})?",
                            name, near.get(), ENV_TO_KEY.get(near.get()));
                } else {
                    LOG.debug("Ignoring environment variable {}: it sets no configuration key", name);
                }
            }
        }
        return result;
    }

    /**
     * The configuration key an environment variable sets: a defined key whose {@link #environmentVariable} it is,
     * or a pass-through key for {@code SEXTANT_SOURCE_*}, {@code SEXTANT_DESTINATION_*}, {@code SEXTANT_STREAMS_*}.
     */
    public static Optional<String> keyForEnvironmentVariable(String name) {
        String defined = ENV_TO_KEY.get(name);
        if (defined != null) {
            return Optional.of(defined);
        }
        for (String prefix : PASS_THROUGH_PREFIXES) {
            String envPrefix = environmentVariable(prefix);
            if (name.startsWith(envPrefix) && name.length() > envPrefix.length()) {
                String rest = name.substring(envPrefix.length()).toLowerCase(Locale.ROOT).replace('_', '.');
                return Optional.of(prefix + rest);
            }
        }
        return Optional.empty();
    }

    /**
     * The environment variable for a key: {@code SEXTANT_} + the key upper-cased with {@code .} and {@code -}
     * replaced by {@code _} ({@code sync.interval.ms} → {@code SEXTANT_SYNC_INTERVAL_MS}).
     */
    public static String environmentVariable(String key) {
        return EnvironmentNames.of(key);
    }
}
