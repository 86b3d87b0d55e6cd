package dev.sextant.history;

import dev.sextant.apply.DestinationView;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.Reason;
import dev.sextant.state.OffsetSyncStore;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pins the destination cluster Sextant writes to: the first cluster id the destination view reads is recorded on the
 * history topic, and from then on a destination answering with another id (a cluster rebuilt at the same address,
 * another cluster behind the same DNS name) is not written to ({@link DestinationView#clusterChange}) until an
 * operator accepts it with {@code sextant rebaseline --apply}, which records the new id. Offsets written through the
 * old cluster's mirrors would mean nothing there, and the offset syncs MirrorMaker 2 writes may describe a mirror on
 * yet another cluster.
 *
 * <p>Said once per new id with a {@code DESTINATION_CHANGED} dead letter and an error in the log; the gauge
 * {@code sextant_destination_cluster_changed} and the readiness detail say it for as long as it lasts.
 */
final class DestinationClusterCheck {

    private static final Logger log = LoggerFactory.getLogger(DestinationClusterCheck.class);

    private final OffsetSyncStore history;
    private final DestinationView destination;
    private final HistorySink sink;
    private final String instance;
    /** The pin this intake wrote, until the history reads it back. */
    private String sent;
    /** The cluster id last reported as a change. */
    private String reported;

    DestinationClusterCheck(OffsetSyncStore history, DestinationView destination, HistorySink sink,
                            String instance) {
        this.history = history;
        this.destination = destination;
        this.sink = sink;
        this.instance = instance;
    }

    /** Every second: pins the first cluster seen, and reports a new one once. */
    void tick(long now) {
        Optional<String> seen = destination.clusterId();
        if (seen.isEmpty()) {
            return;
        }
        String pinned = history.destinationCluster().orElse(sent);
        if (pinned == null) {
            sent = seen.get();
            sink.destinationCluster(sent, now);
            destination.pin(sent);
            log.info("Pinned the destination cluster {}: Sextant writes to no other without an operator's rebaseline",
                    sent);
            return;
        }
        destination.pin(pinned);
        if (!pinned.equals(seen.get()) && !seen.get().equals(reported)) {
            reported = seen.get();
            String detail = destination.clusterChange().orElse("the destination is cluster " + seen.get()
                    + ", not " + pinned);
            log.error("{}", detail);
            sink.deadLetter(new DeadLetterRecord(null, null, Reason.DESTINATION_CHANGED, List.of(), detail, null, now,
                    instance), now);
        }
    }
}
