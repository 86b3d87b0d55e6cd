package dev.sextant.decode;

import java.util.Objects;
import org.apache.kafka.common.TopicPartition;

/**
 * One MirrorMaker 2 offset sync: the record at {@code upstreamOffset} of the <em>source</em> partition
 * ({@code topic}, {@code partition}) was written at {@code downstreamOffset} of its mirror. Same content as MM2's
 * own {@code org.apache.kafka.connect.mirror.OffsetSync}, which lives in connect-mirror (not on the classpath).
 *
 * @param topic     the source topic name, non-null
 * @param partition ≥ 0
 */
public record OffsetSync(String topic, int partition, long upstreamOffset, long downstreamOffset) {

    public OffsetSync {
        Objects.requireNonNull(topic, "topic");
        if (partition < 0) {
            throw new IllegalArgumentException("partition must be >= 0, was " + partition);
        }
    }

    /** The source topic-partition, as MM2's {@code OffsetSync.topicPartition()}. */
    public TopicPartition topicPartition() {
        return new TopicPartition(topic, partition);
    }
}
