package dev.sextant.topology;

import dev.sextant.decode.ShareStateDecoder;
import dev.sextant.decode.ShareStateRecord;
import dev.sextant.decode.UndecodableRecordException;
import dev.sextant.domain.GroupKind;
import dev.sextant.domain.SharePartitionState;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.state.SharePosition;
import dev.sextant.state.ShareStateKeys;
import dev.sextant.sync.SyncSettings;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Replays {@code __share_group_state} (snapshots, updates, deletions) into the state of every share partition, and
 * whenever a partition's effective start offset moves, sends it to the task that owns the group. The share state
 * topic is partitioned by (group, topic, partition) and {@code __consumer_offsets} by group, hence the hop.
 */
final class ShareStateProcessor implements Processor<byte[], byte[], Object, Object> {

    private final SyncSettings settings;
    private final SextantMetrics metrics;
    private final UndecodableRecords undecodableRecords;
    /** What this task sent since it started, per share partition (not from the store: see process). */
    private final Map<Bytes, Long> forwardedThisRun = new HashMap<>();
    private final Map<String, Boolean> groupIncluded = new HashMap<>();
    private ProcessorContext<Object, Object> context;
    private KeyValueStore<Bytes, byte[]> states;

    ShareStateProcessor(SyncSettings settings, SextantMetrics metrics, UndecodableRecords undecodableRecords) {
        this.undecodableRecords = undecodableRecords;
        this.settings = settings;
        this.metrics = metrics;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        this.states = context.getStateStore(ShareStateKeys.STORE);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        ShareStateRecord decoded;
        try {
            decoded = ShareStateDecoder.decode(record.key(), record.value());
        } catch (UndecodableRecordException e) {
            String where = TopologyNames.where(context.recordMetadata());
            undecodableRecords.report(Topic.SHARE_GROUP_STATE_TOPIC_NAME, where, e, GroupKind.SHARE.label())
                    .ifPresent(dead -> context.forward(new Record<>(dead.group(), dead, record.timestamp()),
                            TopologyNames.SHARE_DLQ_SINK));
            return;
        }
        if (!groupIncluded.computeIfAbsent(decoded.group(), settings.includeGroup()::test)) {
            return;
        }
        Bytes key = key(decoded);
        byte[] raw = states.get(key);
        SharePartitionState before = raw == null ? SharePartitionState.empty() : SharePartitionState.fromBytes(raw);
        if (decoded instanceof ShareStateRecord.ShareStateDeleted) {
            states.delete(key);
            if (before.lastForwarded() >= 0 || forwardedThisRun.remove(key) != null) {
                forward(decoded, -1, record.timestamp());
            }
            return;
        }
        SharePartitionState after = decoded instanceof ShareStateRecord.ShareSnapshot snapshot
                ? before.snapshot(snapshot.startOffset(), snapshot.stateBatches())
                : before.update(((ShareStateRecord.ShareUpdate) decoded).startOffset(),
                        ((ShareStateRecord.ShareUpdate) decoded).stateBatches());
        long effective = after.effectiveStartOffset();
        // Sent again after a restart: the store may have kept "forwarded" while the record itself was lost in the
        // crash (the changelog and the output are separate writes). A repeat is harmless: the owner ignores it.
        Long sent = forwardedThisRun.get(key);
        if (effective >= 0 && (sent == null || sent != effective)) {
            forward(decoded, effective, record.timestamp());
            forwardedThisRun.put(key, effective);
            after = after.forwarded(effective);
        }
        states.put(key, after.toBytes());
    }

    private void forward(ShareStateRecord state, long offset, long timestamp) {
        metrics.commitRead(GroupKind.SHARE);
        context.forward(new Record<>(state.group(),
                new SharePosition(state.topicId(), state.partition(), offset, timestamp).toBytes(), timestamp),
                TopologyNames.SHARE_POSITIONS_SINK);
    }

    private static Bytes key(ShareStateRecord state) {
        return ShareStateKeys.key(state.group(), state.topicId(), state.partition());
    }
}
