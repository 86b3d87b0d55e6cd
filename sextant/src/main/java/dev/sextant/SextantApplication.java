package dev.sextant;

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
import dev.sextant.config.StreamsProperties;
import dev.sextant.config.Translation;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.query.AdminSourceInputs;
import dev.sextant.query.Forwarder;
import dev.sextant.query.HealthChecks;
import dev.sextant.query.QueryApi;
import dev.sextant.query.QueryServer;
import dev.sextant.query.StreamsGroupRouter;
import dev.sextant.query.StreamsLocalStores;
import dev.sextant.acl.AccessDenials;
import dev.sextant.acl.NotAuthorizedException;
import dev.sextant.acl.Principals;
import dev.sextant.acl.RequiredAcl;
import dev.sextant.acl.RequiredAcls;
import dev.sextant.acl.SourceAccessCheck;
import dev.sextant.query.DeadLetterTail;
import dev.sextant.query.Views;
import dev.sextant.source.AdminSourceOffsets;
import dev.sextant.source.AdminSourceTopicNames;
import dev.sextant.source.SourceOffsets;
import dev.sextant.source.SourceTopicCreator;
import dev.sextant.source.SourceTopicNames;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.state.PositionStore;
import dev.sextant.topology.HistoryRestoreListener;
import dev.sextant.topology.SextantTopology;
import dev.sextant.topology.StreamsErrorHandlers;
import dev.sextant.sync.SyncRuntime;
import dev.sextant.history.OffsetSyncCatchUp;
import dev.sextant.sync.SyncSettings;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Sextant instance: the Kafka Streams client on the source cluster, the destination view and applier, and the
 * topics Sextant owns. Several instances with the same {@code application.id} share the work.
 *
 * <p>Start order matters: the topics Sextant writes (dead-letter, offset-sync history) are created first, because a
 * global store whose topic is missing stops the client and brokers usually have topic auto-creation off. The HTTP
 * server binds next, before the Kafka Streams client is created: {@code application.server} must carry the port it
 * actually bound when {@code query.listen} asks for a free one.
 */
public final class SextantApplication implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SextantApplication.class);

    private final SextantConfig config;
    private final SextantMetrics metrics;
    private volatile SyncSettings settings;
    private final DestinationClient destination;
    private final DestinationView view;
    private final ScheduledExecutorService refresher;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final StreamThreadFailures threadFailures = new StreamThreadFailures(Clock.systemUTC());
    private final AccessDenials denials = new AccessDenials(Clock.systemUTC());
    private volatile KafkaStreams streams;
    private SourceOffsets source;
    private SourceTopicNames topicNames;
    private CheckpointEmitter checkpoints = CheckpointEmitter.NONE;
    private final io.micrometer.core.instrument.binder.jvm.JvmGcMetrics jvmGc =
            new io.micrometer.core.instrument.binder.jvm.JvmGcMetrics();
    private KafkaStreamsMetrics streamsMetrics;
    private QueryServer query;
    private DeadLetterTail conflicts;
    private AdminSourceInputs sourceInputs;
    private volatile HostAndPort queryAddress;
    private volatile Throwable failure;

    public SextantApplication(SextantConfig config, MeterRegistry registry) {
        this.config = config;
        this.metrics = new SextantMetrics(registry);
        this.settings = settings(config, Clock.systemUTC());
        AdminDestinationClient admin = new AdminDestinationClient(config.destinationClientConfig(),
                config.syncWriteParallelism());
        admin.bindMetrics(registry);
        metrics.destinationWrites(admin::writeLimit, admin::writesInFlight, admin::writesQueued);
        this.destination = admin;
        // what a platform team's dashboards expect next to the application's own meters
        new io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics().bindTo(registry);
        jvmGc.bindTo(registry);
        new io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics().bindTo(registry);
        new io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics().bindTo(registry);
        new io.micrometer.core.instrument.binder.system.ProcessorMetrics().bindTo(registry);
        new io.micrometer.core.instrument.binder.system.UptimeMetrics().bindTo(registry);
        new io.micrometer.core.instrument.binder.system.FileDescriptorMetrics().bindTo(registry);
        this.view = new DestinationView(destination);
        this.refresher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sextant-destination-view");
            t.setDaemon(true);
            return t;
        });
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
        return new SyncSettings(
                config.applicationId(),
                config.sourceAlias(),
                config.replicationPolicy(),
                config.translation() == Translation.IDENTITY,
                config.offsetSyncsTopic(),
                config::includesGroup,
                config::includesTopic,
                config.syncConsumerGroups(),
                config.syncShareGroups(),
                config.syncIntervalMs(),
                config.pendingTimeoutMs(),
                config.offsetSyncsPruneIntervalMs(),
                StreamsProperties.writeLeaseMs(config),
                config.rewindPolicy() == RewindPolicy.FOLLOW_SOURCE,
                config.dlqTopic(),
                instance,
                clock);
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
        verifySourceAccess();
        createOwnTopics();
        QueryServer.Settings querySettings = QueryServer.Settings.of(config);
        query = QueryServer.bind(querySettings);
        HostAndPort advertised = config.queryAdvertised();
        if (advertised.port() == 0) {
            advertised = advertised.withPort(query.port());
        }
        queryAddress = advertised;
        settings = settings(config, settings.clock(), advertised.toString());
        long refreshMs = Math.max(500, config.syncIntervalMs());
        refresher.scheduleWithFixedDelay(view::refresh, 0, refreshMs, TimeUnit.MILLISECONDS);

        ConsumerGroupApplier applier = new ConsumerGroupApplier(destination,
                new OffsetOwnership(config.applicationId()), settings.followRewinds(),
                config.foreignOffsetPolicy() == ForeignOffsetPolicy.ADOPT_FORWARD, denials);
        source = new AdminSourceOffsets(config.sourceClientConfig(), settings.includeGroup());
        topicNames = new AdminSourceTopicNames(config.sourceClientConfig());
        if (config.emitCheckpoints()) {
            checkpoints = new KafkaCheckpointEmitter(config.destinationClientConfig(), config.checkpointsTopic());
        }
        OffsetSyncCatchUp catchUp = settings.identityTranslation() ? OffsetSyncCatchUp.notNeeded()
                : new OffsetSyncCatchUp(source, settings.offsetSyncsTopic(),
                settings.historyTopic(), settings.applicationId(), config.exactlyOnce(), settings.clock());
        Topology topology = SextantTopology.build(settings, new SyncRuntime(view, applier,
                new ShareGroupApplier(destination, denials), source, topicNames, metrics, checkpoints, catchUp));
        log.debug("Topology:\n{}", topology.describe());
        Properties properties = StreamsProperties.of(config, advertised,
                StreamsErrorHandlers.configs(settings, metrics)); // an operator's own handler wins
        streams = new KafkaStreams(topology, properties);
        streams.setGlobalStateRestoreListener(new HistoryRestoreListener(catchUp));
        streams.setUncaughtExceptionHandler(e -> {
            Optional<AuthorizationException> denied = AccessDenials.authorization(e);
            if (denied.isPresent()) {
                // a new thread would be refused the same way: stop, naming what to grant
                failure = notAuthorized("Kafka Streams was refused on the source cluster", denied.get(), e);
                log.error(failure.getMessage());
                return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
            }
            log.error("Stream thread failed; replacing it", e);
            threadFailures.failed(e);
            metrics.streamThreadReplaced();
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        streams.setStateListener((now, before) -> {
            log.info("Kafka Streams {} -> {}", before, now);
            if (now == KafkaStreams.State.ERROR) {
                if (failure == null) {
                    failure = new IllegalStateException("Kafka Streams entered state ERROR");
                }
                stopped.countDown();
            } else if (now == KafkaStreams.State.NOT_RUNNING) {
                stopped.countDown();
            }
        });
        streamsMetrics = new KafkaStreamsMetrics(streams);
        streamsMetrics.bindTo(metrics.registry());
        query.start(queryApi(advertised, querySettings));
        streams.start();
        log.info("Sextant {} started: {} -> {}, translation {}, application.id {}, HTTP API on {} (advertised {})",
                Version.current(), config.sourceAlias(), config.destinationAlias(), config.translation(),
                config.applicationId(), config.queryListen().withPort(query.port()), advertised);
    }

    private QueryApi queryApi(HostAndPort advertised, QueryServer.Settings querySettings) {
        sourceInputs = new AdminSourceInputs(config.sourceClientConfig())
                .input(Topic.GROUP_METADATA_TOPIC_NAME, "consumer-group offset commits", true)
                .input(config.dlqTopic(), "Sextant's dead-letter topic", true);
        if (!settings.identityTranslation()) {
            sourceInputs.input(config.offsetSyncsTopic(), "MirrorMaker 2's offset syncs (appears once MirrorMaker 2 "
                    + "runs; nothing translates before)", true)
                    .input(settings.historyTopic(), "Sextant's offset-sync history", true);
        }
        if (config.syncShareGroups()) {
            sourceInputs.input("__share_group_state", "share-group state (appears once a share group runs)", false);
        }
        return new QueryApi(
                new StreamsGroupRouter(() -> streams, advertised),
                new StreamsLocalStores(() -> streams, settings::destinationTopic, settings.identityTranslation()),
                new Forwarder(advertised, Duration.ofSeconds(10), querySettings.tls(), querySettings.token()),
                conflicts = new DeadLetterTail(config.sourceClientConfig(), config.dlqTopic(),
                        QueryApi.MAX_CONFLICTS_LIMIT),
                sourceInputs,
                () -> new Views.DestinationHealth(view.ready(), view.reachable(), view.unreachableForMs(),
                        view.lastError()),
                new HealthChecks() {
                    @Override
                    public Optional<String> notLive() {
                        return threadFailures.problem();
                    }

                    @Override
                    public Optional<String> notReady() {
                        Optional<String> denied = denials.problem();
                        if (denied.isPresent()) {
                            return denied;
                        }
                        long down = view.unreachableForMs();
                        return down > 0 && down >= config.healthDestinationTimeoutMs()
                                ? Optional.of("the destination has been unreachable for " + down / 1000 + " s: "
                                        + view.lastError() + " (positions are kept and applied once it is back)")
                                : Optional.empty();
                    }
                },
                metrics.registry());
    }

    /** Blocks until the Streams client stops; returns the failure that stopped it, or null. */
    public Throwable awaitStop() throws InterruptedException {
        stopped.await();
        return failure;
    }

    /**
     * The source refused Sextant something it needs: {@code what} was refused, and the message names the ACL that
     * covers it and the command that grants it.
     */
    private NotAuthorizedException notAuthorized(String what, AuthorizationException denied, Throwable cause) {
        String principal = Principals.guess(config.sourceClientConfig());
        String grant = RequiredAcls.covering(RequiredAcls.of(config), RequiredAcl.Cluster.SOURCE, denied)
                .map(acl -> ". Grant it:\n  " + acl.command(principal)).orElse(".");
        return new NotAuthorizedException(what + ": " + AccessDenials.describe(denied, null) + ": "
                + denied.getMessage() + grant
                + "\nbin/sextant config acls -c <file> prints every ACL Sextant needs (docs/security.md).", cause);
    }

    /** Stops the start, naming the ACL, when the source refuses what Sextant needs (as far as it can tell ahead). */
    private void verifySourceAccess() {
        try (Admin admin = Admin.create(config.sourceClientConfig())) {
            SourceAccessCheck.verify(admin, RequiredAcls.of(config), Principals.guess(config.sourceClientConfig()),
                    Duration.ofSeconds(15));
        }
    }

    /** Creates Sextant's own topics on the source; a refusal names the ACL (create them ahead, or grant it). */
    private void createOwnTopics() {
        try {
            createMissingTopics();
        } catch (RuntimeException e) {
            throw AccessDenials.authorization(e)
                    .map(denied -> (RuntimeException) notAuthorized("Sextant cannot create its topics on the source "
                            + "cluster (create them ahead, or grant the ACL)", denied, e))
                    .orElse(e);
        }
    }

    private void createMissingTopics() {
        Optional<Short> replication = config.dlqTopicReplicationFactor() < 0 ? Optional.empty()
                : Optional.of(config.dlqTopicReplicationFactor());
        try (SourceTopicCreator creator = new SourceTopicCreator(config.sourceClientConfig())) {
            List<NewTopic> wanted = new ArrayList<>();
            wanted.add(new NewTopic(config.dlqTopic(), Optional.of(config.dlqTopicPartitions()), replication));
            if (!settings.identityTranslation()) {
                wanted.add(new NewTopic(settings.historyTopic(), Optional.of(1), replication)
                        .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)));
            }
            if (settings.syncShareGroups()) {
                // partitioned like __consumer_offsets, so share positions reach the task that owns their group
                wanted.add(new NewTopic(settings.sharePositionsTopic(),
                        Optional.of(creator.consumerOffsetsPartitions()), replication));
            }
            creator.createMissing(wanted);
        }
    }

    @Override
    public void close() {
        QueryServer server = query;
        query = null;
        if (server != null) {
            server.close();
        }
        if (sourceInputs != null) {
            sourceInputs.close();
        }
        if (conflicts != null) {
            conflicts.close();
        }
        if (streams != null) {
            // Leave the group on a planned stop: the other instances take over now, not after session.timeout.ms.
            streams.close(org.apache.kafka.streams.CloseOptions.timeout(Duration.ofSeconds(30))
                    .withGroupMembershipOperation(org.apache.kafka.streams.CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
        }
        if (streamsMetrics != null) {
            streamsMetrics.close();
        }
        refresher.shutdownNow();
        jvmGc.close();
        checkpoints.close();
        destination.close();
        if (source != null) {
            source.close();
        }
        if (topicNames != null) {
            topicNames.close();
        }
        stopped.countDown();
    }
}
