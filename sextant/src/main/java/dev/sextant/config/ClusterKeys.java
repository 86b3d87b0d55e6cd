package dev.sextant.config;

import static dev.sextant.config.ConfigKeys.DESTINATION_ALIAS_CONFIG;
import static dev.sextant.config.ConfigKeys.DESTINATION_ALIAS_DEFAULT;
import static dev.sextant.config.ConfigKeys.DESTINATION_BOOTSTRAP_SERVERS_CONFIG;
import static dev.sextant.config.ConfigKeys.FAILBACK_HISTORY_TOPIC_CONFIG;
import static dev.sextant.config.ConfigKeys.GROUPS_EXCLUDE_CONFIG;
import static dev.sextant.config.ConfigKeys.GROUPS_EXCLUDE_DEFAULT;
import static dev.sextant.config.ConfigKeys.GROUPS_INCLUDE_CONFIG;
import static dev.sextant.config.ConfigKeys.GROUPS_INCLUDE_DEFAULT;
import static dev.sextant.config.ConfigKeys.OFFSET_SYNCS_TOPIC_CONFIG;
import static dev.sextant.config.ConfigKeys.REPLICATION_POLICY_CONFIG;
import static dev.sextant.config.ConfigKeys.REPLICATION_POLICY_DEFAULT;
import static dev.sextant.config.ConfigKeys.REPLICATION_POLICY_INTERNAL_TOPIC_SEPARATOR_ENABLED_CONFIG;
import static dev.sextant.config.ConfigKeys.REPLICATION_POLICY_SEPARATOR_CONFIG;
import static dev.sextant.config.ConfigKeys.REPLICATION_POLICY_SEPARATOR_DEFAULT;
import static dev.sextant.config.ConfigKeys.SOURCE_ALIAS_CONFIG;
import static dev.sextant.config.ConfigKeys.SOURCE_ALIAS_DEFAULT;
import static dev.sextant.config.ConfigKeys.SOURCE_BOOTSTRAP_SERVERS_CONFIG;
import static dev.sextant.config.ConfigKeys.TOPICS_EXCLUDE_CONFIG;
import static dev.sextant.config.ConfigKeys.TOPICS_EXCLUDE_DEFAULT;
import static dev.sextant.config.ConfigKeys.TOPICS_INCLUDE_CONFIG;
import static dev.sextant.config.ConfigKeys.TOPICS_INCLUDE_DEFAULT;
import static dev.sextant.config.ConfigKeys.TRANSLATION_CONFIG;
import static dev.sextant.config.ConfigKeys.TRANSLATION_INTERPOLATION_CONFIG;
import static dev.sextant.config.ConfigKeys.TRANSLATION_VERIFY_MAX_RECORDS_CONFIG;
import static dev.sextant.config.ConfigKeys.TRANSLATION_VERIFY_MAX_RECORDS_DEFAULT;
import static dev.sextant.config.KeyDefiner.define;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.connect.mirror.DefaultReplicationPolicy;
import org.apache.kafka.connect.mirror.IdentityReplicationPolicy;
import org.apache.kafka.connect.mirror.ReplicationPolicy;

/**
 * The keys of the two clusters, of how source offsets become destination offsets (with MirrorMaker 2's naming of
 * what it mirrors), and of which groups and topics are synced: the groups Clusters, Translation and Filters of
 * {@link ConfigDefinitions}, in that order.
 */
final class ClusterKeys {

    private static final String GROUP_CLUSTERS = "Clusters";
    private static final String GROUP_TRANSLATION = "Translation";
    private static final String GROUP_FILTERS = "Filters";

    private ClusterKeys() {
    }

    /** Adds the clusters', translation and filter keys, in documentation order. */
    static void addTo(ConfigDef def) {
        defineClusters(def);
        defineTranslation(def);
        defineFilters(def);
    }

    /** The two clusters: their aliases, as MirrorMaker 2 knows them, and their bootstrap servers. */
    private static void defineClusters(ConfigDef def) {
        define(def, SOURCE_ALIAS_CONFIG, Type.STRING, SOURCE_ALIAS_DEFAULT,
                ConfigValidators.nonEmptyWithoutWhitespace(), Importance.MEDIUM, GROUP_CLUSTERS,
                "Name of the source cluster, as MirrorMaker 2 knows it (its cluster alias). The default replication "
                        + "policy prefixes mirrored topic names with it: topic 'orders' is 'source.orders' on the "
                        + "destination.");
        define(def, DESTINATION_ALIAS_CONFIG, Type.STRING, DESTINATION_ALIAS_DEFAULT,
                ConfigValidators.nonEmptyWithoutWhitespace(), Importance.MEDIUM, GROUP_CLUSTERS,
                "Name of the destination cluster, as MirrorMaker 2 knows it (its cluster alias). It names MM2's "
                        + "offset-syncs topic, mm2-offset-syncs.<destination.alias>.internal.");
        define(def, SOURCE_BOOTSTRAP_SERVERS_CONFIG, Type.LIST, ConfigDef.NO_DEFAULT_VALUE,
                ConfigValidators.bootstrapServers(), Importance.HIGH, GROUP_CLUSTERS,
                "Required. Bootstrap servers of the source cluster, where Sextant's Kafka Streams application runs "
                        + "and reads __consumer_offsets, __share_group_state and the offset-syncs topic. Any other "
                        + "client setting for the source goes under the same prefix: source.security.protocol, "
                        + "source.sasl.mechanism, source.sasl.jaas.config, source.ssl.truststore.location, ...");
        define(def, DESTINATION_BOOTSTRAP_SERVERS_CONFIG, Type.LIST, ConfigDef.NO_DEFAULT_VALUE,
                ConfigValidators.bootstrapServers(), Importance.HIGH, GROUP_CLUSTERS,
                "Required. Bootstrap servers of the destination cluster, where Sextant writes group offsets through "
                        + "an Admin client. Any other client setting for the destination goes under the same prefix: "
                        + "destination.security.protocol, destination.sasl.jaas.config, ...");
    }

    /** How source offsets become destination offsets, and how MirrorMaker 2 names what it mirrors. */
    private static void defineTranslation(ConfigDef def) {
        define(def, TRANSLATION_CONFIG, Type.STRING, Translation.OFFSET_SYNCS.configValue(),
                ConfigValidators.oneOf(Translation.configValues()), Importance.HIGH, GROUP_TRANSLATION,
                "How source offsets become destination offsets. 'offset-syncs' looks them up in MirrorMaker 2's "
                        + "offset-syncs topic (offset.syncs.topic). 'identity' is for offset-preserving mirrors "
                        + "(Cluster Linking, Kafka Cluster Mirroring): the destination offset is the source offset.");
        define(def, TRANSLATION_INTERPOLATION_CONFIG, Type.STRING, Interpolation.VERIFIED.configValue(),
                ConfigValidators.oneOf(Interpolation.configValues()), Importance.MEDIUM, GROUP_TRANSLATION,
                "With translation=offset-syncs: whether a commit between two offset syncs (U1, D1) and (U2, D2) "
                        + "with U2 - U1 == D2 - D1 translates exactly to D1 + (C - U1) instead of D1 + 1. "
                        + "'verified' does so once the interval's records were read on both clusters and found copied "
                        + "one for one (needs Read on the mirrored topics on both clusters; without it the interval "
                        + "keeps the bounded rule). 'unverified' trusts equal deltas alone: a skipped record and a "
                        + "duplicate inside one interval can then make a consumer skip a record. 'off' keeps "
                        + "MirrorMaker 2's rule everywhere.");
        define(def, TRANSLATION_VERIFY_MAX_RECORDS_CONFIG, Type.INT, TRANSLATION_VERIFY_MAX_RECORDS_DEFAULT,
                ConfigValidators.atLeast(2), Importance.LOW, GROUP_TRANSLATION,
                "The longest interval between two offset syncs, in source offsets, that "
                        + "translation.interpolation=verified reads to prove it; a longer one keeps the bounded rule. "
                        + "A check reads the interval once on each cluster, however many groups commit inside it.");
        define(def, OFFSET_SYNCS_TOPIC_CONFIG, Type.STRING, null, ConfigValidators.topicName(true),
                Importance.MEDIUM, GROUP_TRANSLATION,
                "MirrorMaker 2's offset-syncs topic on the source cluster, read when translation=offset-syncs. "
                        + "Unset (or empty), it is the replication policy's name for it, as MM2 computes it with "
                        + "offset-syncs.topic.location=source: mm2-offset-syncs.<destination.alias>.internal, with "
                        + "'.' replaced by replication.policy.separator unless "
                        + "replication.policy.internal.topic.separator.enabled=false.");
        define(def, FAILBACK_HISTORY_TOPIC_CONFIG, Type.STRING, null, ConfigValidators.topicName(true),
                Importance.MEDIUM, GROUP_TRANSLATION,
                "For the Sextant that runs the other way, for failback (written by 'sextant failback-config'): the "
                        + "offset-sync history topic of the forward Sextant (<its application.id>-offset-sync-"
                        + "history), on this Sextant's destination cluster. The source's mirrors of the "
                        + "destination's own topics (named by destination.alias under the replication policy, e.g. "
                        + "source.orders) are then translated back to their originals (orders) through the forward "
                        + "flow's syncs, inverted: exact at a sync or in a proven interval, else resuming just after "
                        + "the sync below (a replay, never a skipped record). Empty (the default): commits on such "
                        + "mirrors are not synced at all, as in a two-way setup their records came from the "
                        + "destination.");
        define(def, REPLICATION_POLICY_CONFIG, Type.STRING, REPLICATION_POLICY_DEFAULT,
                ConfigValidators.replicationPolicy(), Importance.HIGH, GROUP_TRANSLATION,
                "How MirrorMaker 2 names mirrored topics, to match MM2's replication.policy.class. 'default' is "
                        + DefaultReplicationPolicy.class.getName() + " (topic 'orders' from source alias 'source' is "
                        + "'source.orders' on the destination); 'identity' is "
                        + IdentityReplicationPolicy.class.getName() + " (same name on both sides); anything else is "
                        + "the fully-qualified name of a class on the classpath implementing "
                        + ReplicationPolicy.class.getName() + " with a public no-argument constructor. It is "
                        + "configured, as MM2 does, with replication.policy.separator, "
                        + "replication.policy.internal.topic.separator.enabled, source.cluster.alias and "
                        + "target.cluster.alias.");
        define(def, REPLICATION_POLICY_SEPARATOR_CONFIG, Type.STRING, REPLICATION_POLICY_SEPARATOR_DEFAULT,
                ConfigValidators.nonEmpty(), Importance.LOW, GROUP_TRANSLATION,
                "Separator between the source alias and the topic name in mirrored topic names, as MM2's "
                        + "replication.policy.separator.");
        define(def, REPLICATION_POLICY_INTERNAL_TOPIC_SEPARATOR_ENABLED_CONFIG, Type.BOOLEAN,
                DefaultReplicationPolicy.INTERNAL_TOPIC_SEPARATOR_ENABLED_DEFAULT, null, Importance.LOW,
                GROUP_TRANSLATION,
                "Whether replication.policy.separator also applies to the names of MM2's internal topics, such as the "
                        + "offset-syncs topic, as MM2's key of the same name. Set it to match MM2.");
    }

    /** Which groups and topics are synced. */
    private static void defineFilters(ConfigDef def) {
        define(def, GROUPS_INCLUDE_CONFIG, Type.STRING, GROUPS_INCLUDE_DEFAULT, ConfigValidators.regex(),
                Importance.MEDIUM, GROUP_FILTERS,
                "Groups to sync: a Java regular expression that must match the whole group id, or MirrorMaker 2's "
                        + "form (its groups key, copied as it is), a comma-separated list of them, any of which may "
                        + "match: 'orders.*, payments' is 'orders.*|payments'. A comma inside {}, [] or () belongs "
                        + "to its expression (a{1,3}); [,] is a literal comma.");
        define(def, GROUPS_EXCLUDE_CONFIG, Type.STRING, GROUPS_EXCLUDE_DEFAULT, ConfigValidators.regex(),
                Importance.MEDIUM, GROUP_FILTERS,
                "Groups never to sync, even when groups.include matches: a Java regular expression that must match "
                        + "the whole group id, or a comma-separated list of them as for groups.include. Sextant's own "
                        + "application.id (its Kafka Streams consumer group) is always excluded as well, whatever "
                        + "this is set to.");
        define(def, TOPICS_INCLUDE_CONFIG, Type.STRING, TOPICS_INCLUDE_DEFAULT, ConfigValidators.regex(),
                Importance.MEDIUM, GROUP_FILTERS,
                "Source topics whose committed offsets are synced: a Java regular expression that must match the "
                        + "whole topic name, or a comma-separated list of them as for groups.include (MirrorMaker 2's "
                        + "topics key, copied as it is). Keep it in line with MM2's topics setting.");
        define(def, TOPICS_EXCLUDE_CONFIG, Type.STRING, TOPICS_EXCLUDE_DEFAULT, ConfigValidators.regex(),
                Importance.MEDIUM, GROUP_FILTERS,
                "Source topics never synced, even when topics.include matches: a Java regular expression that must "
                        + "match the whole topic name, or a comma-separated list of them as for groups.include. The "
                        + "default is MM2's topics.exclude default.");
    }
}
