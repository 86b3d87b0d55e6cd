package dev.sextant;

import dev.sextant.acl.AccessDenials;
import dev.sextant.apply.DestinationView;
import dev.sextant.apply.SourceClusterChange;
import dev.sextant.config.HostAndPort;
import dev.sextant.config.SextantConfig;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.query.AdminSourceInputs;
import dev.sextant.query.DeadLetterTail;
import dev.sextant.query.Forwarder;
import dev.sextant.query.QueryApi;
import dev.sextant.query.QueryServer;
import dev.sextant.query.StreamsGroupRouter;
import dev.sextant.query.StreamsLocalStores;
import dev.sextant.query.Views;
import dev.sextant.state.CatchingUpPartitions;
import dev.sextant.state.Cutovers;
import dev.sextant.sync.SyncSettings;
import dev.sextant.translate.IntervalEvidence;
import java.time.Duration;
import java.util.function.Supplier;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.streams.KafkaStreams;

/**
 * This instance's HTTP API, assembled from its parts: routing and local stores over the Kafka Streams client,
 * forwarding to the instance that owns a group, the dead-letter tail, the inputs it reports in readiness, the
 * destination's health and the health checks. Owns what it opened (the tail's and the inputs' clients).
 */
final class InstanceQueryApi implements AutoCloseable {

    private static final Duration FORWARD_TIMEOUT = Duration.ofSeconds(10);

    private final AdminSourceInputs sourceInputs;
    private final DeadLetterTail conflicts;
    private final QueryApi api;

    InstanceQueryApi(SextantConfig config, SyncSettings settings, Supplier<KafkaStreams> streams,
                     HostAndPort advertised, QueryServer.Settings server, DestinationView view,
                     StreamThreadFailures threadFailures, AccessDenials denials, SextantMetrics metrics,
                     CatchingUpPartitions catchingUp, Cutovers cutovers, IntervalEvidence evidence,
                     SourceClusterChange sourceChange) {
        sourceInputs = new AdminSourceInputs(config.sourceClientConfig())
                .input(settings.commitsTopic(), settings.commitsTopic().equals(Topic.GROUP_METADATA_TOPIC_NAME)
                        ? "consumer-group offset commits" : "consumer-group offset commits, as the Admin API answered "
                        + "them (source.offsets.read=admin)", true)
                .input(config.dlqTopic(), "Sextant's dead-letter topic", true);
        if (!settings.identityTranslation()) {
            sourceInputs.input(config.offsetSyncsTopic(), "MirrorMaker 2's offset syncs (appears once MirrorMaker 2 "
                    + "runs; nothing translates before)", true)
                    .input(settings.historyTopic(), "Sextant's offset-sync history", true);
        }
        if (config.syncShareGroups()) {
            sourceInputs.input(Topic.SHARE_GROUP_STATE_TOPIC_NAME, "share-group state (appears once a share group "
                    + "runs)", false);
        }
        conflicts = new DeadLetterTail(config.sourceClientConfig(), config.dlqTopic(), QueryApi.MAX_CONFLICTS_LIMIT);
        api = new QueryApi(
                new StreamsGroupRouter(streams, advertised, settings.commitsTopic()),
                new StreamsLocalStores(streams, settings::destinationTopic, settings.identityTranslation(),
                        catchingUp, cutovers, evidence, view::logRange),
                new Forwarder(advertised, FORWARD_TIMEOUT, server.tls(), server.token()),
                conflicts,
                sourceInputs,
                () -> new Views.DestinationHealth(view.ready(), view.reachable(), view.unreachableForMs(),
                        view.lastError()),
                new InstanceHealth(threadFailures, denials, view, sourceChange, config.healthDestinationTimeoutMs()),
                metrics.registry());
    }

    QueryApi api() {
        return api;
    }

    @Override
    public void close() {
        sourceInputs.close();
        conflicts.close();
    }
}
