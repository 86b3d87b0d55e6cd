package dev.sextant.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.Uuid;

/**
 * The record templates of {@code upgrade/recorded-formats.txt}: what Sextant persisted, byte for byte, as the build of
 * the commit each names wrote it, with the values of a run ({@code {name}}) left to fill in. A test writes them where
 * that build wrote them, and so hands an instance the state of an older build without running one.
 */
public final class RecordedFormats {

    private static final String RESOURCE = "/upgrade/recorded-formats.txt";
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z][A-Za-z0-9]*)}");

    private final Map<String, Template> templates;

    private RecordedFormats(Map<String, Template> templates) {
        this.templates = templates;
    }

    /** One template: its key and value as recorded ({@code hex:...}, {@code text:...} or null for none). */
    public record Template(String name, String key, String value) {

        /** The key's bytes with {@code values} filled in; null when the template has none. */
        public byte[] key(Map<String, ?> values) {
            return bytes(key, values);
        }

        /** The value's bytes with {@code values} filled in; null for a tombstone. */
        public byte[] value(Map<String, ?> values) {
            return bytes(value, values);
        }

        /** The value as text (a {@code text:} template), filled in. */
        public String text(Map<String, ?> values) {
            return new String(value(values), StandardCharsets.UTF_8);
        }

        private byte[] bytes(String recorded, Map<String, ?> values) {
            if (recorded == null) {
                return null;
            }
            if (recorded.startsWith("hex:")) {
                String hex = fill(recorded.substring(4), values, RecordedFormats::hex).replace(" ", "");
                return HexFormat.of().parseHex(hex);
            }
            if (recorded.startsWith("text:")) {
                return fill(recorded.substring(5), values, String::valueOf).getBytes(StandardCharsets.UTF_8);
            }
            throw new IllegalStateException("template " + name + ": neither hex: nor text: " + recorded);
        }

        private String fill(String recorded, Map<String, ?> values, Function<Object, String> as) {
            Matcher m = PLACEHOLDER.matcher(recorded);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                Object value = values.get(m.group(1));
                if (value == null) {
                    throw new IllegalArgumentException("template " + name + " needs a value for {" + m.group(1) + "}");
                }
                m.appendReplacement(out, Matcher.quoteReplacement(as.apply(value)));
            }
            return m.appendTail(out).toString();
        }
    }

    public static RecordedFormats load() {
        try (InputStream in = RecordedFormats.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not on the test classpath");
            }
            Map<String, Template> templates = new LinkedHashMap<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] parts = line.trim().split(" {2}", 3);
                if (parts.length != 3) {
                    throw new IllegalStateException(RESOURCE + ": not <template>  <key>  <value>: " + line);
                }
                templates.put(parts[0], new Template(parts[0], none(parts[1]), none(parts[2])));
            }
            return new RecordedFormats(templates);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The template {@code name@commit}, e.g. {@code position.applied@15fc7f1}. */
    public Template template(String name) {
        Template template = templates.get(name);
        if (template == null) {
            throw new IllegalArgumentException("no template " + name + " in " + RESOURCE + ": " + templates.keySet());
        }
        return template;
    }

    private static String none(String field) {
        return field.equals("-") ? null : field;
    }

    /** A run's value laid out as the recorded builds lay out a field of its type. */
    private static String hex(Object value) {
        HexFormat hex = HexFormat.of();
        if (value instanceof Long l) {
            return hex.toHexDigits(l);
        }
        if (value instanceof Integer i) {
            return hex.toHexDigits(i);
        }
        if (value instanceof Uuid id) {
            return hex.toHexDigits(id.getMostSignificantBits()) + hex.toHexDigits(id.getLeastSignificantBits());
        }
        if (value instanceof String s) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            return hex.toHexDigits((short) utf8.length) + hex.formatHex(utf8);
        }
        throw new IllegalArgumentException("no recorded layout for " + value.getClass().getSimpleName() + " " + value);
    }
}
