package dev.sextant.source;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/** Reads stretches of partitions of one cluster, in log order ({@link KafkaRecordRanges}, or a fake in tests). */
public interface RecordRanges extends AutoCloseable {

    /**
     * The records at offsets {@code [from, to)} of the partition, at most {@code max} (the first ones), and how far
     * the read got. Blocks: call it off the stream threads.
     */
    RecordRange read(TopicPartition partition, long from, long to, int max);

    /** Offsets {@code [from, to)} of a partition, at most {@code max} records of them. */
    record Stretch(long from, long to, int max) {
    }

    /**
     * A stretch of each partition, read together: as {@link #read} for each, but a reader may fetch them all at
     * once (one request per broker for many partitions, where one read per stretch costs a round trip each).
     * Answers a range for every partition asked.
     */
    default Map<TopicPartition, RecordRange> readAll(Map<TopicPartition, Stretch> stretches) {
        Map<TopicPartition, RecordRange> out = new HashMap<>();
        stretches.forEach((tp, s) -> out.put(tp, read(tp, s.from(), s.to(), s.max())));
        return out;
    }

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
