package dev.sextant.config;

import static dev.sextant.config.ConfigKeys.DESTINATION_ALIAS_CONFIG;
import static dev.sextant.config.ConfigKeys.DESTINATION_ALIAS_DEFAULT;
import static dev.sextant.config.ConfigKeys.DESTINATION_PREFIX;
import static dev.sextant.config.ConfigKeys.DLQ_TOPIC_REPLICATION_FACTOR_CONFIG;
import static dev.sextant.config.ConfigKeys.EMIT_CHECKPOINTS_ENABLED_CONFIG;
import static dev.sextant.config.ConfigKeys.GROUPS_EXCLUDE_CONFIG;
import static dev.sextant.config.ConfigKeys.GROUPS_INCLUDE_CONFIG;
import static dev.sextant.config.ConfigKeys.OFFSET_SYNCS_TOPIC_CONFIG;
import static dev.sextant.config.ConfigKeys.REPLICATION_POLICY_CONFIG;
import static dev.sextant.config.ConfigKeys.SOURCE_ALIAS_CONFIG;
import static dev.sextant.config.ConfigKeys.SOURCE_ALIAS_DEFAULT;
import static dev.sextant.config.ConfigKeys.SOURCE_PREFIX;
import static dev.sextant.config.ConfigKeys.STREAMS_PREFIX;
import static dev.sextant.config.ConfigKeys.SYNC_CONSUMER_GROUPS_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_INTERVAL_MS_CONFIG;
import static dev.sextant.config.ConfigKeys.TOPICS_EXCLUDE_CONFIG;
import static dev.sextant.config.ConfigKeys.TOPICS_INCLUDE_CONFIG;
import static dev.sextant.config.ConfigKeys.TRANSLATION_CONFIG;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.streams.StreamsConfig;

/**
 * MirrorMaker 2's keys, and what Sextant has instead: an operator who runs MirrorMaker 2 writes its keys first
 * ({@code clusters}, {@code groups}, {@code <alias>.bootstrap.servers}, {@code <source>-><target>.*},
 * {@code sync.group.offsets.*}, ...), and each is answered with the Sextant key to use, or why none is needed.
 *
 * <p>Only keys that are not Sextant's own are looked up here: MirrorMaker 2's keys that Sextant shares
 * ({@code groups.exclude}, {@code topics.exclude}, {@code emit.checkpoints.enabled},
 * {@code replication.policy.separator}, ...) mean the same in both.
 */
final class MirrorMakerKeys {

    private static final String ALIASES = "source.alias and destination.alias";
    private static final String NOT_MIRRORED = "Sextant syncs group offsets only: MirrorMaker 2 keeps mirroring "
            + "the topics";
    private static final String STREAMS_REPLICATION_FACTOR = STREAMS_PREFIX + StreamsConfig.REPLICATION_FACTOR_CONFIG;
    private static final List<String> CLIENT_PREFIXES = List.of("consumer.", "producer.", "admin.");
    private static final List<String> CONNECT_TOPIC_PREFIXES = List.of("offset.storage.", "config.storage.",
            "status.storage.");

    private static final Map<String, Counterpart> KEYS = keys();

    /**
     * What Sextant has for a MirrorMaker 2 key.
     *
     * @param instead the Sextant key to use; null when none is needed, or when the fix names two
     * @param why     what Sextant does instead, in words
     * @param fix     what to do with the key
     */
    record Counterpart(String instead, String why, String fix) {
    }

    private MirrorMakerKeys() {
    }

    /**
     * What Sextant has for {@code key}, when it is MirrorMaker 2's and not Sextant's.
     *
     * @param value the key's value as written
     * @param props the whole configuration: its aliases ({@code clusters}, {@code source.alias},
     *              {@code destination.alias}) tell a cluster's keys
     */
    static Optional<Counterpart> counterpart(String key, String value, Map<String, ?> props) {
        Counterpart known = KEYS.get(key);
        if (known != null) {
            return Optional.of(withValue(known, value));
        }
        int flow = key.indexOf("->");
        int dot = key.indexOf('.');
        if (flow > 0 && dot > flow) {
            return Optional.of(flowKey(key.substring(0, flow), key.substring(flow + 2, dot),
                    key.substring(dot + 1), value, props));
        }
        for (String[] cluster : List.of(new String[] {"source.cluster.", SOURCE_PREFIX},
                new String[] {"target.cluster.", DESTINATION_PREFIX})) {
            if (key.startsWith(cluster[0]) && key.length() > cluster[0].length()) {
                String instead = cluster[1] + key.substring(cluster[0].length());
                return Optional.of(new Counterpart(instead, "MirrorMaker 2's connectors name the clusters' "
                        + "settings " + cluster[0] + "*; Sextant's are " + cluster[1] + "*",
                        "use '" + instead + "=" + value + "' instead"));
            }
        }
        for (String prefix : CONNECT_TOPIC_PREFIXES) {
            if (key.startsWith(prefix)) {
                return Optional.of(new Counterpart(null, "not needed: Kafka Connect's internal topics; Sextant keeps "
                        + "its state in Kafka Streams' internal topics (their replication factor: '"
                        + STREAMS_REPLICATION_FACTOR + "')", "remove it"));
            }
        }
        if (PassThroughKeys.isClientConfig(key) && PassThroughKeys.prefixOf(key).isEmpty()) {
            return Optional.of(new Counterpart(null, "MirrorMaker 2 gives a top-level client setting to every "
                    + "cluster; Sextant's are per cluster, '" + SOURCE_PREFIX + key + "' and '" + DESTINATION_PREFIX
                    + key + "'", "use '" + SOURCE_PREFIX + key + "=" + value + "' and/or '" + DESTINATION_PREFIX + key
                    + "=" + value + "' instead"));
        }
        return dot > 0 ? clusterKey(key.substring(0, dot), key.substring(dot + 1), value, props)
                : Optional.empty();
    }

    /** {@code <source>-><target>.<rest>}. */
    private static Counterpart flowKey(String source, String target, String rest, String value,
                                       Map<String, ?> props) {
        String oneFlow = "one Sextant syncs one flow, from " + SOURCE_ALIAS_CONFIG + " to "
                + DESTINATION_ALIAS_CONFIG + " (" + source + "->" + target + ": " + SOURCE_ALIAS_CONFIG + "=" + source
                + ", " + DESTINATION_ALIAS_CONFIG + "=" + target + "; another flow, another Sextant), so its keys "
                + "carry no flow";
        String setAliases = "set '" + SOURCE_ALIAS_CONFIG + "=" + source + "' and '" + DESTINATION_ALIAS_CONFIG + "="
                + target + "'";
        if (rest.equals("enabled")) {
            return new Counterpart(null, "not needed: " + oneFlow, setAliases + ", and remove it");
        }
        if (ConfigDefinitions.key(rest) != null) {
            return new Counterpart(rest, oneFlow, "use '" + rest + "=" + value + "' instead, and " + setAliases);
        }
        Optional<Counterpart> inner = counterpart(rest, value, props);
        if (inner.isPresent() && inner.get().instead() != null) {
            return new Counterpart(inner.get().instead(), oneFlow + "; and " + inner.get().why(),
                    inner.get().fix() + ", and " + setAliases);
        }
        return new Counterpart(null, oneFlow + inner.map(c -> "; and " + c.why()).orElse(""),
                setAliases + ", and remove it");
    }

    /**
     * {@code <alias>.<client config>}, MirrorMaker 2's setting of one cluster's clients (also under
     * {@code <alias>.consumer.}, {@code .producer.}, {@code .admin.}).
     */
    private static Optional<Counterpart> clusterKey(String alias, String rest, String value, Map<String, ?> props) {
        String setting = rest;
        for (String client : CLIENT_PREFIXES) {
            if (setting.startsWith(client)) {
                setting = setting.substring(client.length());
            }
        }
        if (PassThroughKeys.prefixOf(alias + ".").isPresent()) {
            return Optional.empty(); // Sextant's own form: source.*, destination.*, streams.*
        }
        if (!aliases(props).contains(alias)) {
            if (isSextantFamily(alias) || !PassThroughKeys.isClientConfig(setting)) {
                return Optional.empty();
            }
        }
        Counterpart known = KEYS.get(rest);
        if (known != null) {
            Counterpart inner = withValue(known, value);
            return Optional.of(new Counterpart(inner.instead(), "MirrorMaker 2's setting for cluster '" + alias
                    + "' of " + rest + ": " + inner.why(), inner.fix()));
        }
        String clusterOf = "MirrorMaker 2's setting of the clients of cluster '" + alias + "'";
        String instead;
        String fix;
        if (alias.equals(alias(props, SOURCE_ALIAS_CONFIG, SOURCE_ALIAS_DEFAULT))) {
            instead = SOURCE_PREFIX + setting;
            fix = "use '" + instead + "=" + value + "' instead";
        } else if (alias.equals(alias(props, DESTINATION_ALIAS_CONFIG, DESTINATION_ALIAS_DEFAULT))) {
            instead = DESTINATION_PREFIX + setting;
            fix = "use '" + instead + "=" + value + "' instead";
        } else {
            instead = null; // either: the configuration does not say which
            fix = "use '" + SOURCE_PREFIX + setting + "=" + value + "' or '" + DESTINATION_PREFIX + setting + "="
                    + value + "', whichever cluster '" + alias + "' is, and name it with '" + SOURCE_ALIAS_CONFIG
                    + "=" + alias + "' or '" + DESTINATION_ALIAS_CONFIG + "=" + alias + "'";
        }
        return Optional.of(new Counterpart(instead, clusterOf + "; Sextant's keys are " + SOURCE_PREFIX + "* for "
                + "every client of the source cluster and " + DESTINATION_PREFIX + "* for the destination's", fix));
    }

    /** The aliases the configuration names: MirrorMaker 2's {@code clusters}, and Sextant's two. */
    private static Set<String> aliases(Map<String, ?> props) {
        Set<String> aliases = new LinkedHashSet<>();
        Object clusters = props.get("clusters");
        if (clusters != null) {
            for (String alias : clusters.toString().split(",")) {
                if (!alias.isBlank()) {
                    aliases.add(alias.trim());
                }
            }
        }
        aliases.add(alias(props, SOURCE_ALIAS_CONFIG, SOURCE_ALIAS_DEFAULT));
        aliases.add(alias(props, DESTINATION_ALIAS_CONFIG, DESTINATION_ALIAS_DEFAULT));
        return aliases;
    }

    private static String alias(Map<String, ?> props, String key, String defaultAlias) {
        Object alias = props.get(key);
        return alias == null || alias.toString().isBlank() ? defaultAlias : alias.toString().trim();
    }

    /** The first segment of a Sextant key ({@code sync}, {@code query}, ...): no cluster alias. */
    private static boolean isSextantFamily(String segment) {
        String prefix = segment + ".";
        return ConfigDefinitions.names().stream().anyMatch(name -> name.startsWith(prefix))
                || PassThroughKeys.prefixOf(prefix).isPresent()
                || List.of(SOURCE_PREFIX, DESTINATION_PREFIX, STREAMS_PREFIX).stream()
                .anyMatch(p -> Suggestions.editDistance(prefix, p) <= 2);
    }

    private static Counterpart withValue(Counterpart counterpart, String value) {
        return new Counterpart(counterpart.instead(), counterpart.why(), counterpart.fix().replace("{value}", value));
    }

    // ------------------------------------------------------------------------------------------------ the table

    private static Map<String, Counterpart> keys() {
        Map<String, Counterpart> keys = new HashMap<>();
        keys.put("clusters", new Counterpart(null, "Sextant syncs one flow between two clusters, "
                + "named by " + ALIASES + " (MirrorMaker 2's aliases of the flow's source and target: they name "
                + "the topics it mirrors)", "set '" + SOURCE_ALIAS_CONFIG + "' and '" + DESTINATION_ALIAS_CONFIG
                + "' to the flow's two aliases ({value}), and remove it"));
        renamed(keys, "groups", GROUPS_INCLUDE_CONFIG, "the groups to sync, a regular expression; MirrorMaker 2's "
                + "comma-separated list is taken as it is");
        renamed(keys, "topics", TOPICS_INCLUDE_CONFIG, "the source topics whose groups' offsets are synced, a regular "
                + "expression; MirrorMaker 2's comma-separated list is taken as it is");
        renamed(keys, "groups.blacklist", GROUPS_EXCLUDE_CONFIG, "MirrorMaker 2's old name of groups.exclude, which "
                + "Sextant's key shares");
        renamed(keys, "topics.blacklist", TOPICS_EXCLUDE_CONFIG, "MirrorMaker 2's old name of topics.exclude, which "
                + "Sextant's key shares");
        renamed(keys, "replication.policy.class", REPLICATION_POLICY_CONFIG, "Sextant's key takes the same class "
                + "name (or 'default', 'identity')");
        renamed(keys, "source.cluster.alias", SOURCE_ALIAS_CONFIG, "MirrorMaker 2's connectors' name of the source "
                + "alias");
        renamed(keys, "target.cluster.alias", DESTINATION_ALIAS_CONFIG, "MirrorMaker 2's connectors' name of the "
                + "target alias");
        for (String[] filter : List.of(new String[] {"group.filter.class", GROUPS_INCLUDE_CONFIG,
                GROUPS_EXCLUDE_CONFIG}, new String[] {"topic.filter.class", TOPICS_INCLUDE_CONFIG,
                TOPICS_EXCLUDE_CONFIG})) {
            keys.put(filter[0], new Counterpart(filter[1], "Sextant filters with the regular expressions "
                    + filter[1] + " and " + filter[2] + ", and loads no filter class",
                    "express the filter with '" + filter[1] + "' and '" + filter[2] + "', and remove it"));
        }
        keys.put("sync.group.offsets.enabled", new Counterpart(SYNC_CONSUMER_GROUPS_CONFIG, "writing consumer "
                + "groups' offsets on the destination is what Sextant does, on by default ("
                + SYNC_CONSUMER_GROUPS_CONFIG + "=true; sync.share.groups for share groups)", "remove it, or use '"
                + SYNC_CONSUMER_GROUPS_CONFIG + "={value}' instead"));
        keys.put("sync.group.offsets.interval.seconds", new Counterpart(SYNC_INTERVAL_MS_CONFIG, "Sextant reads the "
                + "commits as they happen and writes a group's new offsets within " + SYNC_INTERVAL_MS_CONFIG
                + ", in milliseconds (250 by default, where MirrorMaker 2 waits 60 seconds)", "remove it, or use '"
                + SYNC_INTERVAL_MS_CONFIG + "' (in milliseconds) instead"));
        keys.put("emit.checkpoints.interval.seconds", new Counterpart(EMIT_CHECKPOINTS_ENABLED_CONFIG, "with "
                + EMIT_CHECKPOINTS_ENABLED_CONFIG + "=true Sextant writes MirrorMaker 2's checkpoint of every "
                + "offset it writes, at no interval of its own", "remove it; '" + EMIT_CHECKPOINTS_ENABLED_CONFIG
                + "=true' writes checkpoints"));
        keys.put("checkpoints.topic.replication.factor", new Counterpart(EMIT_CHECKPOINTS_ENABLED_CONFIG, "with "
                + EMIT_CHECKPOINTS_ENABLED_CONFIG + "=true Sextant creates the checkpoints topic when it is missing, "
                + "with the destination's default.replication.factor", "remove it; create the topic beforehand "
                + "for another factor"));
        for (String key : List.of("refresh.groups.enabled", "refresh.groups.interval.seconds")) {
            keys.put(key, notNeeded("Sextant reads the groups' commits from __consumer_offsets as they happen, so a "
                    + "new group is synced from its first commit"));
        }
        for (String key : List.of("refresh.topics.enabled", "refresh.topics.interval.seconds")) {
            keys.put(key, notNeeded("Sextant reads the commits and the offset syncs as they happen, so a newly "
                    + "mirrored topic is synced from its first offset sync; " + NOT_MIRRORED + ", and refreshing "
                    + "them"));
        }
        keys.put("replication.factor", new Counterpart(STREAMS_REPLICATION_FACTOR, NOT_MIRRORED + " (with this "
                + "factor); Sextant's own topics' factors are '" + STREAMS_REPLICATION_FACTOR + "' (Kafka Streams' "
                + "internal topics) and '" + DLQ_TOPIC_REPLICATION_FACTOR_CONFIG + "' (the dead-letter topic)",
                "use '" + STREAMS_REPLICATION_FACTOR + "={value}' and '" + DLQ_TOPIC_REPLICATION_FACTOR_CONFIG
                        + "={value}' instead"));
        keys.put("offset-syncs.topic.replication.factor", notNeeded("Sextant reads MirrorMaker 2's offset-syncs "
                + "topic (" + OFFSET_SYNCS_TOPIC_CONFIG + "), and creates none"));
        keys.put("offset-syncs.topic.location", new Counterpart(OFFSET_SYNCS_TOPIC_CONFIG, "Sextant reads the "
                + "offset-syncs topic on the source cluster, MirrorMaker 2's default location (source); '"
                + OFFSET_SYNCS_TOPIC_CONFIG + "' names it when it is not MirrorMaker 2's default name",
                "remove it (MirrorMaker 2 must keep offset-syncs.topic.location=source)"));
        keys.put("emit.offset-syncs.enabled", new Counterpart(TRANSLATION_CONFIG, "Sextant translates offsets "
                + "through the offset syncs MirrorMaker 2 writes (" + TRANSLATION_CONFIG + "=offset-syncs); with a "
                + "mirror that keeps offsets and writes none, " + TRANSLATION_CONFIG + "=identity", "remove it"));
        for (String key : List.of("emit.heartbeats.enabled", "emit.heartbeats.interval.seconds",
                "heartbeats.topic.replication.factor")) {
            keys.put(key, notNeeded("Sextant writes no heartbeats; MirrorMaker 2's heartbeat connector does"));
        }
        for (String key : List.of("sync.topic.configs.enabled", "sync.topic.configs.interval.seconds",
                "sync.topic.acls.enabled", "sync.topic.acls.interval.seconds", "config.properties.exclude",
                "config.properties.blacklist", "offset.lag.max", "emit.offset-syncs.interval.seconds")) {
            keys.put(key, notNeeded(NOT_MIRRORED + ", their configs and ACLs, and writing the offset syncs: keep "
                    + "it in MirrorMaker 2's configuration"));
        }
        for (String key : List.of("dedicated.mode.enable.internal.rest", "plugin.discovery", "plugin.path",
                "offset.flush.interval.ms", "offset.flush.timeout.ms", "key.converter", "value.converter",
                "header.converter", "listeners", "rest.advertised.host.name", "rest.advertised.port")) {
            keys.put(key, notNeeded("a setting of Kafka Connect's worker, which MirrorMaker 2 runs in; Sextant is a "
                    + "Kafka Streams application"));
        }
        keys.put("tasks.max", new Counterpart(STREAMS_PREFIX + StreamsConfig.NUM_STREAM_THREADS_CONFIG, "Sextant's "
                + "parallelism is its instances (same application.id) and their Kafka Streams threads",
                "remove it, or use '" + STREAMS_PREFIX + StreamsConfig.NUM_STREAM_THREADS_CONFIG + "' per instance"));
        return Map.copyOf(keys);
    }

    private static void renamed(Map<String, Counterpart> keys, String key, String instead, String why) {
        keys.put(key, new Counterpart(instead, why, "use '" + instead + "={value}' instead"));
    }

    private static Counterpart notNeeded(String why) {
        return new Counterpart(null, "not needed: " + why, "remove it");
    }
}
