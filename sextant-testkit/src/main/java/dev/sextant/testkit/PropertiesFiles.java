package dev.sextant.testkit;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Renders Java properties files in the caller's key order (unlike {@link java.util.Properties#store}, which
 * reorders keys and adds a timestamp), so generated configs are readable and diffable when debugging.
 *
 * <p>Invariant: {@code Properties.load(render(map))} yields exactly {@code map}.
 */
final class PropertiesFiles {

    private PropertiesFiles() {
    }

    static String render(String header, Map<String, String> properties) {
        StringBuilder out = new StringBuilder();
        if (header != null && !header.isEmpty()) {
            for (String line : header.split("\n", -1)) {
                out.append("# ").append(line).append('\n');
            }
        }
        properties.forEach((key, value) ->
                out.append(escape(key, true)).append('=').append(escape(value, false)).append('\n'));
        return out.toString();
    }

    static void write(Path file, String header, Map<String, String> properties) {
        try {
            Files.writeString(file, render(header, properties), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** Rewrites {@code file} with {@code changed} over the properties it holds (written back in key order). */
    static void change(Path file, String header, Map<String, String> changed) {
        Properties current = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            current.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        Map<String, String> config = new TreeMap<>();
        current.stringPropertyNames().forEach(key -> config.put(key, current.getProperty(key)));
        config.putAll(changed);
        write(file, header, config);
    }

    /**
     * A log4j2 configuration that writes everything at INFO (state-change logger at WARN) to {@code logFile}.
     * INFO matters: readiness checks look for Kafka's own INFO lines.
     */
    static Map<String, String> log4j2(Path logFile) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("status", "warn");
        config.put("appender.file.type", "File");
        config.put("appender.file.name", "FILE");
        config.put("appender.file.fileName", logFile.toAbsolutePath().toString());
        config.put("appender.file.layout.type", "PatternLayout");
        config.put("appender.file.layout.pattern", "[%d] %p %m (%c)%n");
        config.put("rootLogger.level", "INFO");
        config.put("rootLogger.appenderRef.file.ref", "FILE");
        config.put("logger.state.name", "state.change.logger");
        config.put("logger.state.level", "WARN");
        return config;
    }

    private static String escape(String text, boolean isKey) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\f' -> out.append("\\f");
                case '=', ':', '#', '!' -> {
                    // separators end a key; in a value only a leading '#'/'!' could matter, escaping is harmless
                    if (isKey || i == 0) {
                        out.append('\\');
                    }
                    out.append(c);
                }
                case ' ' -> {
                    // a space ends a key, and leading spaces of a value are dropped by the loader
                    if (isKey || i == 0) {
                        out.append('\\');
                    }
                    out.append(c);
                }
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
