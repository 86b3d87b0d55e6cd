package dev.sextant.topology;

import dev.sextant.deadletter.DeadLetterSerde;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.state.CoordinatorPartitioner;
import dev.sextant.state.Cutovers;
import dev.sextant.state.GroupStore;
import dev.sextant.state.NewestSyncs;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.state.PositionStore;
import dev.sextant.state.ShareStateKeys;
import dev.sextant.state.SyncHolds;
import dev.sextant.state.WriteBehindStoreBuilder;
import dev.sextant.sync.SyncGauges;
import dev.sextant.sync.SyncRuntime;
import dev.sextant.sync.SyncSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * Sextant's Kafka Streams topology. Inputs are read by pattern, never by name: an internal topic that does not
 * exist yet (no share group ever ran; MirrorMaker 2 not started) would otherwise stop the client, and a pattern
 * picks the topic up when it appears.
 *
 * <pre>
 *  __share_group_state ──▶ ShareStateProcessor ──▶ &lt;app&gt;-share-positions (partitioned by group) ─┐
 *  __consumer_offsets ───────────────────────────────────────────────────────▶ GroupSyncProcessor
 *                                          [groups, group-positions] ◀──────────────┤
 *                    flush per group type ──▶ destination (Admin) ◀─────────────────┤
 *                                             dead-letter topic ◀───────────────────┤
 *                                translate: offset-sync-history (global store) ◀────┤
 *                          groups cut over: cutovers (global store) ◀───────────────┘
 *                                                              ▲
 *  mm2-offset-syncs.&lt;dest&gt;.internal ──▶ OffsetSyncHistoryWriter ──▶ &lt;app&gt;-offset-sync-history (compacted)
 * </pre>
 *
 * With {@code translation=identity} the offset-sync branch and the global store are left out; with
 * {@code sync.share.groups=false} the share-state branch. With {@code source.offsets.read=admin} the commits come
 * from Sextant's own topic ({@link SyncSettings#commitsTopic}) instead of {@code __consumer_offsets}: the records are
 * the same, and so is everything downstream. The share positions topic has as many partitions as
 * {@code __consumer_offsets} and is partitioned the same way ({@link CoordinatorPartitioner}), so partition
 * {@code i} of both reaches the same task: the one that owns the group.
 */
public final class SextantTopology {

    private SextantTopology() {
    }

    public static Topology build(SyncSettings settings, SyncRuntime runtime) {
        SextantMetrics metrics = runtime.metrics();
        Topology topology = new Topology();
        DeadLetterSerde deadLetters = new DeadLetterSerde();
        NewestSyncs newestSyncs = new NewestSyncs(); // one per instance, like the global store it mirrors
        UndecodableRecords undecodable = new UndecodableRecords(settings, metrics); // one per instance too
        SyncGauges gauges = SyncGauges.registered(metrics, settings.clock());
        metrics.destinationUp(() -> runtime.view().reachable());
        metrics.destinationClusterChanged(() -> runtime.view().clusterChange().isPresent());
        metrics.groupsCutOver(() -> runtime.cutovers().size());

        if (!settings.identityTranslation()) {
            topology.addGlobalStore(
                    Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(OffsetSyncStore.NAME), Serdes.Bytes(),
                            Serdes.ByteArray()).withLoggingDisabled(),
                    "offset-sync-history-source", Serdes.Bytes().deserializer(), Serdes.ByteArray().deserializer(),
                    settings.historyTopic(), "offset-sync-history-updater",
                    () -> new OffsetSyncHistoryUpdater(newestSyncs, settings, undecodable, runtime.catchUp(),
                            runtime.view()));
            topology.addSource(AutoOffsetReset.earliest(), "offset-syncs-source",
                    Serdes.ByteArray().deserializer(), Serdes.ByteArray().deserializer(),
                    Pattern.compile(Pattern.quote(settings.offsetSyncsTopic())));
            topology.addProcessor("offset-sync-history-writer", () -> new OffsetSyncHistoryWriter(settings,
                    runtime.source(), runtime.view(), metrics, undecodable, runtime.catchUp(), runtime.evidence()),
                    "offset-syncs-source");
            topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(SyncHolds.NAME),
                    Serdes.Bytes(), Serdes.ByteArray()), "offset-sync-history-writer");
            topology.addSink(TopologyNames.HISTORY_SINK, settings.historyTopic(), Serdes.Bytes().serializer(),
                    Serdes.ByteArray().serializer(), "offset-sync-history-writer");
        }

        // the groups cut over to the destination: every instance holds all of them, and the sync never writes them
        topology.addGlobalStore(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(Cutovers.STORE), Serdes.Bytes(),
                        Serdes.ByteArray()).withLoggingDisabled(),
                "cutovers-source", Serdes.Bytes().deserializer(), Serdes.ByteArray().deserializer(),
                settings.cutoversTopic(), "cutovers-updater",
                () -> new CutoverUpdater(runtime.cutovers(), settings, undecodable));

        topology.addSource(AutoOffsetReset.earliest(), "consumer-offsets-source",
                Serdes.ByteArray().deserializer(), Serdes.ByteArray().deserializer(),
                Pattern.compile(Pattern.quote(settings.commitsTopic())));
        List<String> groupInputs = new ArrayList<>(List.of("consumer-offsets-source"));
        if (settings.syncShareGroups()) {
            topology.addSource(AutoOffsetReset.earliest(), "share-state-source",
                    Serdes.ByteArray().deserializer(), Serdes.ByteArray().deserializer(),
                    Pattern.compile(Pattern.quote(Topic.SHARE_GROUP_STATE_TOPIC_NAME)));
            topology.addProcessor("share-state-processor",
                    () -> new ShareStateProcessor(settings, metrics, undecodable), "share-state-source");
            topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(ShareStateKeys.STORE),
                    Serdes.Bytes(), Serdes.ByteArray()), "share-state-processor");
            topology.addSink(TopologyNames.SHARE_POSITIONS_SINK, settings.sharePositionsTopic(),
                    Serdes.String().serializer(), Serdes.ByteArray().serializer(), new CoordinatorPartitioner<byte[]>(),
                    "share-state-processor");
            topology.addSink(TopologyNames.SHARE_DLQ_SINK, settings.dlqTopic(), Serdes.String().serializer(),
                    deadLetters.serializer(), "share-state-processor");
            // read back in the tasks that own the groups: same partition count and partitioning as __consumer_offsets
            topology.addSource(AutoOffsetReset.earliest(), "share-positions-source",
                    Serdes.ByteArray().deserializer(), Serdes.ByteArray().deserializer(),
                    settings.sharePositionsTopic());
            groupInputs.add("share-positions-source");
        }
        topology.addProcessor(TopologyNames.GROUP_PROCESSOR,
                () -> new GroupSyncProcessor(settings, runtime, newestSyncs, undecodable, gauges),
                groupInputs.toArray(String[]::new));
        // Written behind: a position is written on commit, plan and settle, often within one Streams commit
        // interval; those become one RocksDB write and one changelog record at the commit (the owning task reads
        // its positions from memory, IndexedPositions, so nothing here needs to be a sorted cache).
        topology.addStateStore(new WriteBehindStoreBuilder(Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(PositionStore.NAME), Serdes.Bytes(), Serdes.ByteArray())),
                TopologyNames.GROUP_PROCESSOR);
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(GroupStore.NAME),
                Serdes.String(), Serdes.ByteArray()), TopologyNames.GROUP_PROCESSOR);

        // one dead-letter sink per sub-topology: a shared sink would fuse the two into one
        topology.addSink(TopologyNames.DLQ_SINK, settings.dlqTopic(), Serdes.String().serializer(),
                deadLetters.serializer(), TopologyNames.GROUP_PROCESSOR);
        if (!settings.identityTranslation()) {
            topology.addSink(TopologyNames.SYNC_DLQ_SINK, settings.dlqTopic(), Serdes.String().serializer(),
                    deadLetters.serializer(), "offset-sync-history-writer");
        }
        return topology;
    }
}
