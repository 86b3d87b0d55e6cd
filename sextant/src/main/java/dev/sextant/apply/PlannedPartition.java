package dev.sextant.apply;

import dev.sextant.state.PositionKey;
import org.apache.kafka.common.TopicPartition;

/** One partition of a group to write: where its source position translates to on the destination. */
public record PlannedPartition(PositionKey key, TopicPartition destination, long sourceOffset, long commitTimestamp,
                               long translatedOffset) {
}
