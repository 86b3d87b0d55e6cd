package dev.sextant;

import dev.sextant.acl.AccessDenials;
import dev.sextant.acl.SourceRefusal;
import dev.sextant.apply.AdminDestinationClient;
import dev.sextant.apply.CheckpointEmitter;
import dev.sextant.apply.ConsumerGroupApplier;
import dev.sextant.apply.DestinationClient;
import dev.sextant.apply.DestinationView;
import dev.sextant.apply.KafkaCheckpointEmitter;
import dev.sextant.apply.OffsetOwnership;
import dev.sextant.apply.ShareGroupApplier;
import dev.sextant.config.ForeignOffsetPolicy;
import dev.sextant.config.HostAndPort;
import dev.sextant.config.RewindPolicy;
import dev.sextant.config.SextantConfig;
import dev.sextant.config.Translation;
import dev.sextant.history.OffsetSyncCatchUp;
import dev.sextant.metrics.ProcessMeters;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.query.QueryServer;
import dev.sextant.source.AdminSourceOffsets;
import dev.sextant.source.AdminSourceTopicNames;
import dev.sextant.source.SourceOffsets;
import dev.sextant.source.SourceTopicNames;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.state.PositionStore;
import dev.sextant.sync.SyncRuntime;
import dev.sextant.sync.SyncSettings;
import dev.sextant.topology.HistoryRestoreListener;
import dev.sextant.topology.SextantTopology;
import dev.sextant.topology.StreamsErrorHandlers;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Sextant instance: the Kafka Streams client on the source cluster, the destination view and applier, and the
 * topics Sextant owns. Several instances with the same {@code application.id} share the work. This class only starts
 * and stops things; what each part needs lives with that part.
 *
 * <p>Start order matters: the topics Sextant writes (dead-letter, offset-sync history) are created first, because a
 * global store whose topic is missing stops the client and brokers usually have topic auto-creation off. The HTTP
 * server binds next, before the Kafka Streams client is created: {@code application.server} must carry the port it
 * actually bound when {@code query.listen} asks for a free one.
 */
public final class SextantApplication implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SextantApplication.class);
    /** How long a planned stop waits for the Streams client to close and leave the group. */
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);
    /** The destination view is refreshed every sync interval, but not more often than this. */
    private static final long MIN_VIEW_REFRESH_MS = 500;

    private final SextantConfig config;
    private final SextantMetrics metrics;
    private volatile SyncSettings settings;
    private final DestinationClient destination;
    private final DestinationView view;
    private final ScheduledExecutorService refresher;
    private final StreamThreadFailures threadFailures = new StreamThreadFailures(Clock.systemUTC());
    private final AccessDenials denials = new AccessDenials(Clock.systemUTC());
    private final SourceRefusal refusal;
    private final StreamsSupervisor supervisor;
    private final ProcessMeters processMeters;
    private volatile KafkaStreams streams;
    private SourceOffsets source;
    private SourceTopicNames topicNames;
    private CheckpointEmitter checkpoints = CheckpointEmitter.NONE;
    private KafkaStreamsMetrics streamsMetrics;
    private QueryServer query;
    private InstanceQueryApi queryApi;
    private volatile HostAndPort queryAddress;

    public SextantApplication(SextantConfig config, MeterRegistry registry) {
        this.config = config;
        this.metrics = new SextantMetrics(registry);
        this.settings = settings(config, Clock.systemUTC());
        this.refusal = new SourceRefusal(config);
        this.supervisor = new StreamsSupervisor(refusal, threadFailures, metrics);
        AdminDestinationClient admin = new AdminDestinationClient(config.destinationClientConfig(),
                config.syncWriteParallelism());
        admin.bindMetrics(registry);
        metrics.destinationWrites(admin::writeLimit, admin::writesInFlight, admin::writesQueued);
        this.destination = admin;
        this.processMeters = new ProcessMeters(registry);
        this.view = new DestinationView(destination);
        this.refresher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sextant-destination-view");
            t.setDaemon(true);
            return t;
        });
    }

    /** The topology's settings, taken from the configuration. */
    public static SyncSettings settings(SextantConfig config, Clock clock) {
        return SyncSettings.of(config, clock, config.queryAdvertised().toString(), writeLeaseMs(config));
    }

    /**
     * The topology's settings, taken from the configuration.
     *
     * @param instance how this instance names itself in dead-letter records: its advertised query address
     */
    public static SyncSettings settings(SextantConfig config, Clock clock, String instance) {
        return SyncSettings.of(config, clock, instance, writeLeaseMs(config));
    }

    /**
     * The write lease: the stream consumer's session timeout less one heartbeat interval and a second of margin. An
     * instance that stops heartbeating keeps its tasks at least that long after its last heartbeat, which was at most
     * one interval before it planned a write; so a write sent within the lease is sent before another instance can
     * own the group.
     */
    static long writeLeaseMs(SextantConfig config) {
        Map<String, Object> streams = new HashMap<>(config.sourceClientConfig());
        streams.putAll(config.streamsOverrides());
        long session = consumerSetting(streams, ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 45_000);
        long heartbeat = consumerSetting(streams, ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 3_000);
        return Math.max(1_000, session - heartbeat - 1_000);
    }

    private static long consumerSetting(Map<String, Object> streams, String key, long defaultValue) {
        for (String name : List.of(StreamsConfig.mainConsumerPrefix(key), StreamsConfig.consumerPrefix(key), key)) {
            Object value = streams.get(name);
            if (value != null) {
                try {
                    return Long.parseLong(value.toString().trim());
                } catch (NumberFormatException e) {
                    return defaultValue; // Kafka Streams itself rejects it at start, naming the key
                }
            }
        }
        return defaultValue;
    }

    public SyncSettings settings() {
        return settings;
    }

    public SextantMetrics metrics() {
        return metrics;
    }

    public DestinationView destinationView() {
        return view;
    }

    public KafkaStreams streams() {
        return streams;
    }

    /**
     * The address this instance's HTTP API is advertised at (Kafka Streams' {@code application.server}); with a
     * {@code query.listen} port of 0, the port actually bound. Null before {@link #start()}.
     */
    public HostAndPort queryAddress() {
        return queryAddress;
    }

    /**
     * This instance's positions (the tasks it runs), for local queries; the HTTP API routes requests for other
     * instances' groups to them.
     */
    public PositionStore positions() {
        return PositionStore.readOnly(streams.store(StoreQueryParameters.fromNameAndType(PositionStore.NAME,
                QueryableStoreTypes.<Bytes, byte[]>keyValueStore())));
    }

    /** Entries in this instance's copy of the offset-sync history (0 with identity translation). */
    public long offsetSyncHistorySize() {
        if (settings.identityTranslation()) {
            return 0;
        }
        long count = 0;
        try (var it = streams.store(StoreQueryParameters.fromNameAndType(OffsetSyncStore.NAME,
                QueryableStoreTypes.<Bytes, byte[]>keyValueStore())).all()) {
            while (it.hasNext()) {
                it.next();
                count++;
            }
        }
        return count;
    }

    public void start() {
        refusal.verifyAhead();
        refusal.guard("Sextant cannot create its topics on the source cluster (create them ahead, or grant the ACL)",
                () -> OwnTopics.create(config, settings));
        QueryServer.Settings querySettings = QueryServer.Settings.of(config);
        query = QueryServer.bind(querySettings);
        HostAndPort advertised = config.queryAdvertised();
        if (advertised.port() == 0) {
            advertised = advertised.withPort(query.port());
        }
        queryAddress = advertised;
        settings = settings(config, settings.clock(), advertised.toString());
        refresher.scheduleWithFixedDelay(view::refresh, 0, Math.max(MIN_VIEW_REFRESH_MS, config.syncIntervalMs()),
                TimeUnit.MILLISECONDS);

        OffsetSyncCatchUp catchUp = startSync();
        Topology topology = SextantTopology.build(settings, new SyncRuntime(view, new ConsumerGroupApplier(
                destination, new OffsetOwnership(config.applicationId()), settings.followRewinds(),
                config.foreignOffsetPolicy() == ForeignOffsetPolicy.ADOPT_FORWARD, denials),
                new ShareGroupApplier(destination, denials), source, topicNames, metrics, checkpoints, catchUp));
        log.debug("Topology:\n{}", topology.describe());
        Properties properties = streamsProperties(config, advertised);
        StreamsErrorHandlers.configs(settings, metrics).forEach((k, v) -> {
            if (!config.streamsOverrides().containsKey(k)) { // an operator's own handler wins
                properties.put(k, v);
            }
        });
        streams = new KafkaStreams(topology, properties);
        streams.setGlobalStateRestoreListener(new HistoryRestoreListener(catchUp));
        streams.setUncaughtExceptionHandler(supervisor);
        streams.setStateListener(supervisor);
        streamsMetrics = new KafkaStreamsMetrics(streams);
        streamsMetrics.bindTo(metrics.registry());
        queryApi = new InstanceQueryApi(config, settings, () -> streams, advertised, querySettings, view,
                threadFailures, denials, metrics);
        query.start(queryApi.api());
        streams.start();
        log.info("Sextant {} started: {} -> {}, translation {}, application.id {}, HTTP API on {} (advertised {})",
                Version.current(), config.sourceAlias(), config.destinationAlias(), config.translation(),
                config.applicationId(), config.queryListen().withPort(query.port()), advertised);
    }

    /** Opens the source readers and the checkpoint writer the sync shares; returns its start-up wait. */
    private OffsetSyncCatchUp startSync() {
        source = new AdminSourceOffsets(config.sourceClientConfig(), settings.includeGroup());
        topicNames = new AdminSourceTopicNames(config.sourceClientConfig());
        if (config.emitCheckpoints()) {
            checkpoints = new KafkaCheckpointEmitter(config.destinationClientConfig(), config.checkpointsTopic());
        }
        return settings.identityTranslation() ? OffsetSyncCatchUp.notNeeded()
                : new OffsetSyncCatchUp(source, settings.offsetSyncsTopic(), settings.historyTopic(),
                        settings.applicationId(), config.exactlyOnce(), settings.clock());
    }

    /** Blocks until the Streams client stops; returns the failure that stopped it, or null. */
    public Throwable awaitStop() throws InterruptedException {
        return supervisor.awaitStop();
    }

    static Properties streamsProperties(SextantConfig config, HostAndPort advertised) {
        Map<String, Object> props = new HashMap<>(config.sourceClientConfig());
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
        props.put(StreamsConfig.STATE_DIR_CONFIG, config.stateDir());
        props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, advertised.toString());
        // Internal topics are read by pattern: the consumer must be allowed to match them, and should notice a
        // topic that appears (share state, MirrorMaker 2's offset syncs) within seconds, not minutes.
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.EXCLUDE_INTERNAL_TOPICS_CONFIG), false);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.METADATA_MAX_AGE_CONFIG), 5_000);
        // Transactional offset commits that were aborted must not be synced.
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.ISOLATION_LEVEL_CONFIG), "read_committed");
        props.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 5);
        // Each Streams commit is itself a record in __consumer_offsets that Sextant reads (and drops), and it writes
        // every position changed since the last one to RocksDB and its changelog (a hot position once per commit):
        // at 1 s the commits were a quarter of the stream thread at saturation, at 5 s commits/s rose by a third. A
        // crash replays up to that much of __consumer_offsets, which the guards make harmless. Under exactly-once a
        // commit also makes Sextant's own records visible (offset-sync history, share positions): 1 s there.
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, config.exactlyOnce() ? 1_000 : 5_000);
        // A task reads two inputs whose relative order does not matter (commits, and share positions; names that
        // arrive late are resolved through placeholders): never wait for the empty one. Streams' default (0) also
        // formats a diagnostic string for every empty partition on every pass, a twentieth of the stream thread.
        props.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
        // Sextant handles bad input itself; this only opts in to Kafka 5.0's default and silences the warning.
        props.put("processing.exception.handler.global.enabled", true);
        props.putAll(config.streamsOverrides());
        Properties properties = new Properties();
        properties.putAll(props);
        return properties;
    }

    @Override
    public void close() {
        QueryServer server = query;
        query = null;
        if (server != null) {
            server.close();
        }
        if (queryApi != null) {
            queryApi.close();
        }
        if (streams != null) {
            // Leave the group on a planned stop: the other instances take over now, not after session.timeout.ms.
            streams.close(CloseOptions.timeout(CLOSE_TIMEOUT)
                    .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
        }
        if (streamsMetrics != null) {
            streamsMetrics.close();
        }
        refresher.shutdownNow();
        processMeters.close();
        checkpoints.close();
        destination.close();
        if (source != null) {
            source.close();
        }
        if (topicNames != null) {
            topicNames.close();
        }
        supervisor.stoppedAnyway();
    }
}
