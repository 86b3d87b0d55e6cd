package dev.sextant.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code -o text|json|yaml} of every reporting command, and {@code --json}, the older {@code -o json}. A command with
 * a {@code --format} of its own (failover, config acls) gives its value to {@link #format} too: the three name one
 * choice, and {@code -o} takes that command's own formats as well.
 */
final class OutputOption {

    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT",
            description = "text (the default), json, or yaml (the tree json prints). Where the command has a "
                    + "--format, -o takes its values too.")
    String output;

    @Option(names = "--json", description = "-o json.")
    boolean json;

    /** The format asked for, text when none; bad usage when the command prints no such format. */
    OutputFormat format(CommandLine commandLine) {
        return format(commandLine, null);
    }

    /**
     * The format asked for by {@code -o}, {@code --json} or the command's {@code --format} ({@code formatOption},
     * null when not given; {@code own}: the formats the command prints besides text, json and yaml), text when none;
     * bad usage when they disagree or name a format the command does not print.
     */
    OutputFormat format(CommandLine commandLine, OutputFormat formatOption, OutputFormat... own) {
        OutputFormat[] accepted = Stream.concat(Stream.of(OutputFormat.COMMON), Stream.of(own))
                .toArray(OutputFormat[]::new);
        List<OutputFormat> asked = new ArrayList<>();
        if (json) {
            asked.add(OutputFormat.JSON);
        }
        if (output != null) {
            try {
                asked.add(OutputFormat.parse(output, accepted));
            } catch (CommandLine.TypeConversionException e) {
                throw new CommandLine.ParameterException(commandLine, "invalid value for -o: " + e.getMessage());
            }
        }
        if (formatOption != null) {
            asked.add(formatOption);
        }
        if (asked.stream().distinct().count() > 1) {
            throw new CommandLine.ParameterException(commandLine, json ? "--json is -o json: give one format"
                    : "--format and -o name the same choice: give one format");
        }
        return asked.isEmpty() ? OutputFormat.TEXT : asked.get(0);
    }
}
