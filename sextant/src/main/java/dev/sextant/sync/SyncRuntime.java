package dev.sextant.sync;

import dev.sextant.apply.CheckpointEmitter;
import dev.sextant.apply.DestinationView;
import dev.sextant.apply.GroupApplier;
import dev.sextant.history.OffsetSyncCatchUp;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.source.OpenTransactionWatch;
import dev.sextant.source.SourceOffsets;
import dev.sextant.source.SourceTopicNames;
import dev.sextant.state.CatchingUpPartitions;
import dev.sextant.state.Cutovers;
import dev.sextant.translate.IntervalEvidence;
import dev.sextant.translate.SyncHistory;

/**
 * The instance-wide collaborators every task of the topology shares: the destination view and applier, the
 * source's offsets for pruning, the meters, whether the offset-sync history has caught up since the start, the
 * watch that reads past other applications' open transactions, which partitions' tasks are still catching up with
 * their input (for the query API), what the records prove about intervals between offset syncs (interpolation;
 * {@link IntervalEvidence#NONE} when off), the groups cut over to the destination (never written from the source
 * again), and for failback the forward flow's syncs inverted ({@code failback.history.topic}; null without). Tests
 * pass in-memory ones.
 */
public record SyncRuntime(DestinationView view, GroupApplier consumerApplier, GroupApplier shareApplier,
                          SourceOffsets source, SourceTopicNames topicNames, SextantMetrics metrics,
                          CheckpointEmitter checkpoints, OffsetSyncCatchUp catchUp,
                          OpenTransactionWatch openTransactions, CatchingUpPartitions catchingUp,
                          IntervalEvidence evidence, Cutovers cutovers, SyncHistory returned) {

    /** Without MirrorMaker 2 checkpoints, with nothing to wait for at the start, and no look past transactions. */
    public SyncRuntime(DestinationView view, GroupApplier consumerApplier, GroupApplier shareApplier,
                       SourceOffsets source, SourceTopicNames topicNames, SextantMetrics metrics) {
        this(view, consumerApplier, shareApplier, source, topicNames, metrics, CheckpointEmitter.NONE,
                OffsetSyncCatchUp.notNeeded(), OpenTransactionWatch.none(), new CatchingUpPartitions(),
                IntervalEvidence.NONE, new Cutovers(), null);
    }

    /**
     * Groups handed to the destination writers and not answered yet, by every task of the instance: both phases, once
     * when one applier writes both.
     */
    public int unansweredWrites() {
        return consumerApplier.unanswered() + (shareApplier == consumerApplier ? 0 : shareApplier.unanswered());
    }

    /** Groups answered so far by the destination writers, both phases: the rate the destination absorbs writes. */
    public long answeredWrites() {
        return consumerApplier.answered() + (shareApplier == consumerApplier ? 0 : shareApplier.answered());
    }

    /** The same, translating with {@code evidence} about intervals between offset syncs. */
    public SyncRuntime withEvidence(IntervalEvidence evidence) {
        return new SyncRuntime(view, consumerApplier, shareApplier, source, topicNames, metrics, checkpoints, catchUp,
                openTransactions, catchingUp, evidence, cutovers, returned);
    }
}
