package dev.sextant.cli;

import dev.sextant.acl.RequiredAcl;
import dev.sextant.acl.RequiredAcls;
import dev.sextant.config.ConfigDocs;
import dev.sextant.config.InvalidConfigurationException;
import dev.sextant.config.SextantConfig;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code sextant config check -c FILE}, {@code sextant config docs} and {@code sextant config acls -c FILE}. */
@Command(name = "config", mixinStandardHelpOptions = true,
        description = "Checks a configuration file, prints the reference of every key, or the ACLs Sextant needs.",
        subcommands = {ConfigCommand.Check.class, ConfigCommand.Docs.class, ConfigCommand.Acls.class})
final class ConfigCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** No subcommand given: bad usage, as for {@code sextant} alone. */
    @Override
    public Integer call() {
        return SextantCommand.usageError(spec);
    }

    @Command(name = "check", mixinStandardHelpOptions = true,
            description = {"Validates a configuration file (and SEXTANT_* environment variables) as 'run' does, "
                    + "without connecting to any cluster.",
                    "An invalid configuration exits 2 with the message 'run' gives: the key, what it accepts, the "
                            + "closest valid key. With --json the verdict is a JSON document on stdout, "
                            + "{\"valid\":true,...} or {\"valid\":false,\"key\",\"message\"}, with the same exit "
                            + "codes."})
    static final class Check implements Callable<Integer> {

        @CommandLine.Mixin
        ConfigOption config;

        @CommandLine.Option(names = "--json", description = "The verdict as JSON on stdout.")
        boolean json;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        /** The {@code --json} verdict; {@code key} and {@code message} only when not valid. */
        record VerdictJson(boolean valid, String file, String applicationId, String sourceAlias,
                           String destinationAlias, String translation, String key, String message) {

            static VerdictJson valid(String file, SextantConfig loaded) {
                return new VerdictJson(true, file, loaded.applicationId(), loaded.sourceAlias(),
                        loaded.destinationAlias(), loaded.translation().configValue(), null, null);
            }

            static VerdictJson invalid(String file, InvalidConfigurationException e) {
                return new VerdictJson(false, file, null, null, null, null, e.key(), e.getMessage());
            }
        }

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            if (!json) {
                SextantConfig loaded = config.load(); // throws InvalidConfigurationException: exit 2, as 'run'
                out.printf("%s: valid (application.id %s, %s -> %s, translation %s)%n",
                        config.file, loaded.applicationId(), loaded.sourceAlias(), loaded.destinationAlias(),
                        loaded.translation().configValue());
                return SextantCommand.EXIT_OK;
            }
            String file = config.file.toString();
            try {
                out.println(Json.write(VerdictJson.valid(file, config.load())));
                return SextantCommand.EXIT_OK;
            } catch (InvalidConfigurationException e) {
                out.println(Json.write(VerdictJson.invalid(file, e)));
                return SextantCommand.EXIT_USAGE;
            } finally {
                out.flush();
            }
        }
    }

    @Command(name = "acls", mixinStandardHelpOptions = true,
            description = {"Prints the kafka-acls commands that grant Sextant exactly what it needs on each cluster "
                    + "for this configuration (least privilege; docs/security.md explains each one).",
                    "With --json: per cluster, each ACL (resource, pattern, operations, why) and its command."})
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

        @CommandLine.Option(names = "--json", description = "JSON instead of the commands.")
        boolean json;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        /** One ACL of the {@code --json} output: what it grants, why, and the command that grants it. */
        record AclJson(String resourceType, String name, String patternType, List<String> operations, String why,
                       String command) {
        }

        /**
         * One cluster of the {@code --json} output; the commands read its bootstrap servers and an admin's client
         * settings from the environment variables named here.
         */
        record ClusterJson(String cluster, String principal, String bootstrapVariable, String adminConfigVariable,
                           List<AclJson> acls) {
        }

        /** The {@code --json} output. */
        record AclsJson(List<ClusterJson> clusters) {
        }

        @Override
        public Integer call() {
            SextantConfig loaded = config.load();
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                out.println(Json.write(acls(loaded, sourcePrincipal, destinationPrincipal)));
            } else {
                out.print(commands(loaded, sourcePrincipal, destinationPrincipal));
            }
            out.flush();
            return SextantCommand.EXIT_OK;
        }

        static String commands(SextantConfig loaded, String sourcePrincipal, String destinationPrincipal) {
            StringBuilder out = new StringBuilder();
            for (RequiredAcl.Cluster cluster : RequiredAcl.Cluster.values()) {
                String principal = cluster == RequiredAcl.Cluster.SOURCE ? sourcePrincipal
                        : destinationPrincipal;
                out.append("# ").append(cluster.label()).append(" cluster: $").append(bootstrapVariable(cluster))
                        .append(", with an admin's client settings in $").append(adminConfigVariable(cluster))
                        .append('\n');
                for (RequiredAcl acl : RequiredAcls.of(loaded, cluster)) {
                    out.append("# ").append(acl.why()).append('\n').append(acl.command(principal)).append('\n');
                }
                out.append('\n');
            }
            return out.toString();
        }

        static AclsJson acls(SextantConfig loaded, String sourcePrincipal, String destinationPrincipal) {
            List<ClusterJson> clusters = new ArrayList<>();
            for (RequiredAcl.Cluster cluster : RequiredAcl.Cluster.values()) {
                String principal = cluster == RequiredAcl.Cluster.SOURCE ? sourcePrincipal
                        : destinationPrincipal;
                List<AclJson> acls = RequiredAcls.of(loaded, cluster).stream().map(acl -> new AclJson(
                        acl.resourceType().name(), acl.name(), acl.patternType().name(),
                        acl.operations().stream().map(Enum::name).toList(), acl.why(),
                        acl.command(principal))).toList();
                clusters.add(new ClusterJson(cluster.label(), principal, bootstrapVariable(cluster),
                        adminConfigVariable(cluster), acls));
            }
            return new AclsJson(clusters);
        }

        private static String bootstrapVariable(RequiredAcl.Cluster cluster) {
            return cluster.name() + "_BOOTSTRAP";
        }

        private static String adminConfigVariable(RequiredAcl.Cluster cluster) {
            return cluster.name() + "_ADMIN_CONFIG";
        }
    }

    @Command(name = "docs", mixinStandardHelpOptions = true,
            description = {"Prints docs/configuration.md: every configuration key with its environment variable, "
                    + "default, accepted values and meaning, generated from the definitions 'run' validates with."})
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
