package dev.sextant.topology;

import dev.sextant.deadletter.DeadLetterSerde;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.state.GroupStore;
import dev.sextant.state.PositionStore;
import java.util.regex.Pattern;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.Stores;

/**
 * Sextant's Kafka Streams topology. Inputs are read by pattern, never by name: an internal topic that does not
 * exist yet (no share group ever ran; MirrorMaker 2 not started) would otherwise stop the client, and a pattern
 * picks the topic up when it appears.
 *
 * <pre>
 *  __consumer_offsets ──▶ ConsumerOffsetsProcessor ──[groups, group-positions]──▶ flush ──▶ destination (Admin)
 *                                   │            ▲                                   └──▶ dead-letter topic
 *                                   └────────────┼── reads ── offset-sync-history (global store, every instance)
 *                                                │                        ▲
 *  mm2-offset-syncs.&lt;dest&gt;.internal ──▶ OffsetSyncHistoryWriter ──▶ &lt;app&gt;-offset-sync-history (compacted)
 * </pre>
 *
 * With {@code translation=identity} the offset-sync branch and the global store are left out.
 */
public final class SextantTopology {

    public static final String HISTORY_STORE = "offset-sync-history";
    public static final String CONSUMER_OFFSETS_TOPIC = "__consumer_offsets";
    static final String DLQ_SINK = "dead-letter-sink";
    static final String SYNC_DLQ_SINK = "offset-sync-dead-letter-sink";
    static final String HISTORY_SINK = "offset-sync-history-sink";

    private SextantTopology() {
    }

    public static Topology build(SyncSettings settings, SyncRuntime runtime) {
        SextantMetrics metrics = runtime.metrics();
        Topology topology = new Topology();
        DeadLetterSerde deadLetters = new DeadLetterSerde();

        if (!settings.identityTranslation()) {
            topology.addGlobalStore(
                    Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(HISTORY_STORE), Serdes.Bytes(),
                            Serdes.ByteArray()).withLoggingDisabled(),
                    "offset-sync-history-source", Serdes.Bytes().deserializer(), Serdes.ByteArray().deserializer(),
                    settings.historyTopic(), "offset-sync-history-updater", OffsetSyncHistoryUpdater::new);
            topology.addSource(AutoOffsetReset.earliest(), "offset-syncs-source",
                    Serdes.ByteArray().deserializer(), Serdes.ByteArray().deserializer(),
                    Pattern.compile(Pattern.quote(settings.offsetSyncsTopic())));
            topology.addProcessor("offset-sync-history-writer",
                    () -> new OffsetSyncHistoryWriter(settings, runtime.source(), metrics), "offset-syncs-source");
            topology.addSink(HISTORY_SINK, settings.historyTopic(), Serdes.Bytes().serializer(),
                    Serdes.ByteArray().serializer(), "offset-sync-history-writer");
        }

        topology.addSource(AutoOffsetReset.earliest(), "consumer-offsets-source",
                Serdes.ByteArray().deserializer(), Serdes.ByteArray().deserializer(),
                Pattern.compile(Pattern.quote(CONSUMER_OFFSETS_TOPIC)));
        topology.addProcessor("consumer-offsets-processor",
                () -> new ConsumerOffsetsProcessor(settings, runtime.view(), runtime.applier(), metrics), "consumer-offsets-source");
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(PositionStore.NAME),
                Serdes.Bytes(), Serdes.ByteArray()), "consumer-offsets-processor");
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(GroupStore.NAME),
                Serdes.String(), Serdes.ByteArray()), "consumer-offsets-processor");

        // one dead-letter sink per sub-topology: a shared sink would fuse the two into one
        topology.addSink(DLQ_SINK, settings.dlqTopic(), Serdes.String().serializer(), deadLetters.serializer(),
                "consumer-offsets-processor");
        if (!settings.identityTranslation()) {
            topology.addSink(SYNC_DLQ_SINK, settings.dlqTopic(), Serdes.String().serializer(),
                    deadLetters.serializer(), "offset-sync-history-writer");
        }
        return topology;
    }

    /** "topic-partition@offset" of the record being processed, for messages. */
    static String where(RecordMetadata metadata) {
        return metadata.topic() + "-" + metadata.partition() + "@" + metadata.offset();
    }
}
