package dev.sextant.cli;

import picocli.CommandLine;

/**
 * A command that needs a subcommand was given none ({@code sextant}, {@code sextant config}): its usage on stderr,
 * exit 2, as Kafka's tools do. Its own class, so that a subcommand asks it and not the root command that lists the
 * subcommand (no cycle between the two).
 */
final class NoCommandGiven {

    private NoCommandGiven() {
    }

    static int usage(CommandLine.Model.CommandSpec spec) {
        CommandLine commandLine = spec.commandLine();
        commandLine.getErr().println(spec.qualifiedName() + ": no command given");
        commandLine.usage(commandLine.getErr());
        commandLine.getErr().flush();
        return ExitCodes.USAGE;
    }
}
