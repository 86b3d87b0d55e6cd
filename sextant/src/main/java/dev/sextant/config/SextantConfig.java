package dev.sextant.config;

import static dev.sextant.config.ConfigKeys.APPLICATION_ID_CONFIG;
import static dev.sextant.config.ConfigKeys.DESTINATION_ALIAS_CONFIG;
import static dev.sextant.config.ConfigKeys.DLQ_TOPIC_CONFIG;
import static dev.sextant.config.ConfigKeys.DLQ_TOPIC_PARTITIONS_CONFIG;
import static dev.sextant.config.ConfigKeys.DLQ_TOPIC_REPLICATION_FACTOR_CONFIG;
import static dev.sextant.config.ConfigKeys.EMIT_CHECKPOINTS_ENABLED_CONFIG;
import static dev.sextant.config.ConfigKeys.FAILBACK_HISTORY_TOPIC_CONFIG;
import static dev.sextant.config.ConfigKeys.HEALTH_DESTINATION_TIMEOUT_MS_CONFIG;
import static dev.sextant.config.ConfigKeys.OFFSET_SYNCS_PRUNE_INTERVAL_MS_CONFIG;
import static dev.sextant.config.ConfigKeys.OFFSET_SYNCS_TOPIC_CONFIG;
import static dev.sextant.config.ConfigKeys.REPLICATION_POLICY_SEPARATOR_CONFIG;
import static dev.sextant.config.ConfigKeys.SOURCE_ALIAS_CONFIG;
import static dev.sextant.config.ConfigKeys.SOURCE_OFFSETS_READ_CONFIG;
import static dev.sextant.config.ConfigKeys.STATE_DIR_CONFIG;
import static dev.sextant.config.ConfigKeys.STATE_MEMORY_BYTES_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_CONSUMER_GROUPS_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_FOREIGN_OFFSETS_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_INTERVAL_MS_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_OFFSETS_REFRESH_MS_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_PENDING_TIMEOUT_MS_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_REWIND_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_SHARE_GROUPS_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_STREAMS_DESTINATION_KAFKA_VERSION_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_UNTRANSLATABLE_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_WRITE_PARALLELISM_CONFIG;
import static dev.sextant.config.ConfigKeys.TRANSLATION_CONFIG;
import static dev.sextant.config.ConfigKeys.TRANSLATION_INTERPOLATION_CONFIG;
import static dev.sextant.config.ConfigKeys.TRANSLATION_VERIFY_MAX_RECORDS_CONFIG;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.mirror.ReplicationPolicy;

/**
 * Sextant's configuration: typed accessors for the values of a configuration that passed every check.
 *
 * <p>The name of every key, the pass-through prefixes ({@code source.}, {@code destination.}, {@code streams.}) and
 * the defaults are in {@link ConfigKeys}. Each key's type, default, validator and documentation are in
 * {@link ConfigDefinitions}; the checks and their messages in {@link ConfigChecks}; the generated reference in
 * {@link ConfigDocs}; the Kafka Streams configuration in {@link StreamsProperties}. {@link SextantConfigLoader} reads
 * a properties file and environment variables. Parts with an idea of their own are built apart and read here: the
 * replication policy ({@link ReplicationPolicies}), the filters ({@link SyncFilters}), the HTTP API
 * ({@link QueryApiConfig}) and what is handed on to Kafka's clients ({@link PassThroughConfigs}).
 *
 * <p>Invariants: constructing a {@code SextantConfig} validates everything and throws
 * {@link InvalidConfigurationException} with a message that names every key at fault; the parts are built from the
 * parsed values, so no part sees the configuration before it is whole; once constructed, the replication policy, the
 * offset-syncs topic and the filters are fixed. {@link #toString()} hides secrets.
 */
public class SextantConfig extends AbstractConfig {

    private final ReplicationPolicy replicationPolicy;
    private final String offsetSyncsTopic;
    private final SyncFilters filters;
    private final QueryApiConfig query;
    private final PassThroughConfigs passThrough;
    private final List<String> warnings;

    /**
     * Validates {@code props} and builds the configuration.
     *
     * @throws InvalidConfigurationException naming every key at fault
     */
    public SextantConfig(Map<String, ?> props) {
        this(props, Map.of());
    }

    /**
     * @param origins where each key came from, e.g. {@code "environment variable SEXTANT_SYNC_INTERVAL_MS"}; used in
     *                error messages
     */
    SextantConfig(Map<String, ?> props, Map<String, String> origins) {
        this(props, origins, ConfigChecks.References.RESOLVED);
    }

    /** @param references what is done with config-provider references before the checks */
    SextantConfig(Map<String, ?> props, Map<String, String> origins, ConfigChecks.References references) {
        this(ConfigChecks.validate(props, origins, references), origins);
    }

    private SextantConfig(ConfigChecks.Checked checked, Map<String, String> origins) {
        this(checked, ConfigDefinitions.DEFINITION.parse(checked.props()), origins);
    }

    /** @param values {@code checked}'s values parsed, as {@link AbstractConfig} parses them: the parts' input */
    private SextantConfig(ConfigChecks.Checked checked, Map<String, Object> values, Map<String, String> origins) {
        super(ConfigDefinitions.DEFINITION, checked.props(), false);
        this.warnings = checked.warnings();
        this.replicationPolicy = ReplicationPolicies.create(values, origins);
        String configuredTopic = (String) values.get(OFFSET_SYNCS_TOPIC_CONFIG);
        this.offsetSyncsTopic = configuredTopic != null ? configuredTopic : ReplicationPolicies.offsetSyncsTopic(
                replicationPolicy, (String) values.get(DESTINATION_ALIAS_CONFIG), origins);
        this.filters = SyncFilters.of(values);
        this.query = QueryApiConfig.of(values, origins, !checked.offline());
        this.passThrough = new PassThroughConfigs(checked.props());
    }

    /** A copy of the definition of every key, with its type, default, validator, importance and documentation. */
    public static ConfigDef configDef() {
        return ConfigDefinitions.copy();
    }

    /** The keys that are defined (not the pass-through prefixes). */
    public static Set<String> definedKeys() {
        return ConfigDefinitions.names();
    }

    /**
     * What the checks found doubtful but did not refuse, in words (each also logged when the configuration was
     * built): a key Kafka does not define, kept for the plugins its clients load.
     */
    public List<String> warnings() {
        return warnings;
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

    /** {@code translation.interpolation}. */
    public Interpolation interpolation() {
        return Interpolation.fromConfigValue(getString(TRANSLATION_INTERPOLATION_CONFIG));
    }

    /** {@code translation.verify.max.records}. */
    public int verifyMaxRecords() {
        return getInt(TRANSLATION_VERIFY_MAX_RECORDS_CONFIG);
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
     * {@code failback.history.topic}: the forward Sextant's offset-sync history on this Sextant's destination, through
     * which the source's mirrors of the destination's own topics are translated back home; empty when not set.
     */
    public Optional<String> failbackHistoryTopic() {
        String topic = getString(FAILBACK_HISTORY_TOPIC_CONFIG);
        return topic == null || topic.isBlank() ? Optional.empty() : Optional.of(topic.trim());
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

    /** {@code groups.include}, a comma-separated list joined with {@code |}. */
    public Pattern groupsInclude() {
        return filters.groupsInclude();
    }

    /** {@code groups.exclude}, plus Sextant's own {@code application.id} (always excluded). */
    public Pattern groupsExclude() {
        return filters.groupsExclude();
    }

    /** {@code topics.include}, a comma-separated list joined with {@code |}. */
    public Pattern topicsInclude() {
        return filters.topicsInclude();
    }

    /** {@code topics.exclude}, a comma-separated list joined with {@code |}. */
    public Pattern topicsExclude() {
        return filters.topicsExclude();
    }

    /**
     * Whether a group is synced: {@link #groupsInclude()} matches the whole id and {@link #groupsExclude()} does not.
     */
    public boolean includesGroup(String groupId) {
        return filters.includesGroup(groupId);
    }

    /**
     * Whether a source topic is synced: {@link #topicsInclude()} matches the whole name and {@link #topicsExclude()}
     * does not.
     */
    public boolean includesTopic(String topic) {
        return filters.includesTopic(topic);
    }

    /** {@code sync.consumer.groups}. */
    public boolean syncConsumerGroups() {
        return getBoolean(SYNC_CONSUMER_GROUPS_CONFIG);
    }

    /** {@code sync.share.groups}; false with {@code source.offsets.read=admin}, which reads no share-group state. */
    public boolean syncShareGroups() {
        return getBoolean(SYNC_SHARE_GROUPS_CONFIG)
                && SourceOffsetsRead.fromConfigValue(getString(SOURCE_OFFSETS_READ_CONFIG)) == SourceOffsetsRead.LOG;
    }

    /** {@code sync.write.parallelism}. */
    public int syncWriteParallelism() {
        return getInt(SYNC_WRITE_PARALLELISM_CONFIG);
    }

    /** {@code sync.interval.ms}. */
    public long syncIntervalMs() {
        return getLong(SYNC_INTERVAL_MS_CONFIG);
    }

    /** {@code sync.untranslatable}. */
    public UntranslatablePolicy untranslatablePolicy() {
        return UntranslatablePolicy.fromConfigValue(getString(SYNC_UNTRANSLATABLE_CONFIG));
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

    /** {@code offset.syncs.prune.interval.ms}. */
    public long offsetSyncsPruneIntervalMs() {
        return getLong(OFFSET_SYNCS_PRUNE_INTERVAL_MS_CONFIG);
    }

    /** {@code health.destination.timeout.ms}. */
    public long healthDestinationTimeoutMs() {
        return getLong(HEALTH_DESTINATION_TIMEOUT_MS_CONFIG);
    }

    /** {@code sync.streams.destination.kafka.version}: empty when not stated. */
    public Optional<String> streamsDestinationKafkaVersion() {
        String version = getString(SYNC_STREAMS_DESTINATION_KAFKA_VERSION_CONFIG);
        return version == null || version.isBlank() ? Optional.empty() : Optional.of(version.trim());
    }

    /** {@code sync.offsets.refresh.ms}: 0 to derive it from the destination's offsets retention. */
    public long offsetsRefreshMs() {
        return getLong(SYNC_OFFSETS_REFRESH_MS_CONFIG);
    }

    /** {@code sync.pending.timeout.ms}. */
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
        return query.listen();
    }

    /**
     * {@code query.advertised}, or when unset {@link #queryListen()} with a wildcard host (0.0.0.0, ::) replaced by
     * the local host name (resolved once, on first call; {@code localhost} if it cannot be resolved). When it is
     * derived from a listen port of 0, the port is 0 too: the HTTP server should advertise
     * {@code queryAdvertised().withPort(boundPort)}.
     */
    public HostAndPort queryAdvertised() {
        return query.advertised();
    }

    /** {@code query.threads}. */
    public int queryThreads() {
        return query.threads();
    }

    /** {@code query.auth.token}, when set. */
    public Optional<String> queryAuthToken() {
        return query.authToken();
    }

    /** {@code query.auth.open.paths}: answered without the token. */
    public List<String> queryAuthOpenPaths() {
        return query.authOpenPaths();
    }

    /** True when {@code query.tls.keystore.location} is set: the HTTP API speaks HTTPS. */
    public boolean queryTls() {
        return query.tls();
    }

    /** {@code query.tls.client.auth}, lower case: none, requested or required. */
    public String queryTlsClientAuth() {
        return query.tlsClientAuth();
    }

    /**
     * The HTTP API's TLS settings as Kafka's {@code ssl.*} client keys (keystore, key password, truststore), for
     * Kafka's own SSL engine factory to load: the same loader, and so the same formats, as the Kafka clients'.
     */
    public Map<String, Object> queryTlsSslConfigs() {
        return query.tlsSslConfigs();
    }

    /** {@code application.id}. */
    public String applicationId() {
        return getString(APPLICATION_ID_CONFIG);
    }

    /** {@code state.dir}. */
    public String stateDir() {
        return getString(STATE_DIR_CONFIG);
    }

    /** {@code state.memory.bytes}: the RocksDB stores' memory budget, 0 to derive it from the process's memory. */
    public long stateMemoryBytes() {
        return getLong(STATE_MEMORY_BYTES_CONFIG);
    }

    /**
     * Every {@code source.*} client config with the prefix stripped ({@code bootstrap.servers}, security, ...), values
     * as given; Sextant's own {@code source.alias} is not part of it.
     */
    public Map<String, Object> sourceClientConfig() {
        return passThrough.source();
    }

    /**
     * Every {@code destination.*} client config with the prefix stripped; {@code destination.alias} is not part of
     * it.
     */
    public Map<String, Object> destinationClientConfig() {
        return passThrough.destination();
    }

    /** Every {@code streams.*} Kafka Streams config with the prefix stripped. */
    public Map<String, Object> streamsOverrides() {
        return passThrough.streams();
    }

    /** True when {@code streams.processing.guarantee} asks for exactly-once. */
    public boolean exactlyOnce() {
        return passThrough.exactlyOnce();
    }

    /** Every key and value, with secrets (passwords, JAAS configs, private keys) masked. */
    @Override
    public String toString() {
        return SecretMasking.describe("SextantConfig", originals());
    }
}
