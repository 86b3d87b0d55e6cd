package dev.sextant.apply;

import dev.sextant.state.PositionKey;
import org.apache.kafka.common.TopicPartition;

/**
 * One partition of a group to write: where its source position translates to on the destination.
 *
 * @param bound the translation's replay bound, written into Sextant's mark; -1 when not known
 */
public record PlannedPartition(PositionKey key, TopicPartition destination, long sourceOffset, long commitTimestamp,
                               long translatedOffset, long bound) {

    public PlannedPartition(PositionKey key, TopicPartition destination, long sourceOffset, long commitTimestamp,
                            long translatedOffset) {
        this(key, destination, sourceOffset, commitTimestamp, translatedOffset, -1);
    }
}
