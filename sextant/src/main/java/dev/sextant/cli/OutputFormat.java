package dev.sextant.cli;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine;

/**
 * What a reporting command prints on stdout: {@code text} for people, {@code json} and {@code yaml} (the same tree)
 * for scripts, and the files another tool takes where a command has one ({@code failover}: Kafka's reset plan,
 * {@code config acls}: Strimzi's KafkaUsers).
 */
enum OutputFormat {
    TEXT, JSON, YAML, CSV, STRIMZI;

    /** What every reporting command takes. */
    static final OutputFormat[] COMMON = {TEXT, JSON, YAML};

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The format of a document, JSON or YAML: {@link Json#write} or {@link Json#yaml}. */
    boolean structured() {
        return this == JSON || this == YAML;
    }

    /** A document in this format: JSON on one line, or a YAML block; without a final line break. */
    String write(Object value) {
        return switch (this) {
            case JSON -> Json.write(value);
            case YAML -> Json.yaml(value);
            default -> throw new IllegalStateException(label() + " is not a document format");
        };
    }

    static String labels(OutputFormat... formats) {
        return Arrays.stream(formats).map(OutputFormat::label).collect(Collectors.joining(", "));
    }

    /** The format {@code value} names, in any case, when it is one of {@code accepted}. */
    static OutputFormat parse(String value, OutputFormat... accepted) {
        for (OutputFormat format : accepted) {
            if (format.label().equalsIgnoreCase(value)) {
                return format;
            }
        }
        throw new CommandLine.TypeConversionException("'" + value + "' is not one of " + labels(accepted));
    }

    /** A command's {@code --format}: the common formats and the command's own; a subclass names them. */
    abstract static class Converter implements CommandLine.ITypeConverter<OutputFormat> {
        private final OutputFormat[] accepted;

        Converter(OutputFormat... own) {
            accepted = Stream.concat(Arrays.stream(COMMON), Arrays.stream(own)).toArray(OutputFormat[]::new);
        }

        @Override
        public OutputFormat convert(String value) {
            return parse(value, accepted);
        }
    }
}
