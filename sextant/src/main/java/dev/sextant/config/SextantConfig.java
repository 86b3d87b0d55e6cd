package dev.sextant.config;

import java.io.File;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.connect.mirror.DefaultReplicationPolicy;
import org.apache.kafka.connect.mirror.IdentityReplicationPolicy;
import org.apache.kafka.connect.mirror.ReplicationPolicy;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Sextant's configuration: every key with its type, default, validator, importance and documentation, in Kafka's
 * own {@link ConfigDef}, as MirrorMaker 2 does.
 *
 * <p>Besides the keys defined here, three prefixes pass configuration through:
 * <ul>
 *   <li>{@code source.<client config>}: to every client of the source cluster (the Kafka Streams application runs
 *       there), e.g. {@code source.security.protocol}, {@code source.sasl.jaas.config};</li>
 *   <li>{@code destination.<client config>}: to the Admin client that writes offsets on the destination;</li>
 *   <li>{@code streams.<Kafka Streams config>}: to Kafka Streams, e.g. {@code streams.num.stream.threads}.</li>
 * </ul>
 *
 * <p>Constructing a {@code SextantConfig} validates everything and throws {@link InvalidConfigurationException} with
 * a message that names the key. {@link SextantConfigLoader} reads a properties file and environment variables.
 */
public class SextantConfig extends AbstractConfig {

    public static final String SOURCE_PREFIX = "source.";
    public static final String DESTINATION_PREFIX = "destination.";
    public static final String STREAMS_PREFIX = "streams.";

    public static final String SOURCE_ALIAS_CONFIG = "source.alias";
    public static final String DESTINATION_ALIAS_CONFIG = "destination.alias";
    public static final String SOURCE_BOOTSTRAP_SERVERS_CONFIG = "source.bootstrap.servers";
    public static final String DESTINATION_BOOTSTRAP_SERVERS_CONFIG = "destination.bootstrap.servers";
    public static final String TRANSLATION_CONFIG = "translation";
    public static final String OFFSET_SYNCS_TOPIC_CONFIG = "offset.syncs.topic";
    public static final String REPLICATION_POLICY_CONFIG = "replication.policy";
    public static final String REPLICATION_POLICY_SEPARATOR_CONFIG = "replication.policy.separator";
    public static final String REPLICATION_POLICY_INTERNAL_TOPIC_SEPARATOR_ENABLED_CONFIG =
            "replication.policy.internal.topic.separator.enabled";
    public static final String GROUPS_INCLUDE_CONFIG = "groups.include";
    public static final String GROUPS_EXCLUDE_CONFIG = "groups.exclude";
    public static final String TOPICS_INCLUDE_CONFIG = "topics.include";
    public static final String TOPICS_EXCLUDE_CONFIG = "topics.exclude";
    public static final String SYNC_CONSUMER_GROUPS_CONFIG = "sync.consumer.groups";
    public static final String SYNC_SHARE_GROUPS_CONFIG = "sync.share.groups";
    public static final String SYNC_INTERVAL_MS_CONFIG = "sync.interval.ms";
    public static final String SYNC_REWIND_CONFIG = "sync.rewind";
    public static final String SYNC_FOREIGN_OFFSETS_CONFIG = "sync.foreign.offsets";
    public static final String SYNC_PENDING_TIMEOUT_MS_CONFIG = "sync.pending.timeout.ms";
    public static final String EMIT_CHECKPOINTS_ENABLED_CONFIG = "emit.checkpoints.enabled";
    public static final String SYNC_WRITE_PARALLELISM_CONFIG = "sync.write.parallelism";
    public static final String OFFSET_SYNCS_PRUNE_INTERVAL_MS_CONFIG = "offset.syncs.prune.interval.ms";
    public static final String DLQ_TOPIC_CONFIG = "dlq.topic";
    public static final String DLQ_TOPIC_PARTITIONS_CONFIG = "dlq.topic.partitions";
    public static final String DLQ_TOPIC_REPLICATION_FACTOR_CONFIG = "dlq.topic.replication.factor";
    public static final String QUERY_LISTEN_CONFIG = "query.listen";
    public static final String HEALTH_DESTINATION_TIMEOUT_MS_CONFIG = "health.destination.timeout.ms";
    public static final long HEALTH_DESTINATION_TIMEOUT_MS_DEFAULT = 15_000L;
    public static final String QUERY_ADVERTISED_CONFIG = "query.advertised";
    public static final String QUERY_THREADS_CONFIG = "query.threads";
    public static final int QUERY_THREADS_DEFAULT = 16;
    public static final String QUERY_AUTH_TOKEN_CONFIG = "query.auth.token";
    public static final String QUERY_AUTH_OPEN_PATHS_CONFIG = "query.auth.open.paths";
    public static final String QUERY_AUTH_OPEN_PATHS_DEFAULT = "/health/live,/health/ready,/metrics";
    public static final String QUERY_TLS_KEYSTORE_LOCATION_CONFIG = "query.tls.keystore.location";
    public static final String QUERY_TLS_KEYSTORE_PASSWORD_CONFIG = "query.tls.keystore.password";
    public static final String QUERY_TLS_KEYSTORE_TYPE_CONFIG = "query.tls.keystore.type";
    public static final String QUERY_TLS_KEY_PASSWORD_CONFIG = "query.tls.key.password";
    public static final String QUERY_TLS_TRUSTSTORE_LOCATION_CONFIG = "query.tls.truststore.location";
    public static final String QUERY_TLS_TRUSTSTORE_PASSWORD_CONFIG = "query.tls.truststore.password";
    public static final String QUERY_TLS_TRUSTSTORE_TYPE_CONFIG = "query.tls.truststore.type";
    public static final String QUERY_TLS_CLIENT_AUTH_CONFIG = "query.tls.client.auth";
    /** Store types the HTTP API's TLS accepts, in any case (Kafka's own loader: PEM as well as the JDK's). */
    public static final List<String> QUERY_TLS_STORE_TYPES = List.of("pkcs12", "jks", "pem");
    public static final List<String> QUERY_TLS_CLIENT_AUTH_VALUES = List.of("none", "requested", "required");
    public static final String APPLICATION_ID_CONFIG = "application.id";
    public static final String STATE_DIR_CONFIG = "state.dir";

    public static final String SOURCE_ALIAS_DEFAULT = "source";
    public static final String DESTINATION_ALIAS_DEFAULT = "destination";
    public static final String REPLICATION_POLICY_DEFAULT = "default";
    public static final String REPLICATION_POLICY_IDENTITY = "identity";
    public static final String REPLICATION_POLICY_SEPARATOR_DEFAULT = DefaultReplicationPolicy.SEPARATOR_DEFAULT;
    public static final String GROUPS_INCLUDE_DEFAULT = ".*";
    public static final String GROUPS_EXCLUDE_DEFAULT = "__.*|connect-.*|console-consumer-.*";
    public static final String TOPICS_INCLUDE_DEFAULT = ".*";
    public static final String TOPICS_EXCLUDE_DEFAULT = ".*[-.]internal|.*\\.replica|__.*";
    public static final long SYNC_INTERVAL_MS_DEFAULT = 250L;
    public static final long SYNC_PENDING_TIMEOUT_MS_DEFAULT = 60_000L;
    public static final int SYNC_WRITE_PARALLELISM_DEFAULT = 16;
    public static final long OFFSET_SYNCS_PRUNE_INTERVAL_MS_DEFAULT = 300_000L;
    public static final String DLQ_TOPIC_DEFAULT = "sextant.conflicts";
    public static final String QUERY_LISTEN_DEFAULT = "127.0.0.1:8080";
    public static final String APPLICATION_ID_DEFAULT = "sextant";
    /** {@code ${java.io.tmpdir}/sextant}, computed when the class loads. */
    public static final String STATE_DIR_DEFAULT = System.getProperty("java.io.tmpdir") + File.separator + "sextant";

    /** Kafka Streams keys that Sextant sets from its own keys: {@code streams.<key>} → the key to use instead. */
    static final Map<String, String> FORBIDDEN_STREAMS_KEYS = Map.of(
            StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID_CONFIG,
            StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, SOURCE_BOOTSTRAP_SERVERS_CONFIG,
            StreamsConfig.STATE_DIR_CONFIG, STATE_DIR_CONFIG,
            StreamsConfig.APPLICATION_SERVER_CONFIG, QUERY_ADVERTISED_CONFIG);

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

    private static final ConfigDef CONFIG = buildConfigDef();

    private static final List<ConfigDef> CLIENT_CONFIG_DEFS = List.of(
            AdminClientConfig.configDef(), ConsumerConfig.configDef(), ProducerConfig.configDef());
    private static final ConfigDef STREAMS_CONFIG_DEF = StreamsConfig.configDef();

    private final ReplicationPolicy replicationPolicy;
    private final String offsetSyncsTopic;
    private final Pattern groupsInclude;
    private final Pattern groupsExclude;
    private final Pattern topicsInclude;
    private final Pattern topicsExclude;
    private final HostAndPort queryListen;
    private volatile HostAndPort queryAdvertised;

    /**
     * Validates {@code props} and builds the configuration.
     *
     * @throws InvalidConfigurationException naming the first key at fault
     */
    public SextantConfig(Map<String, ?> props) {
        this(props, Map.of());
    }

    /**
     * @param origins where each key came from, e.g. {@code "environment variable SEXTANT_SYNC_INTERVAL_MS"}; used in
     *                error messages
     */
    SextantConfig(Map<String, ?> props, Map<String, String> origins) {
        super(CONFIG, validate(props, origins), false);
        this.replicationPolicy = createReplicationPolicy(origins);
        String configuredTopic = getString(OFFSET_SYNCS_TOPIC_CONFIG);
        this.offsetSyncsTopic = configuredTopic != null ? configuredTopic : deriveOffsetSyncsTopic(origins);
        this.groupsInclude = Pattern.compile(getString(GROUPS_INCLUDE_CONFIG));
        this.groupsExclude = Pattern.compile("(?:" + getString(GROUPS_EXCLUDE_CONFIG) + ")|"
                + Pattern.quote(getString(APPLICATION_ID_CONFIG)));
        this.topicsInclude = Pattern.compile(getString(TOPICS_INCLUDE_CONFIG));
        this.topicsExclude = Pattern.compile(getString(TOPICS_EXCLUDE_CONFIG));
        this.queryListen = HostAndPort.parse(getString(QUERY_LISTEN_CONFIG));
        String advertised = getString(QUERY_ADVERTISED_CONFIG);
        this.queryAdvertised = advertised == null ? null : HostAndPort.parse(advertised);
        checkQueryTls(origins);
    }

    /** The keys of the HTTP API's TLS that only make sense together, and the files they name. */
    private void checkQueryTls(Map<String, String> origins) {
        String clientAuth = getString(QUERY_TLS_CLIENT_AUTH_CONFIG).toLowerCase(Locale.ROOT);
        String keystore = getString(QUERY_TLS_KEYSTORE_LOCATION_CONFIG);
        String truststore = getString(QUERY_TLS_TRUSTSTORE_LOCATION_CONFIG);
        if (!clientAuth.equals("none") && keystore == null) {
            throw new InvalidConfigurationException(QUERY_TLS_CLIENT_AUTH_CONFIG, clientAuth, "'"
                    + QUERY_TLS_CLIENT_AUTH_CONFIG + "=" + clientAuth + "'" + origin(QUERY_TLS_CLIENT_AUTH_CONFIG,
                    origins) + " needs TLS. Fix: set '" + QUERY_TLS_KEYSTORE_LOCATION_CONFIG + "' (the API's own "
                    + "key and certificate), or set '" + QUERY_TLS_CLIENT_AUTH_CONFIG + "=none'.");
        }
        if (!clientAuth.equals("none") && truststore == null) {
            throw new InvalidConfigurationException(QUERY_TLS_CLIENT_AUTH_CONFIG, clientAuth, "'"
                    + QUERY_TLS_CLIENT_AUTH_CONFIG + "=" + clientAuth + "'" + origin(QUERY_TLS_CLIENT_AUTH_CONFIG,
                    origins) + " checks client certificates against a truststore. Fix: set '"
                    + QUERY_TLS_TRUSTSTORE_LOCATION_CONFIG + "' to the CA (or certificates) of the clients.");
        }
        for (String key : List.of(QUERY_TLS_KEYSTORE_LOCATION_CONFIG, QUERY_TLS_TRUSTSTORE_LOCATION_CONFIG)) {
            String location = getString(key);
            if (location != null && !new File(location).canRead()) {
                throw new InvalidConfigurationException(key, location, "'" + key + "=" + location + "'"
                        + origin(key, origins) + ": " + (new File(location).exists() ? "the file cannot be read"
                        : "no such file") + ". Fix: point '" + key + "' at the store's file (readable by Sextant's "
                        + "user), or remove it.");
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ definition

    private static ConfigDef buildConfigDef() {
        ConfigDef def = new ConfigDef();
        int order = 0;
        define(def, SOURCE_ALIAS_CONFIG, Type.STRING, SOURCE_ALIAS_DEFAULT,
                ConfigValidators.nonEmptyWithoutWhitespace(), Importance.MEDIUM, GROUP_CLUSTERS, ++order,
                "Name of the source cluster, as MirrorMaker 2 knows it (its cluster alias). The default replication "
                        + "policy prefixes mirrored topic names with it: topic 'orders' is 'source.orders' on the "
                        + "destination.");
        define(def, DESTINATION_ALIAS_CONFIG, Type.STRING, DESTINATION_ALIAS_DEFAULT,
                ConfigValidators.nonEmptyWithoutWhitespace(), Importance.MEDIUM, GROUP_CLUSTERS, ++order,
                "Name of the destination cluster, as MirrorMaker 2 knows it (its cluster alias). It names MM2's "
                        + "offset-syncs topic, mm2-offset-syncs.<destination.alias>.internal.");
        define(def, SOURCE_BOOTSTRAP_SERVERS_CONFIG, Type.LIST, ConfigDef.NO_DEFAULT_VALUE,
                ConfigValidators.bootstrapServers(), Importance.HIGH, GROUP_CLUSTERS, ++order,
                "Required. Bootstrap servers of the source cluster, where Sextant's Kafka Streams application runs "
                        + "and reads __consumer_offsets, __share_group_state and the offset-syncs topic. Any other "
                        + "client setting for the source goes under the same prefix: source.security.protocol, "
                        + "source.sasl.mechanism, source.sasl.jaas.config, source.ssl.truststore.location, ...");
        define(def, DESTINATION_BOOTSTRAP_SERVERS_CONFIG, Type.LIST, ConfigDef.NO_DEFAULT_VALUE,
                ConfigValidators.bootstrapServers(), Importance.HIGH, GROUP_CLUSTERS, ++order,
                "Required. Bootstrap servers of the destination cluster, where Sextant writes group offsets through "
                        + "an Admin client. Any other client setting for the destination goes under the same prefix: "
                        + "destination.security.protocol, destination.sasl.jaas.config, ...");

        define(def, TRANSLATION_CONFIG, Type.STRING, Translation.OFFSET_SYNCS.configValue(),
                ConfigValidators.oneOf(Translation.configValues()), Importance.HIGH, GROUP_TRANSLATION, ++order,
                "How source offsets become destination offsets. 'offset-syncs' looks them up in MirrorMaker 2's "
                        + "offset-syncs topic (offset.syncs.topic). 'identity' is for offset-preserving mirrors "
                        + "(Cluster Linking, Kafka Cluster Mirroring): the destination offset is the source offset.");
        define(def, OFFSET_SYNCS_TOPIC_CONFIG, Type.STRING, null, ConfigValidators.topicName(true),
                Importance.MEDIUM, GROUP_TRANSLATION, ++order,
                "MirrorMaker 2's offset-syncs topic on the source cluster, read when translation=offset-syncs. "
                        + "Unset (or empty), it is the replication policy's name for it, as MM2 computes it with "
                        + "offset-syncs.topic.location=source: mm2-offset-syncs.<destination.alias>.internal, with "
                        + "'.' replaced by replication.policy.separator unless "
                        + "replication.policy.internal.topic.separator.enabled=false.");
        define(def, REPLICATION_POLICY_CONFIG, Type.STRING, REPLICATION_POLICY_DEFAULT,
                ConfigValidators.replicationPolicy(), Importance.HIGH, GROUP_TRANSLATION, ++order,
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
                ConfigValidators.nonEmpty(), Importance.LOW, GROUP_TRANSLATION, ++order,
                "Separator between the source alias and the topic name in mirrored topic names, as MM2's "
                        + "replication.policy.separator.");
        define(def, REPLICATION_POLICY_INTERNAL_TOPIC_SEPARATOR_ENABLED_CONFIG, Type.BOOLEAN,
                DefaultReplicationPolicy.INTERNAL_TOPIC_SEPARATOR_ENABLED_DEFAULT, null, Importance.LOW,
                GROUP_TRANSLATION, ++order,
                "Whether replication.policy.separator also applies to the names of MM2's internal topics, such as the "
                        + "offset-syncs topic, as MM2's key of the same name. Set it to match MM2.");

        define(def, GROUPS_INCLUDE_CONFIG, Type.STRING, GROUPS_INCLUDE_DEFAULT, ConfigValidators.regex(),
                Importance.MEDIUM, GROUP_FILTERS, ++order,
                "Groups to sync: a Java regular expression that must match the whole group id.");
        define(def, GROUPS_EXCLUDE_CONFIG, Type.STRING, GROUPS_EXCLUDE_DEFAULT, ConfigValidators.regex(),
                Importance.MEDIUM, GROUP_FILTERS, ++order,
                "Groups never to sync, even when groups.include matches: a Java regular expression that must match "
                        + "the whole group id. Sextant's own application.id (its Kafka Streams consumer group) is "
                        + "always excluded as well, whatever this is set to.");
        define(def, TOPICS_INCLUDE_CONFIG, Type.STRING, TOPICS_INCLUDE_DEFAULT, ConfigValidators.regex(),
                Importance.MEDIUM, GROUP_FILTERS, ++order,
                "Source topics whose committed offsets are synced: a Java regular expression that must match the "
                        + "whole topic name. Keep it in line with MM2's topics setting.");
        define(def, TOPICS_EXCLUDE_CONFIG, Type.STRING, TOPICS_EXCLUDE_DEFAULT, ConfigValidators.regex(),
                Importance.MEDIUM, GROUP_FILTERS, ++order,
                "Source topics never synced, even when topics.include matches: a Java regular expression that must "
                        + "match the whole topic name. The default is MM2's topics.exclude default.");

        define(def, SYNC_CONSUMER_GROUPS_CONFIG, Type.BOOLEAN, true, null, Importance.MEDIUM, GROUP_SYNC, ++order,
                "Whether to sync consumer groups (classic and consumer protocol).");
        define(def, SYNC_SHARE_GROUPS_CONFIG, Type.BOOLEAN, true, null, Importance.MEDIUM, GROUP_SYNC, ++order,
                "Whether to sync share groups (their share-partition start offsets).");
        define(def, SYNC_INTERVAL_MS_CONFIG, Type.LONG, SYNC_INTERVAL_MS_DEFAULT, ConfigValidators.atLeast(10),
                Importance.MEDIUM, GROUP_SYNC, ++order,
                "How often, in milliseconds, the positions gathered per group are written to the destination: one "
                        + "Admin write per group per interval, however many commits arrived.");
        define(def, SYNC_REWIND_CONFIG, Type.STRING, RewindPolicy.FOLLOW_SOURCE.configValue(),
                ConfigValidators.oneOf(RewindPolicy.configValues()), Importance.MEDIUM, GROUP_SYNC, ++order,
                "What to do when a source group moves backwards (an offset reset). 'follow-source' moves the "
                        + "destination back too, as long as the destination offset is still the one Sextant wrote; "
                        + "'never' never moves a destination offset backwards.");
        define(def, SYNC_FOREIGN_OFFSETS_CONFIG, Type.STRING, ForeignOffsetPolicy.REFUSE.configValue(),
                ConfigValidators.oneOf(ForeignOffsetPolicy.configValues()), Importance.MEDIUM, GROUP_SYNC, ++order,
                "What to do with a group whose destination offsets Sextant did not write (MirrorMaker 2's group "
                        + "sync, a consumer that ran on the destination). 'refuse' leaves the group alone and "
                        + "dead-letters it as DESTINATION_DIVERGED. 'adopt-forward' takes it over when it has no "
                        + "members on the destination and every new translation is at or above the offset there "
                        + "(below it, the group stays refused): use it to switch from MirrorMaker 2's group sync. "
                        + "The default is 'refuse' because after a failover the destination offsets are a live "
                        + "consumer's, which no sync should move.");
        define(def, EMIT_CHECKPOINTS_ENABLED_CONFIG, Type.BOOLEAN, false, null, Importance.LOW, GROUP_SYNC, ++order,
                "Whether to write MirrorMaker 2 checkpoints (MirrorMaker 2's own record format and topic, "
                        + "<source.alias>.checkpoints.internal through the replication policy, on the destination) "
                        + "for every consumer-group position Sextant applies, so that tools calling "
                        + "RemoteClusterUtils.translateOffsets keep working with MirrorMaker 2's checkpoints off. "
                        + "The topic is created compacted with one partition if it does not exist.");
        define(def, SYNC_PENDING_TIMEOUT_MS_CONFIG, Type.LONG, SYNC_PENDING_TIMEOUT_MS_DEFAULT,
                ConfigValidators.atLeast(0), Importance.LOW, GROUP_SYNC, ++order,
                "How long, in milliseconds, a position that cannot be applied yet (topic not mirrored yet, no offset "
                        + "sync covering the offset yet) is retried before it becomes a dead-letter record.");
        define(def, SYNC_WRITE_PARALLELISM_CONFIG, Type.INT, SYNC_WRITE_PARALLELISM_DEFAULT,
                ConfigValidators.between(1, 64), Importance.LOW, GROUP_SYNC, ++order,
                "The most offset writes Sextant keeps in flight to the destination at once, each through an Admin "
                        + "client of its own (a Kafka Admin client sends one request at a time to a broker, and each "
                        + "group's offsets are one request). Within this ceiling the number adapts to what the "
                        + "destination absorbs: it starts at 4 (or this, if lower) and rises while few writes wait "
                        + "at the destination (judged by how much slower than the fastest recent ones they are "
                        + "answered), and falls when many do or writes time out; writes beyond it wait in a queue. "
                        + "With 1, a single client writes one group at a time.");
        define(def, OFFSET_SYNCS_PRUNE_INTERVAL_MS_CONFIG, Type.LONG, OFFSET_SYNCS_PRUNE_INTERVAL_MS_DEFAULT,
                ConfigValidators.atLeast(1_000), Importance.LOW, GROUP_SYNC, ++order,
                "How often, in milliseconds, the offset-sync history is pruned: per source partition, syncs below "
                        + "both the partition's log start offset and the lowest offset any synced group committed "
                        + "there are dropped, except the newest of them (it still translates that offset).");

        define(def, DLQ_TOPIC_CONFIG, Type.STRING, DLQ_TOPIC_DEFAULT, ConfigValidators.topicName(false),
                Importance.MEDIUM, GROUP_DLQ, ++order,
                "Dead-letter topic on the source cluster, where Sextant records the positions it refused or could "
                        + "not apply, and why. Created at start when missing.");
        define(def, DLQ_TOPIC_PARTITIONS_CONFIG, Type.INT, 1, ConfigValidators.atLeast(1), Importance.LOW, GROUP_DLQ,
                ++order, "Number of partitions of the dead-letter topic when Sextant creates it.");
        define(def, DLQ_TOPIC_REPLICATION_FACTOR_CONFIG, Type.SHORT, (short) -1, ConfigValidators.replicationFactor(),
                Importance.LOW, GROUP_DLQ, ++order,
                "Replication factor of the dead-letter topic when Sextant creates it; -1 uses the broker's "
                        + "default.replication.factor.");

        define(def, QUERY_LISTEN_CONFIG, Type.STRING, QUERY_LISTEN_DEFAULT,
                ConfigValidators.hostAndPort(true, false, true), Importance.MEDIUM, GROUP_QUERY, ++order,
                "Address the HTTP API (queries, health, metrics) binds, as host:port. The default binds the loopback "
                        + "interface only; 0.0.0.0 binds every interface (needed for other instances, probes and "
                        + "scrapers on other hosts: then set query.auth.token or TLS client certificates). Port 0 "
                        + "picks a free port.");
        define(def, QUERY_ADVERTISED_CONFIG, Type.STRING, null, ConfigValidators.hostAndPort(false, true, false),
                Importance.MEDIUM, GROUP_QUERY, ++order,
                "Address other Sextant instances use to reach this one's HTTP API, as host:port (Kafka Streams' "
                        + "application.server). Unset (or empty), it is query.listen with a 0.0.0.0 host replaced by "
                        + "the local host name.");
        define(def, QUERY_THREADS_CONFIG, Type.INT, QUERY_THREADS_DEFAULT, ConfigValidators.between(2, 256),
                Importance.LOW, GROUP_QUERY, ++order,
                "Worker threads of the HTTP API's queries (a forwarded query holds one on each of two instances). "
                        + "When all are busy and their queue is full, a query answers 503 with Retry-After. "
                        + "/health/* and /metrics have a small pool of their own, so probes answer under load.");
        define(def, QUERY_AUTH_TOKEN_CONFIG, Type.PASSWORD, null, null, Importance.MEDIUM, GROUP_QUERY, ++order,
                "Bearer token the HTTP API requires ('Authorization: Bearer <token>') on every path except "
                        + "query.auth.open.paths; 401 without it. Every instance must have the same token: they "
                        + "forward queries to each other with it, and the CLI (-c) sends it too. Unset: no token. "
                        + "Use a config provider (${file:...}, ${env:...}) rather than writing it in the file.");
        define(def, QUERY_AUTH_OPEN_PATHS_CONFIG, Type.LIST, QUERY_AUTH_OPEN_PATHS_DEFAULT,
                ConfigValidators.paths(), Importance.LOW, GROUP_QUERY, ++order,
                "Paths answered without the token (exact paths, comma-separated), for probes and scrapers that "
                        + "cannot send one. Empty: every path needs the token.");
        define(def, QUERY_TLS_KEYSTORE_LOCATION_CONFIG, Type.STRING, null, null, Importance.MEDIUM, GROUP_QUERY,
                ++order, "Keystore with the HTTP API's key and certificate; set, the API is served over HTTPS only "
                        + "(and instances forward to each other over HTTPS: their certificates must be valid for "
                        + "their query.advertised hosts). Unset: plain HTTP.");
        define(def, QUERY_TLS_KEYSTORE_PASSWORD_CONFIG, Type.PASSWORD, null, null, Importance.MEDIUM, GROUP_QUERY,
                ++order, "Password of query.tls.keystore.location (PKCS12, JKS; for PEM, leave unset).");
        define(def, QUERY_TLS_KEYSTORE_TYPE_CONFIG, Type.STRING, "PKCS12",
                ConfigValidators.oneOf(QUERY_TLS_STORE_TYPES), Importance.LOW, GROUP_QUERY, ++order,
                "Format of query.tls.keystore.location: PKCS12, JKS, or PEM (one file with the private key, "
                        + "PKCS#8, followed by the certificate chain), as Kafka's ssl.keystore.type.");
        define(def, QUERY_TLS_KEY_PASSWORD_CONFIG, Type.PASSWORD, null, null, Importance.LOW, GROUP_QUERY, ++order,
                "Password of the private key in the keystore, when it differs from the keystore's (for PEM: the "
                        + "password of an encrypted key).");
        define(def, QUERY_TLS_TRUSTSTORE_LOCATION_CONFIG, Type.STRING, null, null, Importance.LOW, GROUP_QUERY,
                ++order, "Truststore of the certificates (or their CA) the HTTP API trusts: client certificates when "
                        + "query.tls.client.auth is set, and other instances' certificates when forwarding. Unset: "
                        + "the JVM's default trust (client certificates then cannot be required).");
        define(def, QUERY_TLS_TRUSTSTORE_PASSWORD_CONFIG, Type.PASSWORD, null, null, Importance.LOW, GROUP_QUERY,
                ++order, "Password of query.tls.truststore.location (PKCS12, JKS; for PEM, leave unset).");
        define(def, QUERY_TLS_TRUSTSTORE_TYPE_CONFIG, Type.STRING, "PKCS12",
                ConfigValidators.oneOf(QUERY_TLS_STORE_TYPES), Importance.LOW, GROUP_QUERY, ++order,
                "Format of query.tls.truststore.location: PKCS12, JKS, or PEM (CA certificates).");
        define(def, QUERY_TLS_CLIENT_AUTH_CONFIG, Type.STRING, "none",
                ConfigValidators.oneOf(QUERY_TLS_CLIENT_AUTH_VALUES), Importance.LOW, GROUP_QUERY, ++order,
                "Client certificates on the HTTP API's TLS: 'none', 'requested' (checked when sent), or "
                        + "'required' (a client without one trusted by query.tls.truststore.location cannot connect). "
                        + "Instances present their own keystore's certificate to each other.");
        define(def, HEALTH_DESTINATION_TIMEOUT_MS_CONFIG, Type.LONG, HEALTH_DESTINATION_TIMEOUT_MS_DEFAULT,
                ConfigValidators.atLeast(0), Importance.LOW, GROUP_QUERY, ++order,
                "How long, in milliseconds, the destination may be unreachable before /health/ready answers 503 "
                        + "(with the reason). Liveness stays 200: restarting Sextant does not bring a destination "
                        + "back, and positions keep being read and kept meanwhile.");

        define(def, APPLICATION_ID_CONFIG, Type.STRING, APPLICATION_ID_DEFAULT, ConfigValidators.applicationId(),
                Importance.HIGH, GROUP_STREAMS, ++order,
                "Kafka Streams application id: the consumer group of Sextant's instances (always excluded from "
                        + "syncing) and the prefix of its internal topics. Instances with the same id share the work.");
        define(def, STATE_DIR_CONFIG, Type.STRING, STATE_DIR_DEFAULT, ConfigValidators.nonEmpty(), Importance.MEDIUM,
                GROUP_STREAMS, ++order,
                "Folder of Kafka Streams' local state (RocksDB stores). Default ${java.io.tmpdir}/sextant; use a "
                        + "folder that survives restarts, or each restart rebuilds the stores from their changelogs.");
        return def;
    }

    private static void define(ConfigDef def, String name, Type type, Object defaultValue,
                               ConfigDef.Validator validator, Importance importance, String group, int order,
                               String doc) {
        def.define(name, type, defaultValue, validator, importance, doc, group, order, Width.MEDIUM, name,
                Collections.emptyList(), null, DEFAULT_DISPLAY.get(name));
    }

    /** A copy of the definition of every key, with its type, default, validator, importance and documentation. */
    public static ConfigDef configDef() {
        return new ConfigDef(CONFIG);
    }

    // ------------------------------------------------------------------------------------------------ validation

    /**
     * Checks every key and value; returns the map to hand to {@link AbstractConfig}: an empty value for a key whose
     * default is derived (offset.syncs.topic, query.advertised) means "derive it" and is dropped.
     */
    private static Map<String, Object> validate(Map<String, ?> raw, Map<String, String> origins) {
        Map<String, Object> props = ConfigProviders.resolve(raw);
        Map<String, Object> result = new TreeMap<>();
        for (Map.Entry<String, ?> e : props.entrySet()) {
            String key = e.getKey();
            Object value = e.getValue();
            if (key == null) {
                throw new InvalidConfigurationException(null, String.valueOf(value),
                        "A configuration entry has no key (value '" + value + "'). Fix: remove it.");
            }
            if (value == null) {
                continue;
            }
            ConfigDef.ConfigKey defined = CONFIG.configKeys().get(key);
            if (defined != null && defined.defaultValue == null && value instanceof String s && s.isBlank()) {
                continue;
            }
            result.put(key, value);
        }

        for (String key : result.keySet()) {
            if (key.startsWith(STREAMS_PREFIX)) {
                String use = FORBIDDEN_STREAMS_KEYS.get(key.substring(STREAMS_PREFIX.length()));
                if (use != null) {
                    throw new InvalidConfigurationException(key, display(result.get(key)), "'" + key + "'"
                            + origin(key, origins) + " cannot be set: Sextant sets Kafka Streams' "
                            + key.substring(STREAMS_PREFIX.length()) + " from its own key '" + use + "'. Fix: use '"
                            + use + "=" + display(result.get(key)) + "' instead (environment variable "
                            + SextantConfigLoader.environmentVariable(use) + ").");
                }
            }
        }

        for (String key : result.keySet()) {
            if (!CONFIG.configKeys().containsKey(key) && !isPassThrough(key)) {
                throw unknownKey(key, display(result.get(key)), origins);
            }
        }

        for (ConfigDef.ConfigKey key : CONFIG.configKeys().values()) {
            Object value = result.get(key.name);
            if (value == null) {
                if (!key.hasDefault()) {
                    throw missing(key);
                }
                continue;
            }
            checkValue(key.name, key, value, origins);
        }

        for (Map.Entry<String, Object> e : result.entrySet()) {
            String key = e.getKey();
            if (CONFIG.configKeys().containsKey(key)) {
                continue;
            }
            String name = key.substring(key.indexOf('.') + 1);
            List<ConfigDef> defs = key.startsWith(STREAMS_PREFIX)
                    ? List.of(STREAMS_CONFIG_DEF, CLIENT_CONFIG_DEFS.get(0), CLIENT_CONFIG_DEFS.get(1),
                            CLIENT_CONFIG_DEFS.get(2))
                    : CLIENT_CONFIG_DEFS;
            for (ConfigDef def : defs) {
                ConfigDef.ConfigKey known = def.configKeys().get(name);
                if (known != null) {
                    checkValue(key, known, e.getValue(), origins);
                    break;
                }
            }
        }
        return result;
    }

    private static boolean isPassThrough(String key) {
        for (String prefix : List.of(SOURCE_PREFIX, DESTINATION_PREFIX, STREAMS_PREFIX)) {
            if (key.startsWith(prefix) && key.length() > prefix.length()) {
                return true;
            }
        }
        return false;
    }

    /** Parses and validates one value against a key's definition; {@code key} is the name the user wrote. */
    private static void checkValue(String key, ConfigDef.ConfigKey definition, Object value,
                                   Map<String, String> origins) {
        Object parsed;
        try {
            parsed = ConfigDef.parseType(definition.name, value, definition.type);
        } catch (ConfigException e) {
            throw badValue(key, definition, value, "expected " + describeType(definition.type), origins, e);
        }
        if (definition.validator != null) {
            try {
                definition.validator.ensureValid(definition.name, parsed);
            } catch (ConfigException e) {
                throw badValue(key, definition, value, reason(e, definition.name, parsed), origins, e);
            } catch (RuntimeException e) {
                throw badValue(key, definition, value, String.valueOf(e.getMessage()), origins, e);
            }
        }
    }

    private static InvalidConfigurationException badValue(String key, ConfigDef.ConfigKey definition, Object value,
                                                          String reason, Map<String, String> origins,
                                                          Exception cause) {
        String shown = isSecret(key) || definition.type == Type.PASSWORD ? "[hidden]" : display(value);
        StringBuilder message = new StringBuilder()
                .append("Invalid value '").append(shown).append("' for '").append(key).append("'")
                .append(origin(key, origins)).append(": ").append(reason).append(". Accepted: ")
                .append(accepts(definition)).append(". Fix: ");
        if (CONFIG.configKeys().get(key) == definition) {
            if (definition.hasDefault()) {
                message.append("set '").append(key).append("' to an accepted value, or remove it to use the default (")
                        .append(displayDefault(definition)).append(").");
            } else {
                message.append("set '").append(key).append("' to an accepted value.");
            }
        } else {
            message.append("set '").append(key).append("' to an accepted value, or remove it to use Kafka's default")
                    .append(definition.hasDefault() ? " (" + displayDefault(definition) + ")" : "").append('.');
        }
        return new InvalidConfigurationException(key, shown, message.toString(), cause);
    }

    private static InvalidConfigurationException unknownKey(String key, String value, Map<String, String> origins) {
        Optional<String> suggestion = suggestKey(key);
        StringBuilder message = new StringBuilder("Unknown configuration key '").append(key).append("'")
                .append(origin(key, origins)).append('.');
        suggestion.ifPresent(s -> message.append(" Did you mean '").append(s).append("'?"));
        message.append(" Accepted: the keys documented in config/sextant.properties, any client config under '")
                .append(SOURCE_PREFIX).append("' or '").append(DESTINATION_PREFIX)
                .append("', and any Kafka Streams config under '").append(STREAMS_PREFIX).append("'. Fix: ")
                .append(suggestion.map(s -> "rename it to '" + s + "', or remove it.").orElse("remove it."));
        return new InvalidConfigurationException(key, value, message.toString());
    }

    /** The closest defined key, or the same key under the closest pass-through prefix. */
    static Optional<String> suggestKey(String key) {
        List<String> candidates = new ArrayList<>(CONFIG.names());
        int dot = key.indexOf('.');
        if (dot > 0) {
            String first = key.substring(0, dot + 1).toLowerCase(Locale.ROOT);
            String rest = key.substring(dot + 1);
            for (String prefix : List.of(SOURCE_PREFIX, DESTINATION_PREFIX, STREAMS_PREFIX)) {
                if (!first.equals(prefix) && Suggestions.editDistance(first, prefix) <= 2 && !rest.isEmpty()) {
                    candidates.add(prefix + rest);
                }
            }
        }
        return Suggestions.closest(key, candidates);
    }

    private static InvalidConfigurationException missing(ConfigDef.ConfigKey key) {
        String example = key.name.equals(SOURCE_BOOTSTRAP_SERVERS_CONFIG) ? "127.0.0.1:9092"
                : key.name.equals(DESTINATION_BOOTSTRAP_SERVERS_CONFIG) ? "127.0.0.1:9093" : "...";
        return new InvalidConfigurationException(key.name, null, "Missing required configuration '" + key.name
                + "', which has no default. Accepted: " + accepts(key) + ". Fix: add '" + key.name + "=" + example
                + "' to the configuration file, or set the environment variable "
                + SextantConfigLoader.environmentVariable(key.name) + ".");
    }

    private static String origin(String key, Map<String, String> origins) {
        String origin = origins.get(key);
        return origin == null ? "" : " (from " + origin + ")";
    }

    /** The reason part of a ConfigException message, without Kafka's "Invalid value X for configuration Y: ". */
    private static String reason(ConfigException e, String name, Object value) {
        String message = String.valueOf(e.getMessage());
        String marker = " for configuration " + name + ": ";
        int at = message.indexOf(marker);
        if (message.startsWith("Invalid value ") && at >= 0) {
            message = message.substring(at + marker.length());
        }
        if (message.endsWith(".")) {
            message = message.substring(0, message.length() - 1);
        }
        return message.isEmpty() ? "not accepted" : message;
    }

    private static String accepts(ConfigDef.ConfigKey key) {
        if (key.validator == null) {
            return describeType(key.type);
        }
        return switch (key.type) {
            case SHORT, INT, LONG -> "a whole number, " + key.validator;
            case DOUBLE -> "a number, " + key.validator;
            default -> key.validator.toString();
        };
    }

    private static String describeType(Type type) {
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

    private static String display(Object value) {
        if (value instanceof List<?> list) {
            return String.join(",", list.stream().map(String::valueOf).toList());
        }
        if (value instanceof Class<?> c) {
            return c.getName();
        }
        return String.valueOf(value);
    }

    private static String displayDefault(ConfigDef.ConfigKey key) {
        if (key.alternativeString != null) {
            return key.alternativeString;
        }
        if (!key.hasDefault()) {
            return "none, required";
        }
        Object value = key.defaultValue;
        return value == null ? "unset" : display(value);
    }

    private ReplicationPolicy createReplicationPolicy(Map<String, String> origins) {
        String value = getString(REPLICATION_POLICY_CONFIG);
        Class<? extends ReplicationPolicy> type = ConfigValidators.replicationPolicyClass(REPLICATION_POLICY_CONFIG,
                value);
        try {
            ReplicationPolicy policy = Utils.newInstance(type);
            if (policy instanceof Configurable configurable) {
                configurable.configure(replicationPolicyConfig());
            }
            return policy;
        } catch (RuntimeException | LinkageError e) {
            throw new InvalidConfigurationException(REPLICATION_POLICY_CONFIG, value, "Invalid value '" + value
                    + "' for '" + REPLICATION_POLICY_CONFIG + "'" + origin(REPLICATION_POLICY_CONFIG, origins)
                    + ": class " + type.getName() + " could not be created and configured: " + e
                    + ". Accepted: " + accepts(CONFIG.configKeys().get(REPLICATION_POLICY_CONFIG))
                    + ". Fix: check the class and its configuration, or use 'default' or 'identity'.", e);
        }
    }

    /** What the replication policy is configured with, as MirrorMaker 2 passes these keys to it. */
    private Map<String, Object> replicationPolicyConfig() {
        Map<String, Object> config = new HashMap<>();
        // MM2's policies log these at INFO/WARN whenever present, so like MM2 with its defaults, pass them only
        // when they differ from the defaults.
        String separator = getString(REPLICATION_POLICY_SEPARATOR_CONFIG);
        if (!separator.equals(DefaultReplicationPolicy.SEPARATOR_DEFAULT)) {
            config.put(DefaultReplicationPolicy.SEPARATOR_CONFIG, separator);
        }
        boolean internalSeparator = getBoolean(REPLICATION_POLICY_INTERNAL_TOPIC_SEPARATOR_ENABLED_CONFIG);
        if (internalSeparator != DefaultReplicationPolicy.INTERNAL_TOPIC_SEPARATOR_ENABLED_DEFAULT) {
            config.put(DefaultReplicationPolicy.INTERNAL_TOPIC_SEPARATOR_ENABLED_CONFIG, String.valueOf(internalSeparator));
        }
        config.put(IdentityReplicationPolicy.SOURCE_CLUSTER_ALIAS_CONFIG, sourceAlias());
        config.put("target.cluster.alias", destinationAlias());
        return config;
    }

    private String deriveOffsetSyncsTopic(Map<String, String> origins) {
        String topic = replicationPolicy.offsetSyncsTopic(destinationAlias());
        try {
            Topic.validate(topic);
        } catch (InvalidTopicException e) {
            throw new InvalidConfigurationException(OFFSET_SYNCS_TOPIC_CONFIG, topic, "The offset-syncs topic name '"
                    + topic + "' derived from '" + DESTINATION_ALIAS_CONFIG + "=" + destinationAlias() + "'"
                    + origin(DESTINATION_ALIAS_CONFIG, origins) + " is not a valid topic name: " + e.getMessage()
                    + ". Accepted: " + CONFIG.configKeys().get(OFFSET_SYNCS_TOPIC_CONFIG).validator + ". Fix: set '" + OFFSET_SYNCS_TOPIC_CONFIG + "' to the topic MirrorMaker 2 writes, or use a '"
                    + DESTINATION_ALIAS_CONFIG + "' made of [a-zA-Z0-9._-].", e);
        }
        return topic;
    }

    // ------------------------------------------------------------------------------------------------ accessors

    /** {@code source.alias}. */
    public String sourceAlias() {
        return getString(SOURCE_ALIAS_CONFIG);
    }

    /** {@code destination.alias}. */
    public String destinationAlias() {
        return getString(DESTINATION_ALIAS_CONFIG);
    }

    /** {@code translation}. */
    public Translation translation() {
        return Translation.fromConfigValue(getString(TRANSLATION_CONFIG));
    }

    /**
     * {@code offset.syncs.topic}, or when unset the replication policy's
     * {@link ReplicationPolicy#offsetSyncsTopic(String) offsetSyncsTopic(destination.alias)}, as MM2 names it
     * ({@code mm2-offset-syncs.destination.internal} by default).
     */
    public String offsetSyncsTopic() {
        return offsetSyncsTopic;
    }

    /**
     * The replication policy named by {@code replication.policy}, created once at load and configured as MM2 does
     * with {@code replication.policy.separator}, {@code replication.policy.internal.topic.separator.enabled},
     * {@code source.cluster.alias} (= source.alias) and {@code target.cluster.alias} (= destination.alias). The same
     * instance is returned on every call.
     */
    public ReplicationPolicy replicationPolicy() {
        return replicationPolicy;
    }

    /** {@code replication.policy.separator}. */
    public String replicationPolicySeparator() {
        return getString(REPLICATION_POLICY_SEPARATOR_CONFIG);
    }

    /** {@code groups.include}. */
    public Pattern groupsInclude() {
        return groupsInclude;
    }

    /** {@code groups.exclude}, plus Sextant's own {@code application.id} (always excluded). */
    public Pattern groupsExclude() {
        return groupsExclude;
    }

    /** {@code topics.include}. */
    public Pattern topicsInclude() {
        return topicsInclude;
    }

    /** {@code topics.exclude}. */
    public Pattern topicsExclude() {
        return topicsExclude;
    }

    /** Whether a group is synced: {@link #groupsInclude()} matches the whole id and {@link #groupsExclude()} does not. */
    public boolean includesGroup(String groupId) {
        return groupsInclude.matcher(groupId).matches() && !groupsExclude.matcher(groupId).matches();
    }

    /** Whether a source topic is synced: {@link #topicsInclude()} matches the whole name and {@link #topicsExclude()} does not. */
    public boolean includesTopic(String topic) {
        return topicsInclude.matcher(topic).matches() && !topicsExclude.matcher(topic).matches();
    }

    /** {@code sync.consumer.groups}. */
    public boolean syncConsumerGroups() {
        return getBoolean(SYNC_CONSUMER_GROUPS_CONFIG);
    }

    /** {@code sync.share.groups}. */
    public boolean syncShareGroups() {
        return getBoolean(SYNC_SHARE_GROUPS_CONFIG);
    }

    /** {@code sync.write.parallelism}. */
    public int syncWriteParallelism() {
        return getInt(SYNC_WRITE_PARALLELISM_CONFIG);
    }

    /** {@code sync.interval.ms}. */
    public long syncIntervalMs() {
        return getLong(SYNC_INTERVAL_MS_CONFIG);
    }

    /** {@code sync.rewind}. */
    public RewindPolicy rewindPolicy() {
        return RewindPolicy.fromConfigValue(getString(SYNC_REWIND_CONFIG));
    }

    /** {@code emit.checkpoints.enabled}. */
    public boolean emitCheckpoints() {
        return getBoolean(EMIT_CHECKPOINTS_ENABLED_CONFIG);
    }

    /** MirrorMaker 2's checkpoints topic on the destination, through the replication policy. */
    public String checkpointsTopic() {
        return replicationPolicy().checkpointsTopic(sourceAlias());
    }

    /** {@code sync.foreign.offsets}. */
    public ForeignOffsetPolicy foreignOffsetPolicy() {
        return ForeignOffsetPolicy.fromConfigValue(getString(SYNC_FOREIGN_OFFSETS_CONFIG));
    }

    /** {@code sync.pending.timeout.ms}. */
    public long offsetSyncsPruneIntervalMs() {
        return getLong(OFFSET_SYNCS_PRUNE_INTERVAL_MS_CONFIG);
    }

    public long healthDestinationTimeoutMs() {
        return getLong(HEALTH_DESTINATION_TIMEOUT_MS_CONFIG);
    }

    public long pendingTimeoutMs() {
        return getLong(SYNC_PENDING_TIMEOUT_MS_CONFIG);
    }

    /** {@code dlq.topic}. */
    public String dlqTopic() {
        return getString(DLQ_TOPIC_CONFIG);
    }

    /** {@code dlq.topic.partitions}. */
    public int dlqTopicPartitions() {
        return getInt(DLQ_TOPIC_PARTITIONS_CONFIG);
    }

    /** {@code dlq.topic.replication.factor}; -1 means the broker's default. */
    public short dlqTopicReplicationFactor() {
        return getShort(DLQ_TOPIC_REPLICATION_FACTOR_CONFIG);
    }

    /** {@code query.listen}; port 0 means "pick a free port". */
    public HostAndPort queryListen() {
        return queryListen;
    }

    /**
     * {@code query.advertised}, or when unset {@link #queryListen()} with a wildcard host (0.0.0.0, ::) replaced by
     * the local host name (resolved once, on first call; {@code localhost} if it cannot be resolved). When it is
     * derived from a listen port of 0, the port is 0 too: the HTTP server should advertise
     * {@code queryAdvertised().withPort(boundPort)}.
     */
    public HostAndPort queryAdvertised() {
        HostAndPort advertised = queryAdvertised;
        if (advertised == null) {
            advertised = queryListen.isWildcard() ? queryListen.withHost(localHostName()) : queryListen;
            queryAdvertised = advertised;
        }
        return advertised;
    }

    private static String localHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    /** {@code query.threads}. */
    public int queryThreads() {
        return getInt(QUERY_THREADS_CONFIG);
    }

    /** {@code query.auth.token}, when set. */
    public Optional<String> queryAuthToken() {
        org.apache.kafka.common.config.types.Password token = getPassword(QUERY_AUTH_TOKEN_CONFIG);
        return token == null || token.value().isEmpty() ? Optional.empty() : Optional.of(token.value());
    }

    /** {@code query.auth.open.paths}: answered without the token. */
    public List<String> queryAuthOpenPaths() {
        return List.copyOf(getList(QUERY_AUTH_OPEN_PATHS_CONFIG));
    }

    /** True when {@code query.tls.keystore.location} is set: the HTTP API speaks HTTPS. */
    public boolean queryTls() {
        return getString(QUERY_TLS_KEYSTORE_LOCATION_CONFIG) != null;
    }

    /** {@code query.tls.client.auth}, lower case: none, requested or required. */
    public String queryTlsClientAuth() {
        return getString(QUERY_TLS_CLIENT_AUTH_CONFIG).toLowerCase(Locale.ROOT);
    }

    /**
     * The HTTP API's TLS settings as Kafka's {@code ssl.*} client keys (keystore, key password, truststore), for
     * Kafka's own SSL engine factory to load: the same loader, and so the same formats, as the Kafka clients'.
     */
    public Map<String, Object> queryTlsSslConfigs() {
        Map<String, Object> ssl = new HashMap<>();
        putIfSet(ssl, "ssl.keystore.location", getString(QUERY_TLS_KEYSTORE_LOCATION_CONFIG));
        putIfSet(ssl, "ssl.keystore.password", getPassword(QUERY_TLS_KEYSTORE_PASSWORD_CONFIG));
        ssl.put("ssl.keystore.type", getString(QUERY_TLS_KEYSTORE_TYPE_CONFIG).toUpperCase(Locale.ROOT));
        putIfSet(ssl, "ssl.key.password", getPassword(QUERY_TLS_KEY_PASSWORD_CONFIG));
        putIfSet(ssl, "ssl.truststore.location", getString(QUERY_TLS_TRUSTSTORE_LOCATION_CONFIG));
        putIfSet(ssl, "ssl.truststore.password", getPassword(QUERY_TLS_TRUSTSTORE_PASSWORD_CONFIG));
        ssl.put("ssl.truststore.type", getString(QUERY_TLS_TRUSTSTORE_TYPE_CONFIG).toUpperCase(Locale.ROOT));
        return ssl;
    }

    private static void putIfSet(Map<String, Object> map, String key, Object value) {
        if (value != null) {
            map.put(key, value);
        }
    }

    /** {@code application.id}. */
    public String applicationId() {
        return getString(APPLICATION_ID_CONFIG);
    }

    /** {@code state.dir}. */
    public String stateDir() {
        return getString(STATE_DIR_CONFIG);
    }

    /**
     * Every {@code source.*} client config with the prefix stripped ({@code bootstrap.servers}, security, ...), values
     * as given; Sextant's own {@code source.alias} is not part of it.
     */
    public Map<String, Object> sourceClientConfig() {
        return passThrough(SOURCE_PREFIX);
    }

    /** Every {@code destination.*} client config with the prefix stripped; {@code destination.alias} is not part of it. */
    public Map<String, Object> destinationClientConfig() {
        return passThrough(DESTINATION_PREFIX);
    }

    /** Every {@code streams.*} Kafka Streams config with the prefix stripped. */
    public Map<String, Object> streamsOverrides() {
        return passThrough(STREAMS_PREFIX);
    }

    /** True when {@code streams.processing.guarantee} asks for exactly-once. */
    public boolean exactlyOnce() {
        Object guarantee = streamsOverrides().get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG);
        return guarantee != null && guarantee.toString().startsWith("exactly_once");
    }

    private Map<String, Object> passThrough(String prefix) {
        Map<String, Object> config = new TreeMap<>(originalsWithPrefix(prefix, true));
        config.keySet().removeIf(name -> CONFIG.configKeys().containsKey(prefix + name)
                && !name.equals(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG));
        return Collections.unmodifiableMap(config);
    }

    // ------------------------------------------------------------------------------------------------ documentation

    /**
     * Every key as a Markdown table (key, environment variable, default, accepted values, description), followed by
     * the three pass-through prefixes. The README includes it.
     */
    public static String documentation() {
        StringBuilder md = new StringBuilder();
        md.append("| key | environment variable | default | accepted values | importance | description |\n");
        md.append("|---|---|---|---|---|---|\n");
        for (ConfigDef.ConfigKey key : CONFIG.configKeys().values()) {
            md.append("| `").append(key.name).append("` | `").append(SextantConfigLoader.environmentVariable(key.name))
                    .append("` | ").append(key.hasDefault() ? "`" + markdownCode(displayDefault(key)) + "`" : "required")
                    .append(" | ").append(markdownText(accepts(key)))
                    .append(" | ").append(key.importance.name().toLowerCase(Locale.ROOT))
                    .append(" | ").append(markdownText(key.documentation)).append(" |\n");
        }
        md.append("| `source.<client config>` | `SEXTANT_SOURCE_<CONFIG>` | | any Kafka client config | high | "
                + "Passed to every client of the source cluster (Kafka Streams' consumers, producers and admin), "
                + "e.g. `source.security.protocol`, `source.sasl.mechanism`, `source.sasl.jaas.config`, "
                + "`source.ssl.truststore.location`. |\n");
        md.append("| `destination.<client config>` | `SEXTANT_DESTINATION_<CONFIG>` | | any Kafka client config | high | "
                + "Passed to the Admin client that writes group offsets on the destination cluster. |\n");
        md.append("| `streams.<Kafka Streams config>` | `SEXTANT_STREAMS_<CONFIG>` | | any Kafka Streams config except "
                + "`application.id`, `bootstrap.servers`, `state.dir`, `application.server` | medium | "
                + "Passed to Kafka Streams, e.g. `streams.num.stream.threads`, `streams.num.standby.replicas`, "
                + "`streams.processing.guarantee`. The four exceptions come from `application.id`, "
                + "`source.bootstrap.servers`, `state.dir` and `query.advertised`. |\n");
        return md.toString();
    }

    /** Every key in reStructuredText, as Kafka's own documentation renders a {@link ConfigDef}. */
    public static String documentationRst() {
        return CONFIG.toRst();
    }

    /** A table cell inside a code span: only the column separator needs escaping. */
    private static String markdownCode(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }

    /** A table cell of plain text: also keep {@code <destination.alias>} from being read as an HTML tag. */
    private static String markdownText(String text) {
        return markdownCode(text).replace("<", "&lt;").replace(">", "&gt;");
    }

    /** The keys that are defined (not the pass-through prefixes). */
    public static Set<String> definedKeys() {
        return Collections.unmodifiableSet(new TreeSet<>(CONFIG.names()));
    }

    /** Every key and value, with secrets (passwords, JAAS configs, private keys) masked. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("SextantConfig{");
        boolean first = true;
        for (Map.Entry<String, Object> e : new TreeMap<>(originals()).entrySet()) {
            sb.append(first ? "" : ", ").append(e.getKey()).append('=')
                    .append(isSecret(e.getKey()) ? "[hidden]" : display(e.getValue()));
            first = false;
        }
        return sb.append('}').toString();
    }

    private static boolean isSecret(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return k.contains("password") || k.contains("secret") || k.contains("jaas") || k.endsWith(".key")
                || k.contains("credentials") || k.contains("token");
    }
}
