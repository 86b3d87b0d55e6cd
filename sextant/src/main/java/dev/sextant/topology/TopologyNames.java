package dev.sextant.topology;

import java.util.Optional;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The names the processors of {@link SextantTopology} forward to, and how a record being processed is named in
 * messages. Kept apart from the builder so that processors need nothing of it.
 */
final class TopologyNames {

    /** The dead-letter sink of the group sub-topology. */
    static final String DLQ_SINK = "dead-letter-sink";
    /**
     * The dead-letter sink of the offset-sync sub-topology (one sink per sub-topology: a shared one would fuse them).
     */
    static final String SYNC_DLQ_SINK = "offset-sync-dead-letter-sink";
    /** The dead-letter sink of the share-state sub-topology. */
    static final String SHARE_DLQ_SINK = "share-state-dead-letter-sink";
    static final String SHARE_POSITIONS_SINK = "share-positions-sink";
    static final String GROUP_PROCESSOR = "group-sync-processor";
    static final String HISTORY_SINK = "offset-sync-history-sink";

    private TopologyNames() {
    }

    /** "topic-partition@offset" of the record being processed, for messages. */
    static String where(RecordMetadata metadata) {
        return metadata.topic() + "-" + metadata.partition() + "@" + metadata.offset();
    }

    /** As {@link #where(RecordMetadata)}, "?" outside of processing a record. */
    static String where(Optional<RecordMetadata> metadata) {
        return metadata.map(TopologyNames::where).orElse("?");
    }
}
