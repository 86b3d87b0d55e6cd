package dev.sextant.cli;

import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code --dry-run} of the commands that write only with {@code --apply} ({@code --execute}, as Kafka's
 * kafka-consumer-groups names it): the default, said out loud, as scripts written for Kafka's tools do.
 */
final class DryRunOption {

    @Option(names = "--dry-run", description = "Only show what --apply would do (the default).")
    boolean dryRun;

    /** {@code apply}, checked: bad usage when {@code --dry-run} is given with it. */
    boolean apply(CommandLine commandLine, boolean apply) {
        if (dryRun && apply) {
            throw new CommandLine.ParameterException(commandLine, "--dry-run and --apply (--execute) exclude each "
                    + "other: give one");
        }
        return apply;
    }
}
