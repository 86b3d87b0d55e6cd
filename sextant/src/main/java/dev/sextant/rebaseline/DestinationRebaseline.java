package dev.sextant.rebaseline;

import dev.sextant.clients.TopicLog;
import dev.sextant.command.CommandContext;
import dev.sextant.config.Translation;
import dev.sextant.state.OffsetSyncHistoryLoader;
import dev.sextant.state.OffsetSyncKeys;

/**
 * The operator's answer to a destination that is not the cluster Sextant wrote to so far: reads the cluster the
 * history pins and the one answering at {@code destination.bootstrap.servers}, and with {@code apply} pins the latter
 * (one record on the history topic, which every running instance reads). From then on the sync writes there again:
 * what it applied on the old cluster is found gone and written again, through the new mirrors' offset syncs (a mirror
 * with a new topic id forgets the old one's).
 */
public final class DestinationRebaseline {

    /**
     * @param pinned      the cluster the history pinned (null: none yet, the first instance pins what it sees)
     * @param destination the cluster answering now
     * @param applied     true when this run pinned {@code destination}
     */
    public record Result(String pinned, String destination, boolean applied) {

        /** True when the destination is not the pinned cluster (before this run's pin). */
        public boolean changed() {
            return pinned != null && !pinned.equals(destination);
        }
    }

    private final CommandContext context;

    public DestinationRebaseline(CommandContext context) {
        this.context = context;
    }

    /**
     * @throws IllegalStateException when a cluster does not answer within the context's timeout, or with identity
     *                               translation (there is no history topic to pin in)
     */
    public Result run(boolean apply) {
        if (context.config().translation() == Translation.IDENTITY) {
            throw new IllegalStateException("translation=identity keeps no offset-sync history, where the "
                    + "destination cluster is pinned: nothing to rebaseline");
        }
        TopicLog history = context.historyTopic();
        String pinned = OffsetSyncHistoryLoader.load(history).destinationCluster().orElse(null);
        String destination = context.destinationClusterId();
        boolean write = apply && !destination.equals(pinned);
        if (write) {
            // one record on the history topic, which every running instance reads
            history.write(OffsetSyncKeys.destinationClusterKey().get(), OffsetSyncKeys.clusterValue(destination));
        }
        return new Result(pinned, destination, write);
    }
}
