package dev.sextant.sync;

import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.decode.ConsumerOffsetsRecord;
import dev.sextant.domain.GroupKind;
import dev.sextant.history.IntervalProofs;
import dev.sextant.metrics.GroupStateCounts;
import dev.sextant.metrics.OldestPending;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.state.GroupRecord;
import dev.sextant.state.GroupStore;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStore;
import dev.sextant.state.SharePosition;
import dev.sextant.translate.IdentityTranslator;
import dev.sextant.translate.OffsetSyncPoint;
import dev.sextant.translate.OffsetSyncTranslator;
import dev.sextant.translate.OffsetTranslator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;

/**
 * One task's sync: what the source says about the task's groups goes in (decoded commits, group types and
 * deletions, share start offsets), and every {@code sync.interval.ms} {@link #flush()} writes what changed to the
 * destination ({@link GroupSyncFlusher}). The one entry point of this package for the Kafka Streams processor
 * that owns the task; nothing here knows Kafka Streams.
 *
 * <p>Per commit this costs one filter lookup and one write to the position store; nothing on the way in talks to the
 * destination. Invariants: every call comes from the task's stream thread; the group registry and the positions
 * change only here and in the flush; a share position is never kept under a consumer group, nor the reverse.
 */
public final class TaskSync {

    /**
     * While the task reads a backlog of commits, a group is planned at most this often: its write then carries the
     * newest of the commits read meanwhile instead of one write per commit, and the stream thread spends its time
     * reading. A backlog that never ends still writes every group this often.
     */
    public static final long BACKLOG_GROUP_INTERVAL_MS = 5_000;

    private final SyncSettings settings;
    private final SyncRuntime runtime;
    private final SextantMetrics metrics;
    private final IncludedNames groupNames;
    private final IncludedNames topicNames;
    private final IndexedPositions positions;
    private final GroupStore groups;
    private final GroupSyncFlusher flusher;
    private final OffsetSyncStore history;
    /** How many partition histories this task has seen forgotten as a whole (reset markers). */
    private long seenResets;
    private final BoundedPositions bounded;
    /** How many interval proofs this task has re-planned for. */
    private long seenProofs;

    /**
     * @param history     the offset-sync history (the global store), or null with identity translation
     * @param deadLetters where the task's dead-letter records go
     */
    public TaskSync(SyncSettings settings, SyncRuntime runtime, PositionStore positionStore, GroupStore groups,
                    OffsetSyncStore history, OldestPending oldestPending, GroupStateCounts stateCounts,
                    Consumer<DeadLetterRecord> deadLetters) {
        this.settings = settings;
        this.runtime = runtime;
        this.metrics = runtime.metrics();
        this.groupNames = new IncludedNames(settings.includeGroup());
        this.topicNames = new IncludedNames(settings.includeTopic());
        this.groups = groups;
        this.history = history;
        this.seenResets = history == null ? 0 : history.resets();
        this.positions = new IndexedPositions(positionStore, key -> new PositionKey(
                groupNames.canonical(key.group()), topicNames.canonical(key.topic()), key.partition()));
        OffsetTranslator translator;
        BoundedPositions bounded;
        if (history == null) {
            translator = new IdentityTranslator();
            bounded = new BoundedPositions(null);
        } else {
            translator = new OffsetSyncTranslator(history, runtime.evidence());
            bounded = new BoundedPositions(tp ->
                    history.newest(tp.topic(), tp.partition()).map(OffsetSyncPoint::upstreamOffset).orElse(null));
        }
        this.bounded = bounded;
        this.seenProofs = runtime.evidence() instanceof IntervalProofs proofs ? proofs.proven() : 0;
        this.flusher = new GroupSyncFlusher(settings, runtime, positions, groups, translator, bounded, oldestPending,
                stateCounts, deadLetters);
    }

    /** Takes up the task's stored state (after a start or a rebalance): what is still to write is pending again. */
    public void open() {
        flusher.recover();
        metrics.groupsTrackedDelta(groups.size());
    }

    /**
     * Writes what changed since the last flush; runs every {@code sync.interval.ms}.
     *
     * @param backlog the task is reading commits made a while ago: a group is planned at most every
     *                {@link #BACKLOG_GROUP_INTERVAL_MS}, so reading catches up sooner and the group's commits read
     *                meanwhile go out as one write
     */
    public void flush(boolean backlog) {
        reopenAfterResets();
        replanProven();
        flusher.flush(backlog);
    }

    /**
     * An interval between two offset syncs proven against the records since the last flush: the applied bounded
     * positions inside it are planned again, and now translate exactly.
     */
    private void replanProven() {
        if (!(runtime.evidence() instanceof IntervalProofs proofs) || proofs.proven() == seenProofs) {
            return;
        }
        Optional<List<IntervalProofs.Interval>> proven = proofs.provenSince(seenProofs);
        if (proven.isEmpty()) { // fell behind the proofs kept: every bounded position is worth another look
            seenProofs = proofs.proven();
            flusher.replan(bounded.all());
            return;
        }
        seenProofs += proven.get().size();
        for (IntervalProofs.Interval interval : proven.get()) {
            flusher.replan(bounded.inside(interval.partition(), interval.lower().upstreamOffset(),
                    interval.upper().upstreamOffset()));
        }
    }

    /**
     * A partition whose history was forgotten as a whole (the source topic was recreated) no longer translates
     * through the syncs its applied positions were written with: each is planned again, so one that the history left
     * now no longer covers shows as {@code UNTRANSLATABLE} instead of staying applied; so is one whose write was in
     * flight, once answered. What the destination holds stays; a position that still translates is written again
     * only if its translation moved.
     */
    private void reopenAfterResets() {
        if (history == null || history.resets() == seenResets) {
            return;
        }
        Set<TopicPartition> reset = history.resetSince(seenResets);
        seenResets = history.resets();
        List<Map.Entry<PositionKey, PartitionPosition>> reopened = new ArrayList<>();
        positions.forEachStored((key, pos) -> {
            if (!reset.contains(new TopicPartition(key.topic(), key.partition()))) {
                return;
            }
            if (!pos.needsApply()) {
                reopened.add(Map.entry(key, pos.reopened()));
            } else {
                flusher.reopenWhenAnswered(key); // its write may be in flight, translated through the old history
            }
        });
        for (Map.Entry<PositionKey, PartitionPosition> e : reopened) {
            positions.put(e.getKey(), e.getValue());
            flusher.markPending(e.getKey(), e.getValue().commitTimestamp());
        }
    }

    /** The task is closed (revoked, or the instance stops): nothing it planned is sent any more. */
    public void close() {
        metrics.groupsTrackedDelta(-groups.size());
        flusher.close();
    }

    /** A record of {@code __consumer_offsets}, decoded, whose place in the log is not known. */
    public void accept(ConsumerOffsetsRecord decoded) {
        accept(decoded, -1);
    }

    /**
     * A record of {@code __consumer_offsets}, decoded, read at {@code logOffset} of its partition: one partition
     * holds a group, so the log orders the group's commits (the coordinator's clock does not).
     */
    public void accept(ConsumerOffsetsRecord decoded, long logOffset) {
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
        // a "simple" group (manual assignment, admin commits) has no metadata record: a consumer group
        GroupRecord group = groupOrNew(groupName, GroupKind.CONSUMER);
        if (group.type() != GroupKind.CONSUMER || !settings.syncConsumerGroups()) {
            return;
        }
        metrics.commitRead(GroupKind.CONSUMER);
        move(new PositionKey(groupName, topic, commit.partition()), commit.offset(), commit.commitTimestamp(),
                logOffset);
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
    public void sharePosition(String group, SharePosition share, long logOffset) {
        if (!groupNames.includes(group) || !settings.syncShareGroups()) {
            return;
        }
        GroupRecord record = groupOrNew(group, GroupKind.SHARE);
        String topic = SharePlaceholders.name(record, share.topicId(), runtime.topicNames());
        if (!SharePlaceholders.isPlaceholder(topic) && !topicNames.includes(topic)) {
            metrics.filtered("topic");
            return;
        }
        PositionKey key = new PositionKey(group, topic, share.partition());
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
        flusher.markPending(key, timestamp);
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
            flusher.forget(deleted.group());
        }
    }
}
