package dev.sextant.source;

import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads a stretch of a source partition past open transactions ({@code read_uncommitted}): what a
 * {@code read_committed} reader cannot see yet while another application's transaction is open. Every record there
 * is untrusted until checked: some belong to that transaction and may still be aborted.
 */
public interface UncommittedRecords extends AutoCloseable {

    /** Reads nothing: sources that cannot, and tests that do not need it. */
    UncommittedRecords NONE = new UncommittedRecords() {
        @Override
        public List<ConsumerRecord<byte[], byte[]>> read(TopicPartition partition, long from, long to, int max) {
            return List.of();
        }

        @Override
        public void close() {
        }
    };

    /**
     * The records at offsets {@code [from, to)} of the partition, in log order, at most {@code max} (the first ones);
     * fewer when the time allowed runs out. Blocks: call it off the stream threads.
     */
    List<ConsumerRecord<byte[], byte[]>> read(TopicPartition partition, long from, long to, int max);

    @Override
    void close();
}
