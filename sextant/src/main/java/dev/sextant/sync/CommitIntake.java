package dev.sextant.sync;

import dev.sextant.apply.ChainedWrites;
import dev.sextant.decode.ConsumerOffsetsRecord;
import dev.sextant.domain.GroupKind;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.state.GroupRecord;
import dev.sextant.state.GroupStore;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.SharePosition;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.GroupType;

/**
 * What the source says about one task's groups, taken in: decoded records of {@code __consumer_offsets} (commits,
 * deletions, group types, share groups' topics) and share start offsets. Each moves a stored position or the group
 * registry and marks what changed in the task's {@link PendingGroups}, which the flush plans from; nothing here talks
 * to the destination.
 *
 * <p>Per commit this costs one filter lookup and one write to the position store. Invariants: a share position is
 * never kept under a consumer group, nor the reverse; a record read again (after a restart) never moves a position
 * back; a commit of a group cut over to the destination moves nothing ({@link CutoverHold}).
 */
final class CommitIntake {

    private final SyncSettings settings;
    private final SyncRuntime runtime;
    private final SextantMetrics metrics;
    private final IncludedNames groupNames;
    private final IncludedNames topicNames;
    private final IndexedPositions positions;
    private final GroupStore groups;
    private final PendingGroups pending;
    private final CutoverHold cutovers;
    /** Tells a chain's writes, forwarded, from the reverse direction's, left out. */
    private final ChainedWrites chained;
    private static final int MAX_TOPICS = 10_000;

    /** Whether a topic is a mirror of the destination's own: asked per commit, a regex split under the policy. */
    private final Map<String, Boolean> fromDestination = new HashMap<>();

    CommitIntake(SyncSettings settings, SyncRuntime runtime, IncludedNames groupNames, IncludedNames topicNames,
                 IndexedPositions positions, GroupStore groups, PendingGroups pending, CutoverHold cutovers) {
        this.cutovers = cutovers;
        this.settings = settings;
        this.runtime = runtime;
        this.metrics = runtime.metrics();
        this.groupNames = groupNames;
        this.topicNames = topicNames;
        this.positions = positions;
        this.groups = groups;
        this.pending = pending;
        this.chained = new ChainedWrites(settings.applicationId(),
                () -> runtime.view() == null ? Set.of() : runtime.view().clusterIds());
    }

    /**
     * A record of {@code __consumer_offsets}, decoded, read at {@code logOffset} of its partition: one partition
     * holds a group, so the log orders the group's commits (the coordinator's clock does not).
     */
    void accept(ConsumerOffsetsRecord decoded, long logOffset) {
        String group = groupNames.admit(decoded.group());
        if (group == null) {
            return;
        }
        if (decoded instanceof ConsumerOffsetsRecord.OffsetCommit commit) {
            onCommit(group, commit, logOffset);
        } else if (decoded instanceof ConsumerOffsetsRecord.OffsetDeleted deleted) {
            positions.delete(new PositionKey(group, deleted.topic(), deleted.partition()));
        } else if (decoded instanceof ConsumerOffsetsRecord.GroupTypeSeen seen) {
            onGroupType(seen);
        } else if (decoded instanceof ConsumerOffsetsRecord.GroupDeleted deleted) {
            onGroupDeleted(deleted);
        } else if (decoded instanceof ConsumerOffsetsRecord.ShareGroupTopics topics) {
            onShareGroupTopics(topics);
        } else {
            metrics.skipped(decoded.getClass().getSimpleName());
        }
    }

    /** {@code groupName}: the commit's group, as {@link IncludedNames} holds it. */
    private void onCommit(String groupName, ConsumerOffsetsRecord.OffsetCommit commit, long logOffset) {
        String topic = topicNames.admit(commit.topic());
        if (topic == null) {
            metrics.filtered("topic");
            return;
        }
        if (!chained.takenIn(commit.metadata())) {
            // a Sextant wrote it, not from a cluster upstream of a chain (the other direction's, in a two-way setup):
            // sent back it would move the group on the cluster its offsets came from
            metrics.filtered("sextant-mark");
            return;
        }
        if (!settings.translateHome() && fromDestination(topic)) {
            // a mirror of the destination's own topic: its records came from there (two-way), no flow mirrors it back
            metrics.filtered("from-destination");
            return;
        }
        // a "simple" group (manual assignment, admin commits) has no metadata record: a consumer group
        GroupRecord group = groupOrNew(groupName, GroupKind.CONSUMER);
        if (group.type() != GroupKind.CONSUMER || !settings.syncConsumerGroups()) {
            return;
        }
        metrics.commitRead(GroupKind.CONSUMER);
        PositionKey key = new PositionKey(groupName, topic, commit.partition());
        if (cutovers.holds(groupName)) {
            cutovers.refuse(key, GroupKind.CONSUMER, group.typeLabel(), commit.offset(), commit.commitTimestamp(),
                    logOffset, positions.get(key));
            return;
        }
        move(key, commit.offset(), commit.commitTimestamp(), logOffset);
    }

    private void onGroupType(ConsumerOffsetsRecord.GroupTypeSeen seen) {
        GroupKind type = seen.type() == GroupType.SHARE ? GroupKind.SHARE : GroupKind.CONSUMER;
        GroupRecord old = groups.get(seen.group());
        if (old == null) {
            metrics.groupsTrackedDelta(1);
        }
        GroupRecord next = (old == null ? GroupRecord.of(type) : old).withType(type, seen.protocolType());
        if (!next.equals(old)) {
            groups.put(seen.group(), next);
        }
    }

    private void onShareGroupTopics(ConsumerOffsetsRecord.ShareGroupTopics topics) {
        GroupRecord old = groups.get(topics.group());
        if (old == null) {
            metrics.groupsTrackedDelta(1);
            old = GroupRecord.of(GroupKind.SHARE); // written once below, with its topics
        }
        Map<String, String> names = new HashMap<>(old.shareTopics());
        topics.topicNamesById().forEach((id, name) -> names.put(id.toString(), name));
        groups.put(topics.group(), old.withShareTopics(names));
    }

    /**
     * A share partition's effective start offset moved (or its state was deleted: offset -1). Share state is keyed
     * by topic id; the name comes from the group's own metadata, else from the source's Admin API, and until it is
     * known the position is kept under a placeholder topic ({@link SharePlaceholders}) that the flush resolves.
     *
     * @param logOffset where the position is in Sextant's share-positions topic (one partition holds a group, as in
     *                  {@code __consumer_offsets}), -1 when not known: a record read again after a restart is ignored
     *                  as a replayed commit is, instead of moving the destination back for a while
     */
    void sharePosition(String group, SharePosition share, long logOffset) {
        if (!groupNames.includes(group) || !settings.syncShareGroups()) {
            return;
        }
        GroupRecord record = groupOrNew(group, GroupKind.SHARE);
        String topic = SharePlaceholders.name(record, share.topicId(), runtime.topicNames());
        if (!SharePlaceholders.isPlaceholder(topic) && !topicNames.includes(topic)) {
            metrics.filtered("topic");
            return;
        }
        if (!settings.translateHome() && fromDestination(topic)) {
            metrics.filtered("from-destination"); // as for a consumer group's commit
            return;
        }
        PositionKey key = new PositionKey(group, topic, share.partition());
        if (cutovers.holds(group)) {
            if (share.offset() >= 0) {
                cutovers.refuse(key, GroupKind.SHARE, record.typeLabel(), share.offset(), share.timestamp(),
                        logOffset, positions.get(key));
            }
            return;
        }
        if (share.offset() < 0) {
            positions.delete(key);
            return;
        }
        move(key, share.offset(), share.timestamp(), logOffset);
    }

    /**
     * The partition's source position is now {@code offset}; a re-commit of the same offset changes nothing, and
     * neither does a record at or below the log position the stored one came from (read again after a restart,
     * when the changelog was ahead of the input's committed offset): it would move the position back for a while.
     * A replayed record carries its old time; a newer one at a lower log position (the log was truncated by an
     * unclean election) does not, and is taken.
     */
    private void move(PositionKey key, long offset, long timestamp, long logOffset) {
        PartitionPosition old = positions.get(key);
        if (old != null && (old.sourceOffset() == offset
                || logOffset >= 0 && logOffset <= old.commitLogOffset() && timestamp <= old.commitTimestamp())) {
            return;
        }
        positions.put(key, old == null ? PartitionPosition.committed(offset, timestamp, logOffset)
                : old.withCommit(offset, timestamp, logOffset));
        pending.mark(key, timestamp);
    }

    /** Memoized per topic, starting over past {@link #MAX_TOPICS}: churning topic names must not grow it for ever. */
    private boolean fromDestination(String topic) {
        if (fromDestination.size() >= MAX_TOPICS) {
            fromDestination.clear();
        }
        return fromDestination.computeIfAbsent(topic, settings::fromDestination);
    }

    /** The group's record, registered (and counted) as {@code kind} when it is new. */
    private GroupRecord groupOrNew(String group, GroupKind kind) {
        GroupRecord record = groups.get(group);
        if (record == null) {
            record = GroupRecord.of(kind);
            groups.put(group, record);
            metrics.groupsTrackedDelta(1);
        }
        return record;
    }

    /**
     * A group-defining record was tombstoned. For a consumer group that is not proof the group is gone: an online
     * migration between the classic and the consumer protocol tombstones the old type's record while the offsets
     * survive. A real deletion tombstones every offset too, and those delete the positions; so only the group record
     * goes here (a consumer group is the default kind). A share group's positions go with it: nothing else says its
     * kind, and a share position must never be written as a consumer group's.
     */
    private void onGroupDeleted(ConsumerOffsetsRecord.GroupDeleted deleted) {
        groupNames.forget(deleted.group()); // a memo only: churning group ids must not grow it for ever
        GroupRecord record = groups.get(deleted.group());
        if (record != null) {
            groups.delete(deleted.group());
            metrics.groupsTrackedDelta(-1);
        }
        if (deleted.type() == GroupType.SHARE || (record != null && record.type() == GroupKind.SHARE)) {
            positions.deleteGroup(deleted.group());
            pending.done(deleted.group());
        }
    }
}
