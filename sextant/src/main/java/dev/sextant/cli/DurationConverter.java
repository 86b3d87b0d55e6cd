package dev.sextant.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * A duration on the command line, the one type of every {@code --timeout} and {@code --fence-check}: {@code 500ms},
 * {@code 30s}, {@code 2m}, {@code 1h}, ISO-8601 ({@code PT5S}), or a bare number, read as seconds (what those options
 * took before they took durations, so older scripts keep working). A value it refuses is a usage error that picocli
 * names the option in ({@code invalid value for option '--timeout': ...}).
 */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

    /** What every duration option accepts, for its description. */
    static final String ACCEPTS = "a duration: 500ms, 30s, 2m, 1h or ISO-8601 PT30S; a bare number is seconds";

    private static final Pattern SECONDS = Pattern.compile("\\d+");
    private static final Pattern SHORT = Pattern.compile("(\\d+)(ms|s|m|h)");

    @Override
    public Duration convert(String value) {
        String text = value.trim().toLowerCase(Locale.ROOT);
        if (SECONDS.matcher(text).matches()) {
            return Duration.ofSeconds(parse(value, text));
        }
        Matcher m = SHORT.matcher(text);
        if (m.matches()) {
            long n = parse(value, m.group(1));
            try {
                return switch (m.group(2)) {
                    case "ms" -> Duration.ofMillis(n);
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    default -> Duration.ofHours(n);
                };
            } catch (ArithmeticException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is too large");
            }
        }
        Duration parsed;
        try {
            parsed = Duration.parse(value.trim().toUpperCase(Locale.ROOT));
        } catch (DateTimeParseException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not " + ACCEPTS);
        }
        if (parsed.isNegative()) {
            throw new CommandLine.TypeConversionException("'" + value + "' is negative");
        }
        return parsed;
    }

    /** Bad usage when {@code value} of {@code option} is under a second: no cluster answers that fast. */
    static void requireAtLeastOneSecond(CommandLine commandLine, String option, Duration value) {
        if (value.toMillis() < 1_000) {
            throw new CommandLine.ParameterException(commandLine, option + " must be at least 1 second");
        }
    }

    private static long parse(String value, String digits) {
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is too large");
        }
    }
}
