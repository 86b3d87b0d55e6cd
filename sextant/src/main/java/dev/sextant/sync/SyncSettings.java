package dev.sextant.sync;

import java.time.Clock;
import java.util.function.Predicate;
import org.apache.kafka.connect.mirror.ReplicationPolicy;

/**
 * What the topology needs to know, taken from the configuration once at start.
 *
 * @param identityTranslation true for offset-preserving mirrors: no offset-sync history is read or kept
 * @param offsetSyncsTopic    MirrorMaker 2's offset-syncs topic on the source cluster
 * @param includeGroup        the group filter, the application's own id already excluded
 * @param includeTopic        the topic filter (source topic names)
 * @param pruneIntervalMs     how often the offset-sync history is pruned
 * @param writeLeaseMs        how long after it was planned a write may still be sent ({@link dev.sextant.apply.WriteLease}):
 *                            less than the time the source's coordinator gives a silent instance before its tasks move
 * @param instance            how dead-letter records name this instance
 */
public record SyncSettings(
        String applicationId,
        String sourceAlias,
        ReplicationPolicy replicationPolicy,
        boolean identityTranslation,
        String offsetSyncsTopic,
        Predicate<String> includeGroup,
        Predicate<String> includeTopic,
        boolean syncConsumerGroups,
        boolean syncShareGroups,
        long syncIntervalMs,
        long pendingTimeoutMs,
        long pruneIntervalMs,
        long writeLeaseMs,
        boolean followRewinds,
        String dlqTopic,
        String instance,
        Clock clock) {

    /** Sextant's own topic holding the full offset-sync history (compacted; read back into a global store). */
    public String historyTopic() {
        return applicationId + "-offset-sync-history";
    }

    /** Sextant's own topic carrying share start offsets to the task that owns each share group. */
    public String sharePositionsTopic() {
        return applicationId + "-share-positions";
    }

    /** The topic a source topic is mirrored to on the destination. */
    public String destinationTopic(String sourceTopic) {
        return replicationPolicy.formatRemoteTopic(sourceAlias, sourceTopic);
    }
}
