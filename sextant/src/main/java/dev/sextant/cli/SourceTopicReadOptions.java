package dev.sextant.cli;

import dev.sextant.acl.MirroredSourceTopics;
import dev.sextant.acl.RequiredAcl;
import dev.sextant.acl.RequiredAcls;
import dev.sextant.acl.SourceTopicReads;
import dev.sextant.acl.TopicsIncludePatterns;
import dev.sextant.config.InvalidConfigurationException;
import dev.sextant.config.SextantConfig;
import dev.sextant.config.SextantConfigLoader;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.resource.ResourcePattern;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options of {@code config acls} that choose which source topics Sextant is granted Read on, to prove intervals
 * between offset syncs ({@code translation.interpolation=verified}), and the choice they make. By default only the
 * mirrored topics: those {@code topics.include} names when it is a list of names and prefixes, else those the
 * clusters name now (the offset syncs, and the destination's topics through the replication policy).
 * {@code --all-topics-read} is the wider grant, every topic, which a newly mirrored topic needs nothing more under.
 */
final class SourceTopicReadOptions {

    /** How long each cluster may take to answer: the command must not hang on a cluster it cannot reach. */
    static final Duration READ_TIMEOUT = Duration.ofSeconds(15);
    private static final Pattern TOPIC_PREFIX = Pattern.compile("[a-zA-Z0-9._-]+");

    /** What to do when no mirrored topic was found. */
    static final String HOW_TO_GRANT = "Name them with --mirrored-topics, read the clusters as an admin with "
            + "--source-admin-config and --destination-admin-config, or grant Read on every topic with "
            + "--all-topics-read";

    @Option(names = "--all-topics-read",
            description = "With translation.interpolation=verified: grant Read on every source topic (the wildcard "
                    + "*) instead of on the mirrored topics only: wider, but a topic MirrorMaker 2 begins to mirror "
                    + "later needs no new ACL. Reads no cluster.")
    boolean allTopicsRead;

    @Option(names = "--mirrored-topics", paramLabel = "TOPIC", split = ",",
            description = "With translation.interpolation=verified: the source topics MirrorMaker 2 mirrors, to "
                    + "grant Read on (comma-separated; a name ending in * is a prefix: 'orders.*' is every topic "
                    + "whose name begins with 'orders.'). Reads no cluster.")
    List<String> mirroredTopics;

    @Option(names = "--source-admin-config", paramLabel = "FILE",
            description = "Client settings (a properties file, as kafka-acls.sh --command-config takes) to read the "
                    + "source cluster with when finding the mirrored topics, instead of the configuration's source.* "
                    + "settings; its bootstrap.servers defaults to source.bootstrap.servers.")
    Path sourceAdminConfig;

    @Option(names = "--destination-admin-config", paramLabel = "FILE",
            description = "The same for the destination cluster, whose topics name the mirrored topics through the "
                    + "replication policy.")
    Path destinationAdminConfig;

    /**
     * The choice for {@code config}; what the operator should know on the way (a cluster not read, no topic found)
     * goes to {@code err}.
     *
     * @param withSecrets the configuration with its secrets resolved, to read the clusters with Sextant's own
     *                    settings
     * @throws CommandLine.ParameterException for options that do not go together or a bad value
     */
    SourceTopicReads choose(SextantConfig config, Supplier<SextantConfig> withSecrets,
                            CommandLine.Model.CommandSpec spec, PrintWriter err) {
        boolean adminConfig = sourceAdminConfig != null || destinationAdminConfig != null;
        if (allTopicsRead && mirroredTopics != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--all-topics-read and --mirrored-topics "
                    + "choose the same thing: give one");
        }
        if (adminConfig && (allTopicsRead || mirroredTopics != null)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--source-admin-config and "
                    + "--destination-admin-config read the clusters to find the mirrored topics: not with "
                    + "--all-topics-read or --mirrored-topics, which read none");
        }
        if (!RequiredAcls.provesIntervals(config)) {
            if (adminConfig || allTopicsRead || mirroredTopics != null) {
                err.println("warning: Sextant reads no topic's records with translation="
                        + config.translation().configValue() + " and translation.interpolation="
                        + config.interpolation().configValue() + ": the options that choose the topics it may read "
                        + "change nothing");
            }
            return SourceTopicReads.only(List.of(), "not read: translation.interpolation is not verified");
        }
        if (allTopicsRead) {
            return SourceTopicReads.everyTopic("--all-topics-read: a topic mirrored later needs no new ACL");
        }
        if (mirroredTopics != null) {
            return named(patterns(spec));
        }
        Optional<List<ResourcePattern>> included = TopicsIncludePatterns.of(config.topicsInclude().pattern());
        if (included.isPresent()) {
            return SourceTopicReads.only(included.get(), "as topics.include names them: Sextant syncs no other topic");
        }
        return found(config, withSecrets, spec, err);
    }

    /**
     * What the ACLs of {@code cluster} leave out that Sextant would use, for the output: Read on the mirrored topics
     * when none were found.
     */
    static List<String> notes(SextantConfig config, SourceTopicReads reads, RequiredAcl.Cluster cluster) {
        if (cluster != RequiredAcl.Cluster.SOURCE || !RequiredAcls.provesIntervals(config)) {
            return List.of();
        }
        return reads.shortfall().map(s -> List.of(s + ". " + HOW_TO_GRANT + ".")).orElse(List.of());
    }

    /** Read on {@code topics}, as {@code --mirrored-topics} names them. */
    static SourceTopicReads named(List<ResourcePattern> topics) {
        return SourceTopicReads.only(topics, "named by --mirrored-topics");
    }

    /** {@code --mirrored-topics} as patterns: a name, or a prefix ending in {@code *}. */
    private List<ResourcePattern> patterns(CommandLine.Model.CommandSpec spec) {
        List<ResourcePattern> patterns = new ArrayList<>();
        for (String entry : mirroredTopics) {
            String name = entry.trim();
            boolean prefix = name.endsWith("*");
            String stem = prefix ? name.substring(0, name.length() - 1) : name;
            if (prefix ? !TOPIC_PREFIX.matcher(stem).matches() : !Topic.isValid(stem)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--mirrored-topics: '" + entry
                        + "' is no topic name" + (prefix ? " prefix" : "") + " (letters, digits, '.', '_' and '-'; a "
                        + "prefix ends in *)");
            }
            patterns.add(prefix ? SourceTopicReads.prefixed(stem) : SourceTopicReads.literal(stem));
        }
        return patterns;
    }

    /** The mirrored topics the clusters name now, each by name; what could not be read is said on {@code err}. */
    private SourceTopicReads found(SextantConfig config, Supplier<SextantConfig> withSecrets,
                                   CommandLine.Model.CommandSpec spec, PrintWriter err) {
        List<String> unread = new ArrayList<>();
        Optional<SextantConfig> own = Optional.empty();
        if (sourceAdminConfig == null || destinationAdminConfig == null) {
            try {
                own = Optional.of(withSecrets.get());
            } catch (InvalidConfigurationException e) {
                unread.add("the configuration's client settings: " + e.getMessage());
            }
        }
        Optional<Map<String, Object>> source = sourceAdminConfig != null
                ? Optional.of(adminSettings(spec, "--source-admin-config", sourceAdminConfig,
                config.sourceClientConfig()))
                : own.map(SextantConfig::sourceClientConfig);
        Optional<Map<String, Object>> destination = destinationAdminConfig != null
                ? Optional.of(adminSettings(spec, "--destination-admin-config", destinationAdminConfig,
                config.destinationClientConfig()))
                : own.map(SextantConfig::destinationClientConfig);
        MirroredSourceTopics.Found found = MirroredSourceTopics.read(config, source, destination, READ_TIMEOUT);
        unread.addAll(found.unread());
        if (found.topics().isEmpty()) {
            SourceTopicReads none = SourceTopicReads.only(List.of(), unread.isEmpty()
                    ? "neither the offset syncs nor the destination's topics name a mirrored topic yet"
                    : "the mirrored topics could not be found (" + String.join("; ", unread) + ")");
            err.println("warning: " + none.shortfall().orElseThrow() + ". " + HOW_TO_GRANT);
            return none;
        }
        // some topics found: what was not read may hide others, so it is said
        for (String what : unread) {
            err.println("warning: not read, so its mirrored topics may be missing from the ACLs: " + what);
        }
        return SourceTopicReads.only(found.topics().stream().map(SourceTopicReads::literal).toList(),
                "as the clusters name the mirrored topics now: print these again when MirrorMaker 2 mirrors "
                        + "another topic");
    }

    /** An admin's client settings from {@code file}, with the cluster's bootstrap servers unless it names its own. */
    private static Map<String, Object> adminSettings(CommandLine.Model.CommandSpec spec, String option, Path file,
                                                     Map<String, Object> cluster) {
        Map<String, Object> settings = new HashMap<>();
        try {
            settings.putAll(SextantConfigLoader.readFile(file));
        } catch (InvalidConfigurationException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), option + ": " + e.getMessage());
        }
        settings.putIfAbsent(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
                cluster.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG));
        return settings;
    }
}
