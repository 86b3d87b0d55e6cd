package dev.sextant.topology;

import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.decode.ConsumerOffsetsDecoder;
import dev.sextant.decode.ConsumerOffsetsRecord;
import dev.sextant.decode.UndecodableRecordException;
import dev.sextant.domain.GroupKind;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.state.GroupRecord;
import dev.sextant.state.GroupStore;
import dev.sextant.state.NewestSyncs;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStore;
import dev.sextant.translate.IdentityTranslator;
import dev.sextant.translate.OffsetSyncPoint;
import dev.sextant.translate.OffsetSyncTranslator;
import dev.sextant.translate.OffsetTranslator;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Reads {@code __consumer_offsets} (one task per partition, so every record of a group reaches the same task in
 * order) and keeps the group registry and the position store current; every {@code sync.interval.ms} it hands the
 * pending groups to the {@link GroupSyncFlusher}.
 *
 * <p>Per commit this costs one decode, one filter lookup and one write to the (cached) position store; nothing here
 * talks to the destination.
 * Records it cannot decode are counted and become {@code UNDECODABLE} dead-letter records; it never throws on
 * input.
 */
final class GroupSyncProcessor implements Processor<byte[], byte[], Object, Object> {

    private final SyncSettings settings;
    private final SyncRuntime runtime;
    private final SextantMetrics metrics;
    private final IncludedNames groupNames;
    private final IncludedNames topicNames;
    private ProcessorContext<Object, Object> context;
    private final NewestSyncs newestSyncs;
    private final UndecodableRecords undecodableRecords;
    private final OldestPending oldestPending;
    private final GroupStateCounts stateCounts;
    private IndexedPositions positions;
    private GroupStore groups;
    private GroupSyncFlusher flusher;

    GroupSyncProcessor(SyncSettings settings, SyncRuntime runtime, NewestSyncs newestSyncs,
                       UndecodableRecords undecodableRecords, OldestPending oldestPending,
                       GroupStateCounts stateCounts) {
        this.stateCounts = stateCounts;
        this.undecodableRecords = undecodableRecords;
        this.oldestPending = oldestPending;
        this.settings = settings;
        this.groupNames = new IncludedNames(settings.includeGroup());
        this.topicNames = new IncludedNames(settings.includeTopic());
        this.newestSyncs = newestSyncs;
        this.runtime = runtime;
        this.metrics = runtime.metrics();
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        KeyValueStore<Bytes, byte[]> positionStore = context.getStateStore(PositionStore.NAME);
        KeyValueStore<String, byte[]> groupStore = context.getStateStore(GroupStore.NAME);
        positions = new IndexedPositions(PositionStore.of(positionStore), key -> new PositionKey(
                groupNames.canonical(key.group()), topicNames.canonical(key.topic()), key.partition()));
        groups = GroupStore.of(groupStore);
        OffsetTranslator translator;
        BoundedPositions bounded;
        if (settings.identityTranslation()) {
            translator = new IdentityTranslator();
            bounded = new BoundedPositions(null);
        } else {
            ReadOnlyKeyValueStore<Bytes, byte[]> historyStore = context.getStateStore(OffsetSyncStore.NAME);
            OffsetSyncStore history = OffsetSyncStore.reader(historyStore, newestSyncs);
            translator = new OffsetSyncTranslator(history);
            bounded = new BoundedPositions(tp ->
                    history.newest(tp.topic(), tp.partition()).map(OffsetSyncPoint::upstreamOffset).orElse(null));
        }
        flusher = new GroupSyncFlusher(settings, runtime, positions, groups, translator, bounded, oldestPending, stateCounts,
                this::deadLetter);
        flusher.recover();
        metrics.groupsTrackedDelta(groups.size());
        context.schedule(Duration.ofMillis(settings.syncIntervalMs()), PunctuationType.WALL_CLOCK_TIME,
                ts -> flusher.flush());
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        if (context.recordMetadata().map(m -> m.topic().equals(settings.sharePositionsTopic())).orElse(false)) {
            String group = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
            SharePosition position;
            try {
                position = SharePosition.fromBytes(group, record.value());
            } catch (UndecodableRecordException e) {
                undecodable(e);
                return;
            }
            onSharePosition(group, position);
            return;
        }
        ConsumerOffsetsRecord decoded;
        try {
            decoded = ConsumerOffsetsDecoder.decode(record.key(), record.value());
        } catch (UndecodableRecordException e) {
            undecodable(e);
            return;
        }
        String group = groupNames.admit(decoded.group());
        if (group == null) {
            return;
        }
        if (decoded instanceof ConsumerOffsetsRecord.OffsetCommit commit) {
            onCommit(group, commit);
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
    private void onCommit(String groupName, ConsumerOffsetsRecord.OffsetCommit commit) {
        String topic = topicNames.admit(commit.topic());
        if (topic == null) {
            metrics.filtered("topic");
            return;
        }
        GroupRecord group = groups.get(groupName);
        if (group == null) {
            // a "simple" group (manual assignment, admin commits) has no metadata record: a consumer group
            group = GroupRecord.of(GroupKind.CONSUMER);
            groups.put(groupName, group);
            metrics.groupsTrackedDelta(1);
        }
        if (group.type() != GroupKind.CONSUMER || !settings.syncConsumerGroups()) {
            return;
        }
        metrics.commitRead(GroupKind.CONSUMER);
        PositionKey key = new PositionKey(groupName, topic, commit.partition());
        PartitionPosition old = positions.get(key);
        if (old != null && old.sourceOffset() == commit.offset()) {
            return; // a re-commit of the same offset changes nothing on the destination
        }
        positions.put(key, old == null
                ? PartitionPosition.committed(commit.offset(), commit.commitTimestamp())
                : old.withCommit(commit.offset(), commit.commitTimestamp()));
        flusher.markPending(key, commit.commitTimestamp());
    }

    private void onGroupType(ConsumerOffsetsRecord.GroupTypeSeen seen) {
        GroupKind type = seen.type() == GroupType.SHARE ? GroupKind.SHARE : GroupKind.CONSUMER;
        GroupRecord old = groups.get(seen.group());
        if (old == null) {
            metrics.groupsTrackedDelta(1);
        }
        GroupRecord next = old == null ? GroupRecord.of(type).withType(type, seen.protocolType())
                : old.withType(type, seen.protocolType());
        if (!next.equals(old)) {
            groups.put(seen.group(), next);
        }
    }

    private void onShareGroupTopics(ConsumerOffsetsRecord.ShareGroupTopics topics) {
        GroupRecord old = groups.get(topics.group());
        if (old == null) {
            metrics.groupsTrackedDelta(1);
            old = GroupRecord.of(GroupKind.SHARE);
        }
        Map<String, String> names = new HashMap<>(old.shareTopics());
        topics.topicNamesById().forEach((id, name) -> names.put(id.toString(), name));
        groups.put(topics.group(), old.withShareTopics(names));
    }

    /**
     * A share partition's effective start offset moved (or its state was deleted: offset -1). Share state is keyed
     * by topic id; the name comes from the group's own metadata, else from the source's Admin API, and until it is
     * known the position is kept under a placeholder topic ({@link SharePlaceholders}) that the flush resolves.
     */
    private void onSharePosition(String group, SharePosition share) {
        if (!groupNames.includes(group) || !settings.syncShareGroups()) {
            return;
        }
        GroupRecord record = groups.get(group);
        if (record == null) {
            record = GroupRecord.of(GroupKind.SHARE);
            groups.put(group, record);
            metrics.groupsTrackedDelta(1);
        }
        String topic = SharePlaceholders.name(record, share.topicId(), runtime.topicNames());
        if (!SharePlaceholders.isPlaceholder(topic)
                && !topicNames.includes(topic)) {
            metrics.filtered("topic");
            return;
        }
        PositionKey key = new PositionKey(group, topic, share.partition());
        if (share.offset() < 0) {
            positions.delete(key);
            return;
        }
        PartitionPosition old = positions.get(key);
        if (old != null && old.sourceOffset() == share.offset()) {
            return;
        }
        positions.put(key, old == null ? PartitionPosition.committed(share.offset(), share.timestamp())
                : old.withCommit(share.offset(), share.timestamp()));
        flusher.markPending(key, share.timestamp());
    }

    /**
     * A group-defining record was tombstoned. For a consumer group that is not proof the group is gone: an online
     * migration between the classic and the consumer protocol tombstones the old type's record while the offsets
     * survive. A real deletion tombstones every offset too, and those delete the positions; so only the group record
     * goes here (a consumer group is the default kind). A share group's positions go with it: nothing else says its
     * kind, and a share position must never be written as a consumer group's.
     */
    private void onGroupDeleted(ConsumerOffsetsRecord.GroupDeleted deleted) {
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

    private void undecodable(UndecodableRecordException e) {
        String where = context.recordMetadata().map(SextantTopology::where).orElse("?");
        String topic = context.recordMetadata().map(m -> m.topic()).orElse("?");
        undecodableRecords.report(topic, where, e, null).ifPresent(this::deadLetter);
    }

    private void deadLetter(DeadLetterRecord record) {
        context.forward(new Record<>(record.group(), record, settings.clock().millis()), SextantTopology.DLQ_SINK);
    }

    @Override
    public void close() {
        metrics.groupsTrackedDelta(-groups.size());
        if (flusher != null) {
            flusher.close();
        }
    }
}
