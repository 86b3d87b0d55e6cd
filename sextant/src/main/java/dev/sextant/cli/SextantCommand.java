package dev.sextant.cli;

import dev.sextant.Version;
import dev.sextant.acl.NotAuthorizedException;
import dev.sextant.config.InvalidConfigurationException;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code sextant}: the command line. Exit codes, the same for every command and listed in every command's help (the
 * root's {@code exitCodeList}, given to each subcommand by {@link #commandLine()}; the values in {@link ExitCodes}):
 * 0 success, 1 runtime failure, 2 bad usage or configuration, 3 not authorized. {@code sextant} without a command is
 * bad usage, as with Kafka's tools: the usage on stderr, exit 2; any other usage error is one line
 * ({@link UsageErrorLine}). A command that fails with a document asked for ({@code -o json}) prints an
 * {@link ErrorDocument} on stdout too. Kafka's clients log only errors but under {@code run}
 * ({@link KafkaClientLogging}).
 */
@Command(name = "sextant",
        mixinStandardHelpOptions = true,
        versionProvider = SextantCommand.VersionProvider.class,
        description = "Syncs consumer-group and share-group offsets from a Kafka cluster to its mirror.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:success (for each command: see its description)",
            "1:runtime failure: a cluster or instance did not answer, or what the command checks does not hold "
                    + "(see its description)",
            "2:bad usage or configuration (the message names the option or key and what it accepts)",
            "3:not authorized (a cluster refused an ACL Sextant needs; the message names it)"},
        footer = {"", "The narrated demo (two local clusters, MirrorMaker 2, a failover) is not part of the "
                + "application jar: run it with 'bin/sextant demo' from a source checkout."},
        subcommands = {RunCommand.class, OffsetsCommand.class, TranslateCommand.class,
                StatusCommand.class, FailoverCommand.class, CutoverCommand.class, FailbackConfigCommand.class,
                AdoptCommand.class,
                RebaselineCommand.class,
                ConflictsCommand.class,
                ConfigCommand.class, CompletionCommand.class, VersionCommand.class, CommandLine.HelpCommand.class})
public final class SextantCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Read by {@link KafkaClientLogging} from the parse result; every command has it. */
    @CommandLine.Option(names = KafkaClientLogging.VERBOSE, scope = CommandLine.ScopeType.INHERIT,
            description = "Kafka's clients log their warnings too, as under 'run' (other commands: errors only; "
                    + "SEXTANT_KAFKA_LOG_LEVEL sets any level).")
    boolean verbose;

    /** No command given: bad usage. */
    @Override
    public Integer call() {
        return NoCommandGiven.usage(spec);
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line, also used by tests. */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new SextantCommand());
        shareExitCodes(cli, cli.getCommandSpec().usageMessage());
        cli.setParameterExceptionHandler(new UsageErrorLine());
        cli.setExecutionStrategy(parsed -> {
            try (KafkaClientLogging.Restore quiet = KafkaClientLogging.forCommand(parsed, System.getenv())) {
                return new CommandLine.RunLast().execute(parsed);
            }
        });
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            String[] args = parseResult.originalArgs().toArray(String[]::new);
            String command = commandLine.getCommandSpec().qualifiedName();
            if (e instanceof InvalidConfigurationException invalid) {
                commandLine.getErr().println("Invalid configuration: " + e.getMessage());
                new ErrorDocument(e.getMessage(), command, ExitCodes.USAGE, ErrorDocument.CONFIGURATION,
                        invalid.key()).printIfAsked(commandLine, args);
                return ExitCodes.USAGE;
            }
            if (e instanceof NotAuthorizedException) {
                commandLine.getErr().println("Not authorized: " + e.getMessage());
                new ErrorDocument(e.getMessage(), command, ExitCodes.NOT_AUTHORIZED, ErrorDocument.NOT_AUTHORIZED,
                        null).printIfAsked(commandLine, args);
                return ExitCodes.NOT_AUTHORIZED;
            }
            commandLine.getErr().println("sextant: " + e.getMessage());
            if (System.getenv("SEXTANT_DEBUG") != null) {
                e.printStackTrace(commandLine.getErr());
            }
            new ErrorDocument(String.valueOf(e.getMessage()), command, ExitCodes.FAILURE, ErrorDocument.FAILURE,
                    null).printIfAsked(commandLine, args);
            return ExitCodes.FAILURE;
        });
        return cli;
    }

    /** Every command's help lists the exit codes the root declares: they are the same for every command. */
    private static void shareExitCodes(CommandLine command, CommandLine.Model.UsageMessageSpec root) {
        for (CommandLine sub : command.getSubcommands().values()) {
            sub.getCommandSpec().usageMessage().exitCodeListHeading(root.exitCodeListHeading())
                    .exitCodeList(root.exitCodeList());
            shareExitCodes(sub, root);
        }
    }

    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"sextant " + Version.current() + " (Kafka clients " + Version.kafka() + ")"};
        }
    }
}
