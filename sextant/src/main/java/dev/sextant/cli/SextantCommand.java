package dev.sextant.cli;

import dev.sextant.Version;
import dev.sextant.acl.NotAuthorizedException;
import dev.sextant.config.InvalidConfigurationException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code sextant}: the command line. Exit codes: 0 success, 2 bad usage or configuration, 1 runtime failure.
 */
@Command(name = "sextant",
        mixinStandardHelpOptions = true,
        versionProvider = SextantCommand.VersionProvider.class,
        description = "Syncs consumer-group and share-group offsets from a Kafka cluster to its mirror.",
        footer = {"", "The narrated demo (two local clusters, MirrorMaker 2, a failover) is not part of the "
                + "application jar: run it with 'bin/sextant demo' from a source checkout."},
        subcommands = {RunCommand.class, OffsetsCommand.class, TranslateCommand.class,
                StatusCommand.class, FailoverCommand.class, AdoptCommand.class, ConflictsCommand.class,
                ConfigCommand.class, CompletionCommand.class, VersionCommand.class, CommandLine.HelpCommand.class})
public final class SextantCommand implements Runnable {

    static final int EXIT_OK = 0;
    static final int EXIT_FAILURE = 1;
    static final int EXIT_USAGE = 2;
    /** A cluster refused Sextant's principal something it needs; the message names the ACL to grant. */
    static final int EXIT_NOT_AUTHORIZED = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line, also used by tests. */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new SextantCommand());
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof InvalidConfigurationException) {
                commandLine.getErr().println("Invalid configuration: " + e.getMessage());
                return EXIT_USAGE;
            }
            if (e instanceof NotAuthorizedException) {
                commandLine.getErr().println("Not authorized: " + e.getMessage());
                return EXIT_NOT_AUTHORIZED;
            }
            commandLine.getErr().println("sextant: " + e.getMessage());
            if (System.getenv("SEXTANT_DEBUG") != null) {
                e.printStackTrace(commandLine.getErr());
            }
            return EXIT_FAILURE;
        });
        return cli;
    }

    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"sextant " + Version.current() + " (Kafka clients " + Version.kafka() + ")"};
        }
    }
}
