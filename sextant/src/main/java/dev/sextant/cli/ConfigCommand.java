package dev.sextant.cli;

import dev.sextant.acl.RequiredAcl;
import dev.sextant.acl.RequiredAcls;
import dev.sextant.acl.SourceTopicReads;
import dev.sextant.config.ConfigDocs;
import dev.sextant.config.InvalidConfigurationException;
import dev.sextant.config.SextantConfig;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code sextant config check -c FILE}, {@code sextant config docs} and {@code sextant config acls -c FILE [--format
 * text|json|strimzi]}.
 */
@Command(name = "config", mixinStandardHelpOptions = true,
        description = "Checks a configuration file, prints the reference of every key, or the ACLs Sextant needs.",
        subcommands = {ConfigCommand.Check.class, ConfigCommand.Docs.class, ConfigCommand.Acls.class})
final class ConfigCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** No subcommand given: bad usage, as for {@code sextant} alone. */
    @Override
    public Integer call() {
        return NoCommandGiven.usage(spec);
    }

    @Command(name = "check", mixinStandardHelpOptions = true,
            description = {"Validates a configuration file (and SEXTANT_* environment variables) as 'run' does, "
                    + "without connecting to any cluster.",
                    "An invalid configuration exits 2 with the message 'run' gives, for every problem found: the "
                            + "key, what it accepts, the closest valid key (or, for a MirrorMaker 2 key, Sextant's). "
                            + "With -o json (--json) the verdict is a JSON document on stdout (-o yaml: the same in "
                            + "YAML), {\"valid\":true,...,\"warnings\"} or {\"valid\":false,\"key\",\"message\","
                            + "\"problems\":[{\"key\",\"message\"}]}, with the same exit codes.",
                    // $${ is picocli's escape of a literal ${
                    "--offline: for CI, where neither the secrets nor the paths they are mounted at exist: no config "
                            + "provider is opened and no $${provider:path:key} reference resolved; each is checked "
                            + "instead (well formed, its provider listed in config.providers with a class, its path "
                            + "under the provider's allowed.paths), and the files the configuration names (TLS "
                            + "stores) are not looked for. A class not on this classpath (a plugin's) is a warning. "
                            + "Every key and every other value is checked as without it."})
    static final class Check implements Callable<Integer> {

        @CommandLine.Mixin
        ConfigOption config;

        @CommandLine.Option(names = "--offline", description = "Check without reading secrets or files: config-"
                + "provider references are checked, not resolved (for CI).")
        boolean offline;

        @CommandLine.Mixin
        OutputOption output;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        /**
         * The {@code --json} verdict; {@code key} and {@code message} only when not valid (the first problem's key,
         * and the message 'run' gives), {@code problems} every problem, {@code warnings} what is doubtful.
         */
        record VerdictJson(boolean valid, String file, String applicationId, String sourceAlias,
                           String destinationAlias, String translation, String key, String message,
                           List<ProblemJson> problems, List<String> warnings) {

            static VerdictJson valid(String file, SextantConfig loaded) {
                return new VerdictJson(true, file, loaded.applicationId(), loaded.sourceAlias(),
                        loaded.destinationAlias(), loaded.translation().configValue(), null, null, List.of(),
                        loaded.warnings());
            }

            static VerdictJson invalid(String file, InvalidConfigurationException e) {
                return new VerdictJson(false, file, null, null, null, null, e.key(), e.getMessage(),
                        e.problems().stream().map(p -> new ProblemJson(p.key(), p.getMessage())).toList(), List.of());
            }
        }

        /** One problem of the {@code --json} verdict: the key at fault (null for the file) and why. */
        record ProblemJson(String key, String message) {
        }

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            OutputFormat format = output.format(spec.commandLine());
            if (!format.structured()) {
                SextantConfig loaded = load(); // throws InvalidConfigurationException: exit 2, as 'run'
                out.printf("%s: valid%s (application.id %s, %s -> %s, translation %s)%n",
                        config.file, offline ? " offline, config-provider references not resolved" : "",
                        loaded.applicationId(), loaded.sourceAlias(), loaded.destinationAlias(),
                        loaded.translation().configValue());
                return ExitCodes.OK;
            }
            String file = config.file.toString();
            try {
                out.println(format.write(VerdictJson.valid(file, load())));
                return ExitCodes.OK;
            } catch (InvalidConfigurationException e) {
                out.println(format.write(VerdictJson.invalid(file, e)));
                return ExitCodes.USAGE;
            } finally {
                out.flush();
            }
        }

        private SextantConfig load() {
            return offline ? config.loadOffline() : config.load();
        }
    }

    @Command(name = "acls", mixinStandardHelpOptions = true,
            description = {"Prints what grants Sextant exactly what it needs on each cluster for this configuration "
                    + "(least privilege; docs/security.md explains each one): the kafka-acls commands, or a Strimzi "
                    + "KafkaUser per cluster.",
                    "--format text (the default): the kafka-acls commands. --format json (or -o json, --json; -o yaml: "
                            + "the same tree in YAML): per cluster, "
                            + "each ACL (resource, pattern, operations, why) and its command. --format strimzi: YAML, "
                            + "a KafkaUser (kafka.strimzi.io/v1beta2, or v1 with --strimzi-api-version v1: Strimzi 1.0 "
                            + "serves v1 only) per cluster, separated by ---, "
                            + "with these ACLs (spec.authorization type simple, host *): named after the "
                            + "principal's user name (--source-principal User:NAME), labelled strimzi.io/cluster with "
                            + "the cluster's Kafka resource (--source-strimzi-cluster, default the cluster's alias), "
                            + "spec.authentication from --authentication or the cluster's settings. deploy/strimzi is "
                            + "a worked example.",
                    "With translation.interpolation=verified, Read on the source's topics (to prove intervals "
                            + "between offset syncs by their records) is granted on the mirrored topics only: those "
                            + "topics.include names when it is a list of names and prefixes (orders|payments\\..*), "
                            + "else those the clusters name now (the offset syncs' topics, and the destination's "
                            + "topics through the replication policy), read with the configuration's settings or "
                            + "--source-admin-config/--destination-admin-config; --mirrored-topics names them, "
                            + "--all-topics-read grants Read on every topic instead. A topic left out keeps "
                            + "MirrorMaker 2's bounded rule; nothing stops.",
                    // $${ is picocli's escape of a literal ${
                    "Config-provider references in secrets ($${dir:...}, $${file:...} in JAAS configs, passwords) "
                            + "are not resolved unless the clusters are read to find the mirrored topics: the ACLs "
                            + "need none, and they may not exist yet."})
    static final class Acls implements Callable<Integer> {

        @CommandLine.Mixin
        ConfigOption config;

        @CommandLine.Mixin
        SourceTopicReadOptions sourceTopicReads;

        @CommandLine.Option(names = "--source-principal", paramLabel = "PRINCIPAL", defaultValue = "User:sextant",
                description = "Sextant's principal on the source cluster (default ${DEFAULT-VALUE}).")
        String sourcePrincipal;

        @CommandLine.Option(names = "--destination-principal", paramLabel = "PRINCIPAL",
                defaultValue = "User:sextant",
                description = "Sextant's principal on the destination cluster (default ${DEFAULT-VALUE}).")
        String destinationPrincipal;

        /** {@code --format}: text, json, yaml, strimzi. */
        static final class FormatConverter extends OutputFormat.Converter {
            FormatConverter() {
                super(OutputFormat.STRIMZI);
            }
        }

        @CommandLine.Option(names = "--format", paramLabel = "FORMAT", converter = FormatConverter.class,
                description = "text (the kafka-acls commands, the default), json, yaml (the json tree), or strimzi "
                        + "(a Strimzi KafkaUser per cluster, YAML).")
        OutputFormat format;

        @CommandLine.Mixin
        OutputOption output;

        @CommandLine.Option(names = "--authentication", paramLabel = "TYPE",
                converter = StrimziKafkaUsers.Authentication.Converter.class,
                description = "--format strimzi: the KafkaUsers' spec.authentication.type, scram-sha-512 or tls "
                        + "(default, per cluster: scram-sha-512 when its security.protocol is SASL_* with "
                        + "sasl.mechanism SCRAM-SHA-512, tls when it is SSL with a keystore, else scram-sha-512).")
        StrimziKafkaUsers.Authentication authentication;

        @CommandLine.Option(names = "--source-strimzi-cluster", paramLabel = "NAME",
                description = "--format strimzi: the source cluster's Kafka resource, the strimzi.io/cluster label "
                        + "(default: source.alias).")
        String sourceStrimziCluster;

        @CommandLine.Option(names = "--destination-strimzi-cluster", paramLabel = "NAME",
                description = "--format strimzi: the destination cluster's Kafka resource (default: "
                        + "destination.alias).")
        String destinationStrimziCluster;

        @CommandLine.Option(names = "--strimzi-api-version", paramLabel = "VERSION",
                converter = StrimziKafkaUsers.ApiVersion.Converter.class,
                description = "--format strimzi: the KafkaUsers' API version, v1beta2 (the default: Strimzi up to "
                        + "0.51) or v1 (Strimzi 0.49 and later; 1.0 serves only v1).")
        StrimziKafkaUsers.ApiVersion apiVersion;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        /** One ACL of the {@code --json} output: what it grants, why, and the command that grants it. */
        record AclJson(String resourceType, String name, String patternType, List<String> operations, String why,
                       String command) {
        }

        /**
         * One cluster of the {@code --json} output; the commands read its bootstrap servers and an admin's client
         * settings from the environment variables named here. {@code notes}: what the ACLs leave out, and why.
         */
        record ClusterJson(String cluster, String principal, String bootstrapVariable, String adminConfigVariable,
                           List<AclJson> acls, List<String> notes) {
        }

        /** The {@code --json} output. */
        record AclsJson(List<ClusterJson> clusters) {
        }

        @Override
        public Integer call() {
            OutputFormat chosen = chosenFormat();
            SextantConfig loaded = config.loadWithoutSecrets();
            PrintWriter out = spec.commandLine().getOut();
            // every option is checked before a cluster is read for the mirrored topics
            List<StrimziKafkaUsers.User> users = chosen != OutputFormat.STRIMZI ? List.of() : List.of(
                    strimziUser(RequiredAcl.Cluster.SOURCE, sourcePrincipal, sourceStrimziCluster,
                            loaded.sourceAlias(), loaded.sourceClientConfig()),
                    strimziUser(RequiredAcl.Cluster.DESTINATION, destinationPrincipal, destinationStrimziCluster,
                            loaded.destinationAlias(), loaded.destinationClientConfig()));
            SourceTopicReads reads = sourceTopicReads.choose(loaded, config::load, spec, spec.commandLine().getErr());
            switch (chosen) {
                case JSON, YAML -> out.println(chosen.write(acls(loaded, reads, sourcePrincipal,
                        destinationPrincipal)));
                case STRIMZI -> out.print(StrimziKafkaUsers.yaml(loaded, reads, users,
                        apiVersion == null ? StrimziKafkaUsers.ApiVersion.V1BETA2 : apiVersion));
                default -> out.print(AclScript.of(loaded, reads, sourcePrincipal, destinationPrincipal));
            }
            out.flush();
            spec.commandLine().getErr().flush();
            return ExitCodes.OK;
        }

        /** {@code --format}, {@code -o}, {@code --json} as {@code -o json}; the Strimzi options with strimzi only. */
        private OutputFormat chosenFormat() {
            OutputFormat chosen = output.format(spec.commandLine(), format, OutputFormat.STRIMZI);
            boolean strimziOptions = authentication != null || sourceStrimziCluster != null
                    || destinationStrimziCluster != null || apiVersion != null;
            if (chosen != OutputFormat.STRIMZI && strimziOptions) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--authentication, "
                        + "--source-strimzi-cluster, --destination-strimzi-cluster and --strimzi-api-version work "
                        + "with --format strimzi only");
            }
            return chosen;
        }

        /**
         * One cluster's KafkaUser from its options ({@code given}: its --*-strimzi-cluster) and settings; a name
         * Kubernetes refuses is bad usage.
         */
        private StrimziKafkaUsers.User strimziUser(RequiredAcl.Cluster cluster, String principal, String given,
                                                   String alias, Map<String, Object> client) {
            String label = cluster.label();
            String name;
            try {
                name = StrimziKafkaUsers.userName(principal);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--" + label + "-principal: "
                        + e.getMessage() + "; with --format strimzi it names the KafkaUser");
            }
            String kafkaOption = "--" + label + "-strimzi-cluster";
            String kafka = given != null ? given : alias;
            if (!StrimziKafkaUsers.isLabelValue(kafka)) {
                throw new CommandLine.ParameterException(spec.commandLine(), (given != null ? kafkaOption + " '"
                        : "the " + label + " alias '") + kafka + "' is no Kubernetes label value (at most 63 letters, "
                        + "digits, '-', '_' and '.'): give the Kafka resource's name with " + kafkaOption + " NAME");
            }
            String kafkaFrom = given != null ? null : label + ".alias, as no " + kafkaOption + " was given: check "
                    + "that it names the Kafka";
            return new StrimziKafkaUsers.User(cluster, name, kafka, kafkaFrom, strimziAuthentication(label, client),
                    authenticationFrom(label, client));
        }

        private StrimziKafkaUsers.Authentication strimziAuthentication(String label, Map<String, Object> client) {
            if (authentication != null) {
                return authentication;
            }
            Optional<StrimziKafkaUsers.Authentication> detected = StrimziKafkaUsers.detect(client);
            if (detected.isEmpty()) {
                warnWhenSecuredOtherwise(label, client);
            }
            return detected.orElse(StrimziKafkaUsers.Authentication.SCRAM_SHA_512);
        }

        /** Why {@link #strimziAuthentication}, for the KafkaUser's comment. */
        private String authenticationFrom(String label, Map<String, Object> client) {
            Optional<StrimziKafkaUsers.Authentication> detected = StrimziKafkaUsers.detect(client);
            if (authentication != null) {
                return "--authentication";
            }
            if (detected.isEmpty()) {
                return "the default: the " + label + " settings use neither SCRAM-SHA-512 nor a TLS keystore";
            }
            return "from " + label + ".security.protocol " + StrimziKafkaUsers.setting(client,
                    CommonClientConfigs.SECURITY_PROTOCOL_CONFIG) + (detected.get()
                    == StrimziKafkaUsers.Authentication.TLS ? " with a keystore"
                    : " and " + label + ".sasl.mechanism SCRAM-SHA-512");
        }

        /** A cluster secured some way a KafkaUser cannot give (PLAIN, OAUTHBEARER, ...): said on stderr. */
        private void warnWhenSecuredOtherwise(String label, Map<String, Object> client) {
            String protocol = StrimziKafkaUsers.setting(client, CommonClientConfigs.SECURITY_PROTOCOL_CONFIG);
            if (protocol.isEmpty() || protocol.equals("PLAINTEXT")) {
                return;
            }
            String mechanism = StrimziKafkaUsers.setting(client, SaslConfigs.SASL_MECHANISM);
            spec.commandLine().getErr().println("warning: " + label + ".security.protocol " + protocol
                    + (protocol.startsWith("SASL_") ? " with sasl.mechanism " + (mechanism.isEmpty() ? "GSSAPI"
                    : mechanism) : " without a keystore") + ": a Strimzi KafkaUser authenticates with "
                    + "scram-sha-512 or tls; scram-sha-512 assumed (--authentication to choose)");
        }

        static AclsJson acls(SextantConfig loaded, SourceTopicReads reads, String sourcePrincipal,
                             String destinationPrincipal) {
            List<ClusterJson> clusters = new ArrayList<>();
            for (RequiredAcl.Cluster cluster : RequiredAcl.Cluster.values()) {
                String principal = cluster == RequiredAcl.Cluster.SOURCE ? sourcePrincipal
                        : destinationPrincipal;
                List<AclJson> acls = RequiredAcls.of(loaded, reads, cluster).stream().map(acl -> new AclJson(
                        acl.resourceType().name(), acl.name(), acl.patternType().name(),
                        acl.operations().stream().map(Enum::name).toList(), acl.why(),
                        acl.command(principal))).toList();
                clusters.add(new ClusterJson(cluster.label(), principal, bootstrapVariable(cluster),
                        adminConfigVariable(cluster), acls, SourceTopicReadOptions.notes(loaded, reads, cluster)));
            }
            return new AclsJson(clusters);
        }

        private static String bootstrapVariable(RequiredAcl.Cluster cluster) {
            return AclScript.bootstrapVariable(cluster);
        }

        private static String adminConfigVariable(RequiredAcl.Cluster cluster) {
            return AclScript.adminConfigVariable(cluster);
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
            return ExitCodes.OK;
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
