package dev.sextant.cli;

import dev.sextant.acl.RequiredAcl;
import dev.sextant.acl.RequiredAcls;
import dev.sextant.config.ConfigDocs;
import dev.sextant.config.SextantConfig;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code sextant config check -c FILE}, {@code sextant config docs} and {@code sextant config acls -c FILE}. */
@Command(name = "config", mixinStandardHelpOptions = true,
        description = {"Checks a configuration file, or prints the reference of every key.",
                "Exit codes: 0 ok, 2 bad usage or an invalid configuration."},
        subcommands = {ConfigCommand.Check.class, ConfigCommand.Docs.class, ConfigCommand.Acls.class})
final class ConfigCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "check", mixinStandardHelpOptions = true,
            description = {"Validates a configuration file (and SEXTANT_* environment variables) as 'run' does, "
                    + "without connecting to any cluster.",
                    "Exit codes: 0 valid, 2 invalid (with the same message 'run' gives: the key, what it accepts, "
                            + "the closest valid key)."})
    static final class Check implements Callable<Integer> {

        @CommandLine.Mixin
        ConfigOption config;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            SextantConfig loaded = config.load(); // throws InvalidConfigurationException: exit 2, as 'run'
            spec.commandLine().getOut().printf("%s: valid (application.id %s, %s -> %s, translation %s)%n",
                    config.file, loaded.applicationId(), loaded.sourceAlias(), loaded.destinationAlias(),
                    loaded.translation().configValue());
            return SextantCommand.EXIT_OK;
        }
    }

    @Command(name = "acls", mixinStandardHelpOptions = true,
            description = {"Prints the kafka-acls commands that grant Sextant exactly what it needs on each cluster "
                    + "for this configuration (least privilege; docs/security.md explains each one).",
                    "Exit codes: 0 printed, 2 invalid configuration."})
    static final class Acls implements Callable<Integer> {

        @CommandLine.Mixin
        ConfigOption config;

        @CommandLine.Option(names = "--source-principal", paramLabel = "PRINCIPAL", defaultValue = "User:sextant",
                description = "Sextant's principal on the source cluster (default ${DEFAULT-VALUE}).")
        String sourcePrincipal;

        @CommandLine.Option(names = "--destination-principal", paramLabel = "PRINCIPAL",
                defaultValue = "User:sextant",
                description = "Sextant's principal on the destination cluster (default ${DEFAULT-VALUE}).")
        String destinationPrincipal;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            spec.commandLine().getOut().print(commands(config.load(), sourcePrincipal, destinationPrincipal));
            spec.commandLine().getOut().flush();
            return SextantCommand.EXIT_OK;
        }

        static String commands(SextantConfig loaded, String sourcePrincipal, String destinationPrincipal) {
            StringBuilder out = new StringBuilder();
            for (RequiredAcl.Cluster cluster : RequiredAcl.Cluster.values()) {
                String principal = cluster == RequiredAcl.Cluster.SOURCE ? sourcePrincipal
                        : destinationPrincipal;
                out.append("# ").append(cluster.label()).append(" cluster: $").append(cluster.name())
                        .append("_BOOTSTRAP, with an admin's client settings in $").append(cluster.name())
                        .append("_ADMIN_CONFIG\n");
                for (RequiredAcl acl : RequiredAcls.of(loaded, cluster)) {
                    out.append("# ").append(acl.why()).append('\n').append(acl.command(principal)).append('\n');
                }
                out.append('\n');
            }
            return out.toString();
        }
    }

    @Command(name = "docs", mixinStandardHelpOptions = true,
            description = {"Prints docs/configuration.md: every configuration key with its environment variable, "
                    + "default, accepted values and meaning, generated from the definitions 'run' validates with.",
                    "Exit codes: 0."})
    static final class Docs implements Callable<Integer> {

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            spec.commandLine().getOut().print(reference());
            spec.commandLine().getOut().flush();
            return SextantCommand.EXIT_OK;
        }
    }

    /** The content of {@code docs/configuration.md}. */
    static String reference() {
        return "# Configuration reference\n\n"
                + "Generated by `bin/sextant config docs` from the definitions Sextant validates with (a test fails "
                + "when this file is stale). Keys go in the file given to `-c`; every key can also come from an "
                + "environment variable, which wins. `bin/sextant config check -c FILE` validates a file. A "
                + "commented example: [config/sextant.properties](../config/sextant.properties).\n\n"
                + ConfigDocs.markdown();
    }
}
