package dev.sextant.config;

import static dev.sextant.config.ConfigKeys.APPLICATION_ID_CONFIG;
import static dev.sextant.config.ConfigKeys.APPLICATION_ID_DEFAULT;
import static dev.sextant.config.ConfigKeys.DESTINATION_ALIAS_CONFIG;
import static dev.sextant.config.ConfigKeys.DESTINATION_ALIAS_DEFAULT;
import static dev.sextant.config.ConfigKeys.DESTINATION_BOOTSTRAP_SERVERS_CONFIG;
import static dev.sextant.config.ConfigKeys.DLQ_TOPIC_CONFIG;
import static dev.sextant.config.ConfigKeys.DLQ_TOPIC_DEFAULT;
import static dev.sextant.config.ConfigKeys.DLQ_TOPIC_PARTITIONS_CONFIG;
import static dev.sextant.config.ConfigKeys.DLQ_TOPIC_REPLICATION_FACTOR_CONFIG;
import static dev.sextant.config.ConfigKeys.EMIT_CHECKPOINTS_ENABLED_CONFIG;
import static dev.sextant.config.ConfigKeys.GROUPS_EXCLUDE_CONFIG;
import static dev.sextant.config.ConfigKeys.GROUPS_EXCLUDE_DEFAULT;
import static dev.sextant.config.ConfigKeys.GROUPS_INCLUDE_CONFIG;
import static dev.sextant.config.ConfigKeys.GROUPS_INCLUDE_DEFAULT;
import static dev.sextant.config.ConfigKeys.HEALTH_DESTINATION_TIMEOUT_MS_CONFIG;
import static dev.sextant.config.ConfigKeys.HEALTH_DESTINATION_TIMEOUT_MS_DEFAULT;
import static dev.sextant.config.ConfigKeys.OFFSET_SYNCS_PRUNE_INTERVAL_MS_CONFIG;
import static dev.sextant.config.ConfigKeys.OFFSET_SYNCS_PRUNE_INTERVAL_MS_DEFAULT;
import static dev.sextant.config.ConfigKeys.OFFSET_SYNCS_TOPIC_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_ADVERTISED_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_AUTH_OPEN_PATHS_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_AUTH_OPEN_PATHS_DEFAULT;
import static dev.sextant.config.ConfigKeys.QUERY_AUTH_TOKEN_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_LISTEN_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_LISTEN_DEFAULT;
import static dev.sextant.config.ConfigKeys.QUERY_THREADS_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_THREADS_DEFAULT;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_CLIENT_AUTH_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_CLIENT_AUTH_VALUES;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_KEYSTORE_LOCATION_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_KEYSTORE_PASSWORD_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_KEYSTORE_TYPE_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_KEY_PASSWORD_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_STORE_TYPES;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_TRUSTSTORE_LOCATION_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_TRUSTSTORE_PASSWORD_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_TLS_TRUSTSTORE_TYPE_CONFIG;
import static dev.sextant.config.ConfigKeys.REPLICATION_POLICY_CONFIG;
import static dev.sextant.config.ConfigKeys.REPLICATION_POLICY_DEFAULT;
import static dev.sextant.config.ConfigKeys.REPLICATION_POLICY_INTERNAL_TOPIC_SEPARATOR_ENABLED_CONFIG;
import static dev.sextant.config.ConfigKeys.REPLICATION_POLICY_SEPARATOR_CONFIG;
import static dev.sextant.config.ConfigKeys.REPLICATION_POLICY_SEPARATOR_DEFAULT;
import static dev.sextant.config.ConfigKeys.SOURCE_ALIAS_CONFIG;
import static dev.sextant.config.ConfigKeys.SOURCE_ALIAS_DEFAULT;
import static dev.sextant.config.ConfigKeys.SOURCE_BOOTSTRAP_SERVERS_CONFIG;
import static dev.sextant.config.ConfigKeys.STATE_DIR_CONFIG;
import static dev.sextant.config.ConfigKeys.STATE_DIR_DEFAULT;
import static dev.sextant.config.ConfigKeys.STATE_MEMORY_BYTES_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_CONSUMER_GROUPS_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_FOREIGN_OFFSETS_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_INTERVAL_MS_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_INTERVAL_MS_DEFAULT;
import static dev.sextant.config.ConfigKeys.SYNC_OFFSETS_REFRESH_MS_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_PENDING_TIMEOUT_MS_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_PENDING_TIMEOUT_MS_DEFAULT;
import static dev.sextant.config.ConfigKeys.SYNC_REWIND_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_SHARE_GROUPS_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_UNTRANSLATABLE_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_WRITE_PARALLELISM_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_WRITE_PARALLELISM_DEFAULT;
import static dev.sextant.config.ConfigKeys.TOPICS_EXCLUDE_CONFIG;
import static dev.sextant.config.ConfigKeys.TOPICS_EXCLUDE_DEFAULT;
import static dev.sextant.config.ConfigKeys.TOPICS_INCLUDE_CONFIG;
import static dev.sextant.config.ConfigKeys.TOPICS_INCLUDE_DEFAULT;
import static dev.sextant.config.ConfigKeys.TRANSLATION_CONFIG;
import static dev.sextant.config.ConfigKeys.TRANSLATION_INTERPOLATION_CONFIG;
import static dev.sextant.config.ConfigKeys.TRANSLATION_VERIFY_MAX_RECORDS_CONFIG;
import static dev.sextant.config.ConfigKeys.TRANSLATION_VERIFY_MAX_RECORDS_DEFAULT;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Validator;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.connect.mirror.DefaultReplicationPolicy;
import org.apache.kafka.connect.mirror.IdentityReplicationPolicy;
import org.apache.kafka.connect.mirror.ReplicationPolicy;

/**
 * The definition of every key of {@link SextantConfig}: its type, default, validator, importance, group and
 * documentation, in Kafka's own {@link ConfigDef}, as MirrorMaker 2 defines its keys. The generated documentation
 * ({@link ConfigDocs}) and the error messages ({@link ConfigChecks}) are both read from here, so a key's description
 * and what it accepts are written once.
 *
 * <p>Invariants: keys are defined in the order the documentation lists them, each group's keys together; the
 * shared {@link #DEFINITION} is never modified after this class loads, and code outside this package gets copies.
 */
final class ConfigDefinitions {

    private static final String GROUP_CLUSTERS = "Clusters";
    private static final String GROUP_TRANSLATION = "Translation";
    private static final String GROUP_FILTERS = "Filters";
    private static final String GROUP_SYNC = "Sync";
    private static final String GROUP_DLQ = "Dead-letter topic";
    private static final String GROUP_QUERY = "Interactive queries";
    private static final String GROUP_STREAMS = "Kafka Streams";

    /** How a default that is computed, or derived from other keys, shows in the documentation. */
    private static final Map<String, String> DEFAULT_DISPLAY = Map.of(
            OFFSET_SYNCS_TOPIC_CONFIG, "mm2-offset-syncs.<destination.alias>.internal",
            QUERY_ADVERTISED_CONFIG, "query.listen, 0.0.0.0 replaced by the local host name",
            STATE_DIR_CONFIG, "${java.io.tmpdir}/sextant");

    /** Every key; read-only by convention: {@link #copy()} for anyone who might change it. */
    static final ConfigDef DEFINITION = build();

    private ConfigDefinitions() {
    }

    /** A copy of the definition of every key. */
    static ConfigDef copy() {
        return new ConfigDef(DEFINITION);
    }

    /** The names of the defined keys (not the pass-through prefixes), sorted. */
    static Set<String> names() {
        return Collections.unmodifiableSet(new TreeSet<>(DEFINITION.names()));
    }

    /** Every defined key, in documentation order. */
    static List<ConfigKey> keys() {
        return List.copyOf(DEFINITION.configKeys().values());
    }

    /** The definition of {@code name}, or null when it is not a defined key (a pass-through key, a typo). */
    static ConfigKey key(String name) {
        return DEFINITION.configKeys().get(name);
    }

    private static ConfigDef build() {
        ConfigDef def = new ConfigDef();
        defineClusters(def);
        defineTranslation(def);
        defineFilters(def);
        defineSync(def);
        defineDeadLetterTopic(def);
        defineQuery(def);
        defineQueryTls(def);
        defineHealth(def);
        defineStreams(def);
        return def;
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
                "Groups to sync: a Java regular expression that must match the whole group id.");
        define(def, GROUPS_EXCLUDE_CONFIG, Type.STRING, GROUPS_EXCLUDE_DEFAULT, ConfigValidators.regex(),
                Importance.MEDIUM, GROUP_FILTERS,
                "Groups never to sync, even when groups.include matches: a Java regular expression that must match "
                        + "the whole group id. Sextant's own application.id (its Kafka Streams consumer group) is "
                        + "always excluded as well, whatever this is set to.");
        define(def, TOPICS_INCLUDE_CONFIG, Type.STRING, TOPICS_INCLUDE_DEFAULT, ConfigValidators.regex(),
                Importance.MEDIUM, GROUP_FILTERS,
                "Source topics whose committed offsets are synced: a Java regular expression that must match the "
                        + "whole topic name. Keep it in line with MM2's topics setting.");
        define(def, TOPICS_EXCLUDE_CONFIG, Type.STRING, TOPICS_EXCLUDE_DEFAULT, ConfigValidators.regex(),
                Importance.MEDIUM, GROUP_FILTERS,
                "Source topics never synced, even when topics.include matches: a Java regular expression that must "
                        + "match the whole topic name. The default is MM2's topics.exclude default.");
    }

    /** What is synced, how often, and what is refused. */
    private static void defineSync(ConfigDef def) {
        define(def, SYNC_CONSUMER_GROUPS_CONFIG, Type.BOOLEAN, true, null, Importance.MEDIUM, GROUP_SYNC,
                "Whether to sync consumer groups (classic and consumer protocol).");
        define(def, SYNC_SHARE_GROUPS_CONFIG, Type.BOOLEAN, true, null, Importance.MEDIUM, GROUP_SYNC,
                "Whether to sync share groups (their share-partition start offsets).");
        define(def, SYNC_INTERVAL_MS_CONFIG, Type.LONG, SYNC_INTERVAL_MS_DEFAULT, ConfigValidators.atLeast(10),
                Importance.MEDIUM, GROUP_SYNC,
                "How often, in milliseconds, the positions gathered per group are written to the destination: one "
                        + "Admin write per group per interval, however many commits arrived.");
        define(def, SYNC_REWIND_CONFIG, Type.STRING, RewindPolicy.FOLLOW_SOURCE.configValue(),
                ConfigValidators.oneOf(RewindPolicy.configValues()), Importance.MEDIUM, GROUP_SYNC,
                "What to do when a source group moves backwards (an offset reset). 'follow-source' moves the "
                        + "destination back too, as long as the destination offset is still the one Sextant wrote; "
                        + "'never' never moves a destination offset backwards.");
        define(def, SYNC_UNTRANSLATABLE_CONFIG, Type.STRING, UntranslatablePolicy.REFUSE.configValue(),
                ConfigValidators.oneOf(UntranslatablePolicy.configValues()), Importance.MEDIUM, GROUP_SYNC,
                "What to do with a committed offset no offset sync covers while the source still holds records "
                        + "below it (below the partition's oldest sync: MirrorMaker 2 coalesced its first syncs "
                        + "under load, or its offset-syncs topic was compacted before Sextant read it). 'refuse' "
                        + "writes nothing: the partition is UNTRANSLATABLE on every surface, a dead-letter record "
                        + "after sync.pending.timeout.ms, and 'failover' is not clean, since its consumer would start "
                        + "from auto.offset.reset. 'earliest' writes the destination partition's log start: the "
                        + "consumer replays what the mirror holds and skips nothing. An offset at or below the source "
                        + "partition's log start, or on an empty partition, is written as the destination's log "
                        + "start either way: nothing is left below it to skip.");
        define(def, SYNC_FOREIGN_OFFSETS_CONFIG, Type.STRING, ForeignOffsetPolicy.REFUSE.configValue(),
                ConfigValidators.oneOf(ForeignOffsetPolicy.configValues()), Importance.MEDIUM, GROUP_SYNC,
                "What to do with a group whose destination offsets Sextant did not write (MirrorMaker 2's group "
                        + "sync, a consumer that ran on the destination). 'refuse' leaves the group alone and "
                        + "dead-letters it as DESTINATION_DIVERGED. 'adopt-forward' takes it over when it has no "
                        + "members on the destination and every new translation is at or above the offset there "
                        + "(below it, the group stays refused): use it to switch from MirrorMaker 2's group sync. "
                        + "The default is 'refuse' because after a failover the destination offsets are a live "
                        + "consumer's, which no sync should move.");
        define(def, EMIT_CHECKPOINTS_ENABLED_CONFIG, Type.BOOLEAN, false, null, Importance.LOW, GROUP_SYNC,
                "Whether to write MirrorMaker 2 checkpoints (MirrorMaker 2's own record format and topic, "
                        + "<source.alias>.checkpoints.internal through the replication policy, on the destination) "
                        + "for every consumer-group position Sextant applies, so that tools calling "
                        + "RemoteClusterUtils.translateOffsets keep working with MirrorMaker 2's checkpoints off. "
                        + "The topic is created compacted with one partition if it does not exist.");
        define(def, SYNC_PENDING_TIMEOUT_MS_CONFIG, Type.LONG, SYNC_PENDING_TIMEOUT_MS_DEFAULT,
                ConfigValidators.atLeast(0), Importance.LOW, GROUP_SYNC,
                "How long, in milliseconds, a position that cannot be applied yet (topic not mirrored yet, no offset "
                        + "sync covering the offset yet) is retried before it becomes a dead-letter record.");
        define(def, SYNC_OFFSETS_REFRESH_MS_CONFIG, Type.LONG, 0L, ConfigValidators.atLeast(0), Importance.LOW,
                GROUP_SYNC,
                "How long, in milliseconds, an applied consumer-group offset may stand before Sextant writes it "
                        + "again though it did not change. The destination deletes the offsets of a group without "
                        + "members offsets.retention.minutes after their commit (7 days by default, often less in "
                        + "managed services), so a partition whose source offset stays put would lose its "
                        + "destination offset. 0 (the default): half the destination's offsets.retention.minutes as "
                        + "its broker config says (read at start and hourly; 7 days assumed when the config cannot "
                        + "be read, e.g. without DescribeConfigs on the cluster). Positions are rewritten between "
                        + "three quarters of this and all of it, spread by partition, so groups applied together are "
                        + "not all rewritten at once.");
        define(def, SYNC_WRITE_PARALLELISM_CONFIG, Type.INT, SYNC_WRITE_PARALLELISM_DEFAULT,
                ConfigValidators.between(1, 64), Importance.LOW, GROUP_SYNC,
                "The most offset writes Sextant keeps in flight to the destination at once, each through an Admin "
                        + "client of its own (a Kafka Admin client sends one request at a time to a broker, and each "
                        + "group's offsets are one request). Within this ceiling the number adapts to what the "
                        + "destination absorbs: it starts at 4 (or this, if lower) and rises while few writes wait "
                        + "at the destination (judged by how much slower than the fastest recent ones they are "
                        + "answered), and falls when many do or writes time out; writes beyond it wait in a queue. "
                        + "With 1, a single client writes one group at a time.");
        define(def, OFFSET_SYNCS_PRUNE_INTERVAL_MS_CONFIG, Type.LONG, OFFSET_SYNCS_PRUNE_INTERVAL_MS_DEFAULT,
                ConfigValidators.atLeast(1_000), Importance.LOW, GROUP_SYNC,
                "How often, in milliseconds, the offset-sync history is pruned: per source partition, syncs below "
                        + "both the partition's log start offset and the lowest offset any synced group committed "
                        + "there are dropped, except the newest of them (it still translates that offset).");
    }

    /** The dead-letter topic. */
    private static void defineDeadLetterTopic(ConfigDef def) {
        define(def, DLQ_TOPIC_CONFIG, Type.STRING, DLQ_TOPIC_DEFAULT, ConfigValidators.topicName(false),
                Importance.MEDIUM, GROUP_DLQ,
                "Dead-letter topic on the source cluster, where Sextant records the positions it refused or could "
                        + "not apply, and why. Created at start when missing.");
        define(def, DLQ_TOPIC_PARTITIONS_CONFIG, Type.INT, 1, ConfigValidators.atLeast(1), Importance.LOW, GROUP_DLQ,
                "Number of partitions of the dead-letter topic when Sextant creates it.");
        define(def, DLQ_TOPIC_REPLICATION_FACTOR_CONFIG, Type.SHORT, (short) -1, ConfigValidators.replicationFactor(),
                Importance.LOW, GROUP_DLQ,
                "Replication factor of the dead-letter topic when Sextant creates it; -1 uses the broker's "
                        + "default.replication.factor.");
    }

    /** The HTTP API: where it listens and is reached, its threads, and who may call it. */
    private static void defineQuery(ConfigDef def) {
        define(def, QUERY_LISTEN_CONFIG, Type.STRING, QUERY_LISTEN_DEFAULT,
                ConfigValidators.hostAndPort(true, false, true), Importance.MEDIUM, GROUP_QUERY,
                "Address the HTTP API (queries, health, metrics) binds, as host:port. The default binds the loopback "
                        + "interface only; 0.0.0.0 binds every interface (needed for other instances, probes and "
                        + "scrapers on other hosts: then set query.auth.token or TLS client certificates). Port 0 "
                        + "picks a free port.");
        define(def, QUERY_ADVERTISED_CONFIG, Type.STRING, null, ConfigValidators.hostAndPort(false, true, false),
                Importance.MEDIUM, GROUP_QUERY,
                "Address other Sextant instances use to reach this one's HTTP API, as host:port (Kafka Streams' "
                        + "application.server). Unset (or empty), it is query.listen with a 0.0.0.0 host replaced by "
                        + "the local host name.");
        define(def, QUERY_THREADS_CONFIG, Type.INT, QUERY_THREADS_DEFAULT, ConfigValidators.between(2, 256),
                Importance.LOW, GROUP_QUERY,
                "Worker threads of the HTTP API's queries (a forwarded query holds one on each of two instances). "
                        + "When all are busy and their queue is full, a query answers 503 with Retry-After. "
                        + "/health/* and /metrics have a small pool of their own, so probes answer under load.");
        define(def, QUERY_AUTH_TOKEN_CONFIG, Type.PASSWORD, null, null, Importance.MEDIUM, GROUP_QUERY,
                "Bearer token the HTTP API requires ('Authorization: Bearer <token>') on every path except "
                        + "query.auth.open.paths; 401 without it. Every instance must have the same token: they "
                        + "forward queries to each other with it, and the CLI (-c) sends it too. Unset: no token. "
                        + "Use a config provider (${file:...}, ${env:...}) rather than writing it in the file.");
        define(def, QUERY_AUTH_OPEN_PATHS_CONFIG, Type.LIST, QUERY_AUTH_OPEN_PATHS_DEFAULT,
                ConfigValidators.paths(), Importance.LOW, GROUP_QUERY,
                "Paths answered without the token (exact paths, comma-separated), for probes and scrapers that "
                        + "cannot send one. Empty: every path needs the token.");
    }

    /** The HTTP API's TLS: its keystore, the truststore for client certificates, and whether to ask for them. */
    private static void defineQueryTls(ConfigDef def) {
        define(def, QUERY_TLS_KEYSTORE_LOCATION_CONFIG, Type.STRING, null, null, Importance.MEDIUM, GROUP_QUERY,
                "Keystore with the HTTP API's key and certificate; set, the API is served over HTTPS only "
                        + "(and instances forward to each other over HTTPS: their certificates must be valid for "
                        + "their query.advertised hosts). Unset: plain HTTP.");
        define(def, QUERY_TLS_KEYSTORE_PASSWORD_CONFIG, Type.PASSWORD, null, null, Importance.MEDIUM, GROUP_QUERY,
                "Password of query.tls.keystore.location (PKCS12, JKS; for PEM, leave unset).");
        define(def, QUERY_TLS_KEYSTORE_TYPE_CONFIG, Type.STRING, "PKCS12",
                ConfigValidators.oneOf(QUERY_TLS_STORE_TYPES), Importance.LOW, GROUP_QUERY,
                "Format of query.tls.keystore.location: PKCS12, JKS, or PEM (one file with the private key, "
                        + "PKCS#8, followed by the certificate chain), as Kafka's ssl.keystore.type.");
        define(def, QUERY_TLS_KEY_PASSWORD_CONFIG, Type.PASSWORD, null, null, Importance.LOW, GROUP_QUERY,
                "Password of the private key in the keystore, when it differs from the keystore's (for PEM: the "
                        + "password of an encrypted key).");
        define(def, QUERY_TLS_TRUSTSTORE_LOCATION_CONFIG, Type.STRING, null, null, Importance.LOW, GROUP_QUERY,
                "Truststore of the certificates (or their CA) the HTTP API trusts: client certificates when "
                        + "query.tls.client.auth is set, and other instances' certificates when forwarding. Unset: "
                        + "the JVM's default trust (client certificates then cannot be required).");
        define(def, QUERY_TLS_TRUSTSTORE_PASSWORD_CONFIG, Type.PASSWORD, null, null, Importance.LOW, GROUP_QUERY,
                "Password of query.tls.truststore.location (PKCS12, JKS; for PEM, leave unset).");
        define(def, QUERY_TLS_TRUSTSTORE_TYPE_CONFIG, Type.STRING, "PKCS12",
                ConfigValidators.oneOf(QUERY_TLS_STORE_TYPES), Importance.LOW, GROUP_QUERY,
                "Format of query.tls.truststore.location: PKCS12, JKS, or PEM (CA certificates).");
        define(def, QUERY_TLS_CLIENT_AUTH_CONFIG, Type.STRING, "none",
                ConfigValidators.oneOf(QUERY_TLS_CLIENT_AUTH_VALUES), Importance.LOW, GROUP_QUERY,
                "Client certificates on the HTTP API's TLS: 'none', 'requested' (checked when sent), or "
                        + "'required' (a client without one trusted by query.tls.truststore.location cannot connect). "
                        + "Instances present their own keystore's certificate to each other.");
    }

    /** When the HTTP API reports this instance not ready. */
    private static void defineHealth(ConfigDef def) {
        define(def, HEALTH_DESTINATION_TIMEOUT_MS_CONFIG, Type.LONG, HEALTH_DESTINATION_TIMEOUT_MS_DEFAULT,
                ConfigValidators.atLeast(0), Importance.LOW, GROUP_QUERY,
                "How long, in milliseconds, the destination may be unreachable before /health/ready says so in "
                        + "its body (status DEGRADED, with the reason). The status code stays 200, and liveness too: "
                        + "the instance still serves queries, restarting it does not bring a destination back, and "
                        + "positions keep being read and kept meanwhile; alert on sextant_destination_up.");
    }

    /** The Kafka Streams settings Sextant owns: its consumer group, and where its state lives. */
    private static void defineStreams(ConfigDef def) {
        define(def, APPLICATION_ID_CONFIG, Type.STRING, APPLICATION_ID_DEFAULT, ConfigValidators.applicationId(),
                Importance.HIGH, GROUP_STREAMS,
                "Kafka Streams application id: the consumer group of Sextant's instances (always excluded from "
                        + "syncing) and the prefix of its internal topics. Instances with the same id share the work.");
        define(def, STATE_DIR_CONFIG, Type.STRING, STATE_DIR_DEFAULT, ConfigValidators.nonEmpty(), Importance.MEDIUM,
                GROUP_STREAMS,
                "Folder of Kafka Streams' local state (RocksDB stores). Default ${java.io.tmpdir}/sextant; use a "
                        + "folder that survives restarts, or each restart rebuilds the stores from their changelogs.");
        define(def, STATE_MEMORY_BYTES_CONFIG, Type.LONG, 0L, ConfigValidators.atLeast(0), Importance.MEDIUM,
                GROUP_STREAMS,
                "The memory, in bytes, that all RocksDB stores of the instance share: one block cache, holding "
                        + "index and filter blocks too, to which every memtable is charged (at most a quarter of "
                        + "it). Off the Java heap: size a container as heap + this + about 200 MiB for the JVM. 0 "
                        + "(the default): an eighth of the memory the process may use (the container's limit), "
                        + "within 64 MiB and 1 GiB. streams.rocksdb.config.setter replaces this.");
    }

    /** One key; its order (documentation and {@link ConfigDef#toRst()}) is its place among the keys defined so far. */
    private static void define(ConfigDef def, String name, Type type, Object defaultValue, Validator validator,
                               Importance importance, String group, String doc) {
        int order = def.configKeys().size() + 1;
        def.define(name, type, defaultValue, validator, importance, doc, group, order, Width.MEDIUM, name,
                Collections.emptyList(), null, DEFAULT_DISPLAY.get(name));
    }

    // ------------------------------------------------------------------------------------------------ in words

    /** What a key accepts, in words: its validator's description, or its type's when it has none. */
    static String accepts(ConfigKey key) {
        if (key.validator == null) {
            return describeType(key.type);
        }
        return switch (key.type) {
            case SHORT, INT, LONG -> "a whole number, " + key.validator;
            case DOUBLE -> "a number, " + key.validator;
            default -> key.validator.toString();
        };
    }

    /** What a value of a type is, in words. */
    static String describeType(Type type) {
        return switch (type) {
            case BOOLEAN -> "true or false";
            case SHORT -> "a whole number from " + Short.MIN_VALUE + " to " + Short.MAX_VALUE;
            case INT -> "a whole number from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE;
            case LONG -> "a whole number";
            case DOUBLE -> "a number";
            case LIST -> "a comma-separated list";
            case CLASS -> "a fully-qualified class name on the classpath";
            case PASSWORD -> "a password";
            case STRING -> "a string";
        };
    }

    /** A key's default as an operator reads it: the computed form for a derived default, "unset", or the value. */
    static String displayDefault(ConfigKey key) {
        if (key.alternativeString != null) {
            return key.alternativeString;
        }
        if (!key.hasDefault()) {
            return "none, required";
        }
        Object value = key.defaultValue;
        return value == null ? "unset" : display(value);
    }

    /** A value as written in a properties file: a list comma-separated, a class by its name. */
    static String display(Object value) {
        if (value instanceof List<?> list) {
            return String.join(",", list.stream().map(String::valueOf).toList());
        }
        if (value instanceof Class<?> c) {
            return c.getName();
        }
        return String.valueOf(value);
    }
}
