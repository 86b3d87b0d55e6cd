package dev.sextant.source;

import org.apache.kafka.common.TopicPartition;

/** Reads stretches of partitions of one cluster, in log order ({@link KafkaRecordRanges}, or a fake in tests). */
public interface RecordRanges extends AutoCloseable {

    /**
     * The records at offsets {@code [from, to)} of the partition, at most {@code max} (the first ones), and how far
     * the read got. Blocks: call it off the stream threads.
     */
    RecordRange read(TopicPartition partition, long from, long to, int max);

    /**
     * Ends the read in progress, or the next one if none is: it throws
     * {@link org.apache.kafka.common.errors.WakeupException}. The one method another thread may call, so a stop need
     * not wait out a read; the reader is then closed on the thread that reads.
     */
    default void wakeup() {
    }

    /** On the thread that reads, or once no read can run any more: a Kafka consumer allows no other thread in. */
    @Override
    void close();
}
