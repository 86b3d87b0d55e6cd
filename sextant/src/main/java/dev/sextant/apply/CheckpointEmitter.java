package dev.sextant.apply;

import org.apache.kafka.common.TopicPartition;

/**
 * Writes MirrorMaker 2 checkpoints for the consumer-group positions Sextant applies ({@code emit.checkpoints.enabled}),
 * so that tools reading MirrorMaker 2's checkpoints topic ({@code RemoteClusterUtils.translateOffsets}) see them.
 */
public interface CheckpointEmitter extends AutoCloseable {

    /** Emits nothing (the default). */
    CheckpointEmitter NONE = new CheckpointEmitter() {
        @Override
        public void applied(String group, TopicPartition destination, long upstreamOffset, long downstreamOffset) {
        }

        @Override
        public void close() {
        }
    };

    /**
     * The destination holds {@code downstreamOffset} for {@code group} on {@code destination}, the translation of the
     * source commit {@code upstreamOffset}. Never blocks; a checkpoint that cannot be written is logged, and the next
     * apply of the partition writes a newer one.
     */
    void applied(String group, TopicPartition destination, long upstreamOffset, long downstreamOffset);

    @Override
    void close();
}
