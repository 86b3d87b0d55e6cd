package dev.sextant.config;

import java.io.File;
import java.util.List;
import org.apache.kafka.connect.mirror.DefaultReplicationPolicy;

/**
 * The name of every configuration key, the pass-through prefixes and the defaults. A holder of its own so that the
 * classes that define, check and load the keys read them from here and not from {@link SextantConfig}, which uses
 * those classes.
 *
 * <p>Besides the keys named here, three prefixes pass configuration through:
 * <ul>
 *   <li>{@code source.<client config>}: to every client of the source cluster (the Kafka Streams application runs
 *       there), e.g. {@code source.security.protocol}, {@code source.sasl.jaas.config};</li>
 *   <li>{@code destination.<client config>}: to the clients of the destination, the Admin client that writes
 *       offsets first;</li>
 *   <li>{@code streams.<Kafka Streams config>}: to Kafka Streams, e.g. {@code streams.num.stream.threads}.</li>
 * </ul>
 * What Kafka defines under each is in {@code PassThroughKeys}.
 */
public final class ConfigKeys {

    public static final String SOURCE_PREFIX = "source.";
    public static final String DESTINATION_PREFIX = "destination.";
    public static final String STREAMS_PREFIX = "streams.";

    public static final String SOURCE_ALIAS_CONFIG = "source.alias";
    public static final String DESTINATION_ALIAS_CONFIG = "destination.alias";
    public static final String SOURCE_BOOTSTRAP_SERVERS_CONFIG = "source.bootstrap.servers";
    public static final String DESTINATION_BOOTSTRAP_SERVERS_CONFIG = "destination.bootstrap.servers";
    public static final String TRANSLATION_CONFIG = "translation";
    public static final String OFFSET_SYNCS_TOPIC_CONFIG = "offset.syncs.topic";
    public static final String FAILBACK_HISTORY_TOPIC_CONFIG = "failback.history.topic";
    public static final String TRANSLATION_INTERPOLATION_CONFIG = "translation.interpolation";
    public static final String TRANSLATION_VERIFY_MAX_RECORDS_CONFIG = "translation.verify.max.records";
    public static final int TRANSLATION_VERIFY_MAX_RECORDS_DEFAULT = 10_000;
    public static final String REPLICATION_POLICY_CONFIG = "replication.policy";
    public static final String REPLICATION_POLICY_SEPARATOR_CONFIG = "replication.policy.separator";
    public static final String REPLICATION_POLICY_INTERNAL_TOPIC_SEPARATOR_ENABLED_CONFIG =
            "replication.policy.internal.topic.separator.enabled";
    public static final String GROUPS_INCLUDE_CONFIG = "groups.include";
    public static final String GROUPS_EXCLUDE_CONFIG = "groups.exclude";
    public static final String TOPICS_INCLUDE_CONFIG = "topics.include";
    public static final String TOPICS_EXCLUDE_CONFIG = "topics.exclude";
    public static final String SOURCE_OFFSETS_READ_CONFIG = "source.offsets.read";
    public static final String SOURCE_OFFSETS_POLL_INTERVAL_MS_CONFIG = "source.offsets.poll.interval.ms";
    public static final long SOURCE_OFFSETS_POLL_INTERVAL_MS_DEFAULT = 5_000L;
    public static final String SYNC_CONSUMER_GROUPS_CONFIG = "sync.consumer.groups";
    public static final String SYNC_SHARE_GROUPS_CONFIG = "sync.share.groups";
    public static final String SYNC_INTERVAL_MS_CONFIG = "sync.interval.ms";
    public static final String SYNC_REWIND_CONFIG = "sync.rewind";
    public static final String SYNC_UNTRANSLATABLE_CONFIG = "sync.untranslatable";
    public static final String SYNC_FOREIGN_OFFSETS_CONFIG = "sync.foreign.offsets";
    public static final String SYNC_PENDING_TIMEOUT_MS_CONFIG = "sync.pending.timeout.ms";
    public static final String SYNC_OFFSETS_REFRESH_MS_CONFIG = "sync.offsets.refresh.ms";
    public static final String SYNC_STREAMS_DESTINATION_KAFKA_VERSION_CONFIG = "sync.streams.destination.kafka.version";
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
    public static final String STATE_MEMORY_BYTES_CONFIG = "state.memory.bytes";

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

    private ConfigKeys() {
    }
}
