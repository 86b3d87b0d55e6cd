package dev.sextant;

import dev.sextant.acl.AccessDenials;
import dev.sextant.apply.CheckpointEmitter;
import dev.sextant.apply.ConsumerGroupApplier;
import dev.sextant.apply.DestinationClient;
import dev.sextant.apply.DestinationView;
import dev.sextant.apply.KafkaCheckpointEmitter;
import dev.sextant.apply.OffsetOwnership;
import dev.sextant.apply.OverwritePolicy;
import dev.sextant.apply.ShareGroupApplier;
import dev.sextant.apply.SourceClusterChange;
import dev.sextant.command.IntervalReading;
import dev.sextant.config.ConfigKeys;
import dev.sextant.config.ForeignOffsetPolicy;
import dev.sextant.config.Interpolation;
import dev.sextant.config.InvalidConfigurationException;
import dev.sextant.config.SextantConfig;
import dev.sextant.config.SourceOffsetsReading;
import dev.sextant.history.IntervalProofs;
import dev.sextant.history.OffsetSyncCatchUp;
import dev.sextant.history.ReturnedHistory;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.source.AdminCommitPoller;
import dev.sextant.source.AdminSourceOffsets;
import dev.sextant.source.AdminSourceTopicNames;
import dev.sextant.source.KafkaUncommittedRecords;
import dev.sextant.source.OpenTransactionWatch;
import dev.sextant.state.CatchingUpPartitions;
import dev.sextant.state.Cutovers;
import dev.sextant.sync.SyncRuntime;
import dev.sextant.sync.SyncSettings;
import dev.sextant.translate.IntervalEvidence;
import java.time.Duration;
import java.util.Set;
import java.util.function.Supplier;

/**
 * What the sync of one instance shares across its tasks and holds open while it runs: the source's readers (offsets,
 * topic names, the read past open transactions, the interval proofs), the checkpoint writer, the appliers over the
 * destination client, and the start-up wait for the offset-sync history. Opened at start, closed with the instance;
 * the destination client and its view are the instance's, not closed here.
 */
final class SyncResources implements AutoCloseable {

    /** The most time one read of an interval may take on one cluster; a read cut short is tried again later. */

    private final AdminSourceOffsets source;
    private final AdminSourceTopicNames topicNames;
    private final OpenTransactionWatch openTransactions;
    /** The source's commits read through the Admin API; null unless {@code source.offsets.read=admin}. */
    private final AdminCommitPoller commitPoller;
    /** Interval proofs for interpolation; null unless {@code translation.interpolation=verified}. */
    private final IntervalProofs proofs;
    private final IntervalEvidence evidence;
    private final CheckpointEmitter checkpoints;
    private final SyncRuntime runtime;
    private final ConsumerGroupApplier consumers;
    /** Failback: the forward flow's syncs inverted; null unless {@code failback.history.topic} is set. */
    private final ReturnedHistory returned;

    /**
     * @param ownedCommitPartitions the partitions of the commits topic this instance's tasks read now: the groups the
     *                              Admin API poll covers here ({@code source.offsets.read=admin})
     */
    SyncResources(SextantConfig config, SyncSettings settings, DestinationClient destination, DestinationView view,
                  AccessDenials denials, SextantMetrics metrics, CatchingUpPartitions catchingUp,
                  String sourceCluster, Cutovers cutovers, Supplier<Set<Integer>> ownedCommitPartitions) {
        source = new AdminSourceOffsets(config.sourceClientConfig(), settings.includeGroup());
        try {
            returned = settings.translateHome() ? returnedHistory(config, source, sourceCluster) : null;
        } catch (RuntimeException refused) { // before the rest: it may refuse the config
            source.close();
            throw refused;
        }
        topicNames = new AdminSourceTopicNames(config.sourceClientConfig());
        openTransactions = openTransactions(config, settings, metrics);
        openTransactions.start();
        Interpolation interpolation = settings.identityTranslation() ? Interpolation.OFF : config.interpolation();
        proofs = interpolation == Interpolation.VERIFIED
                ? IntervalReading.background(config, settings::destinationTopic, metrics) : null;
        evidence = switch (interpolation) {
            case OFF -> IntervalEvidence.NONE;
            case UNVERIFIED -> IntervalEvidence.TRUSTED;
            case VERIFIED -> proofs;
        };
        checkpoints = config.emitCheckpoints()
                ? new KafkaCheckpointEmitter(config.destinationClientConfig(), config.checkpointsTopic())
                : CheckpointEmitter.NONE;
        OffsetSyncCatchUp catchUp = settings.identityTranslation() ? OffsetSyncCatchUp.notNeeded()
                : new OffsetSyncCatchUp(source, settings.offsetSyncsTopic(), settings.historyTopic(),
                        settings.applicationId(), config.exactlyOnce(), settings.clock());
        OverwritePolicy overwrites = new OverwritePolicy(settings.followRewinds(),
                config.foreignOffsetPolicy() == ForeignOffsetPolicy.ADOPT_FORWARD);
        consumers = new ConsumerGroupApplier(destination, new OffsetOwnership(config.applicationId(), sourceCluster),
                overwrites, denials);
        runtime = new SyncRuntime(view, consumers, new ShareGroupApplier(destination, overwrites, denials), source,
                topicNames, metrics, checkpoints, catchUp, openTransactions, catchingUp, evidence, cutovers, returned);
        commitPoller = commitPoller(config, settings, ownedCommitPartitions);
    }

    /**
     * The read past other applications' open transactions on {@code __consumer_offsets}; none when the commits come
     * through the Admin API, which answers only committed offsets: nothing to look past.
     */
    private OpenTransactionWatch openTransactions(SextantConfig config, SyncSettings settings,
                                                  SextantMetrics metrics) {
        if (!SourceOffsetsReading.of(config).fromLog()) {
            return OpenTransactionWatch.none();
        }
        return new OpenTransactionWatch(source, new KafkaUncommittedRecords(config.sourceClientConfig()), metrics,
                settings.clock());
    }

    /** With {@code source.offsets.read=admin}, the poll of the groups' committed offsets, started; else null. */
    private static AdminCommitPoller commitPoller(SextantConfig config, SyncSettings settings,
                                                  Supplier<Set<Integer>> ownedCommitPartitions) {
        SourceOffsetsReading reading = SourceOffsetsReading.of(config);
        if (reading.fromLog()) {
            return null;
        }
        AdminCommitPoller poller = new AdminCommitPoller(config.sourceClientConfig(), settings.commitsTopic(),
                settings.includeGroup(), ownedCommitPartitions, reading.pollIntervalMs(), settings.clock());
        poller.start();
        return poller;
    }

    /**
     * Failback: the forward Sextant's history on the destination, read before anything is planned. A topic
     * {@code orders} there is mirrored here as the destination alias' remote topic ({@code source.orders}); the
     * history must pin this source's cluster and record those mirrors' ids.
     */
    private static ReturnedHistory returnedHistory(SextantConfig config, AdminSourceOffsets source,
                                                  String sourceCluster) {
        ReturnedHistory history = new ReturnedHistory(config.destinationClientConfig(),
                config.failbackHistoryTopic().orElseThrow(),
                topic -> config.replicationPolicy().formatRemoteTopic(config.destinationAlias(), topic),
                Duration.ofSeconds(60), source, sourceCluster);
        try {
            history.start();
        } catch (IllegalStateException e) {
            history.close();
            throw new InvalidConfigurationException(ConfigKeys.FAILBACK_HISTORY_TOPIC_CONFIG,
                    config.failbackHistoryTopic().orElseThrow(), e.getMessage()
                    + "; it names the forward Sextant's history topic on this Sextant's destination cluster, "
                    + "<forward application.id>-offset-sync-history");
        }
        return history;
    }

    /** What every task of the topology shares. */
    SyncRuntime runtime() {
        return runtime;
    }

    /** Groups refused because their destination offsets name another source cluster. */
    SourceClusterChange sourceChange() {
        return consumers.sourceChange();
    }

    /** What proves an interval between offset syncs, for the queries too. */
    IntervalEvidence evidence() {
        return evidence;
    }

    /** Closes every resource, also when one before it throws; the first failure is thrown at the end. */
    @Override
    public void close() {
        Closer closer = new Closer();
        closer.close(checkpoints::close);
        if (returned != null) {
            closer.close(returned::close);
        }
        if (proofs != null) {
            closer.close(proofs::close);
        }
        if (commitPoller != null) {
            closer.close(commitPoller::close);
        }
        closer.close(openTransactions::close);
        closer.close(source::close);
        closer.close(topicNames::close);
        closer.rethrow();
    }
}
