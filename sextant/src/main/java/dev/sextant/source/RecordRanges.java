package dev.sextant.source;

import org.apache.kafka.common.TopicPartition;

/** Reads stretches of partitions of one cluster, in log order ({@link KafkaRecordRanges}, or a fake in tests). */
public interface RecordRanges extends AutoCloseable {

    /**
     * The records at offsets {@code [from, to)} of the partition, at most {@code max} (the first ones), and how far
     * the read got. Blocks: call it off the stream threads.
     */
    RecordRange read(TopicPartition partition, long from, long to, int max);

    @Override
    void close();
}
