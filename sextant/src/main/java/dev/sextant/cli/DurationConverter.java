package dev.sextant.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** A duration on the command line: {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}, or ISO-8601 ({@code PT5S}). */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

    private static final Pattern SHORT = Pattern.compile("(\\d+)(ms|s|m|h)");

    @Override
    public Duration convert(String value) {
        String text = value.trim().toLowerCase(Locale.ROOT);
        Matcher m = SHORT.matcher(text);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
            };
        }
        try {
            Duration parsed = Duration.parse(value.trim().toUpperCase(Locale.ROOT));
            if (parsed.isNegative()) {
                throw new CommandLine.TypeConversionException("'" + value + "' is negative");
            }
            return parsed;
        } catch (DateTimeParseException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a duration: give it as 500ms, 30s, "
                    + "2m, 1h or ISO-8601 (PT30S)");
        }
    }
}
