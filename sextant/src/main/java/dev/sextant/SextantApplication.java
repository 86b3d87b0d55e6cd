package dev.sextant;

import dev.sextant.acl.AccessDenials;
import dev.sextant.acl.SourceRefusal;
import dev.sextant.apply.AdminDestinationClient;
import dev.sextant.apply.DestinationClient;
import dev.sextant.apply.DestinationView;
import dev.sextant.config.HostAndPort;
import dev.sextant.config.SextantConfig;
import dev.sextant.config.StreamsProperties;
import dev.sextant.metrics.BuildInfo;
import dev.sextant.metrics.ProcessMeters;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.query.QueryServer;
import dev.sextant.source.SourceClusterId;
import dev.sextant.state.BoundedStoreMemory;
import dev.sextant.state.CatchingUpPartitions;
import dev.sextant.state.Cutovers;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.state.PositionStore;
import dev.sextant.state.StoreMemoryBudget;
import dev.sextant.sync.SyncSettings;
import dev.sextant.topology.HistoryRestoreListener;
import dev.sextant.topology.SextantTopology;
import dev.sextant.topology.StreamsErrorHandlers;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
    private SyncResources sync;
    /** Shared by the tasks (which write it) and the query API (which reads it). */
    private final CatchingUpPartitions catchingUp = new CatchingUpPartitions();
    private final Cutovers cutovers = new Cutovers();
    private KafkaStreamsMetrics streamsMetrics;
    private QueryServer query;
    private InstanceQueryApi queryApi;
    private volatile HostAndPort queryAddress;
    /** Set by the first {@link #close}; guarded by {@code this}. */
    private boolean closed;

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
        new BuildInfo(Version.current(), Version.revision(), Version.kafka()).bindTo(registry);
        this.view = new DestinationView(destination, Clock.systemUTC(), config.streamsDestinationKafkaVersion());
        this.refresher = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "sextant-destination-view"));
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /** The topology's settings, taken from the configuration. */
    public static SyncSettings settings(SextantConfig config, Clock clock) {
        return settings(config, clock, config.queryAdvertised().toString());
    }

    /**
     * The topology's settings, taken from the configuration.
     *
     * @param instance how this instance names itself in dead-letter records: its advertised query address
     */
    public static SyncSettings settings(SextantConfig config, Clock clock, String instance) {
        return SyncSettings.of(config, clock, instance, StreamsProperties.writeLeaseMs(config));
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
        return settings.identityTranslation() ? 0 : OffsetSyncStore.reader(streams.store(
                StoreQueryParameters.fromNameAndType(OffsetSyncStore.NAME,
                        QueryableStoreTypes.<Bytes, byte[]>keyValueStore()))).size();
    }

    public void start() {
        refusal.verifyAhead();
        refusal.guard("Sextant cannot create its topics on the source cluster (create them ahead, or grant the ACL)",
                () -> OwnTopics.create(config, settings));
        String[] sourceCluster = new String[1];
        refusal.guard("Sextant cannot read the source cluster's id",
                () -> sourceCluster[0] = SourceClusterId.read(config.sourceClientConfig()));
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

        sync = new SyncResources(config, settings, destination, view, denials, metrics, catchingUp, sourceCluster[0],
                cutovers, new LocalCommitPartitions(() -> streams, settings.commitsTopic()));
        metrics.sourceClusterChanged(() -> sync.sourceChange().problem().isPresent());
        Topology topology = SextantTopology.build(settings, sync.runtime());
        log.debug("Topology:\n{}", topology.describe());
        Map<String, Object> defaults = new HashMap<>(StreamsErrorHandlers.configs(settings, metrics));
        // one memory budget for every RocksDB store (an operator's own setter wins, as handlers do)
        defaults.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedStoreMemory.class);
        defaults.put(BoundedStoreMemory.MEMORY_BYTES_CONFIG, config.stateMemoryBytes() > 0
                ? config.stateMemoryBytes() : StoreMemoryBudget.defaultBytes());
        Properties properties = StreamsProperties.of(config, advertised, defaults);
        streams = new KafkaStreams(topology, properties);
        streams.setGlobalStateRestoreListener(new HistoryRestoreListener(sync.runtime().catchUp()));
        streams.setUncaughtExceptionHandler(supervisor);
        streams.setStateListener(supervisor);
        streamsMetrics = new KafkaStreamsMetrics(streams);
        streamsMetrics.bindTo(metrics.registry());
        queryApi = new InstanceQueryApi(config, settings, () -> streams, advertised, querySettings, view,
                threadFailures, denials, metrics, catchingUp, cutovers, sync.evidence(), sync.sourceChange());
        query.start(queryApi.api());
        streams.start();
        log.info("Sextant {} started: {} -> {}, translation {}, application.id {}, HTTP API on {} (advertised {})",
                Version.current(), config.sourceAlias(), config.destinationAlias(), config.translation(),
                config.applicationId(), config.queryListen().withPort(query.port()), advertised);
    }

    /** Blocks until the Streams client stops; returns the failure that stopped it, or null. */
    public Throwable awaitStop() throws InterruptedException {
        return supervisor.awaitStop();
    }

    /**
     * Stops the instance, once. On SIGTERM both the shutdown hook and the run command's main thread (woken by the
     * client's stop) call this: the second waits for the first's stop to end instead of closing the same clients
     * again beside it (two threads in one Kafka consumer's close is a ConcurrentModificationException). Everything
     * is closed even when a close before it throws; the first failure is thrown at the end, the others suppressed in
     * it ({@link Closer}).
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        log.info("Stopping Sextant");
        long started = System.nanoTime();
        Closer closer = new Closer();
        QueryServer server = query;
        query = null;
        if (server != null) {
            closer.close(server::close);
        }
        if (queryApi != null) {
            closer.close(queryApi::close);
        }
        if (streams != null) {
            // Leave the group on a planned stop: the other instances take over now, not after session.timeout.ms.
            closer.close(() -> streams.close(CloseOptions.timeout(CLOSE_TIMEOUT)
                    .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)));
        }
        if (streamsMetrics != null) {
            closer.close(streamsMetrics::close);
        }
        closer.close(refresher::shutdownNow);
        closer.close(processMeters::close);
        if (sync != null) {
            closer.close(sync::close);
        }
        closer.close(destination::close);
        closer.close(supervisor::stoppedAnyway);
        log.info("Sextant stopped in {} ms", (System.nanoTime() - started) / 1_000_000);
        closer.rethrow();
    }
}
