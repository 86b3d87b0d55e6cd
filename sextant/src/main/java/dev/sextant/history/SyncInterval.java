package dev.sextant.history;

import dev.sextant.translate.OffsetSyncPoint;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.TopicPartition;

/** An interval between two offset syncs of one source partition: the two syncs that bound it, lower first. */
public record SyncInterval(OffsetSyncPoint lower, OffsetSyncPoint upper) {

    /** The source partition both syncs belong to. */
    public TopicPartition partition() {
        return new TopicPartition(lower.topic(), lower.partition());
    }

    /** The mirror partition, under the destination's name for the source topic. */
    public TopicPartition mirrorPartition(UnaryOperator<String> mirrorTopic) {
        return new TopicPartition(mirrorTopic.apply(lower.topic()), lower.partition());
    }
}
