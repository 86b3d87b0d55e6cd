package dev.sextant.source;

import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Records read from a stretch of one partition, in log order, and how far the read got.
 *
 * @param records what was read, at offsets below the stretch's end
 * @param reached the reader's position when it stopped: every offset below it (and at or above the start) was read,
 *                so a record missing below it is not in the log (a transaction marker, a compacted gap)
 */
public record RecordRange(List<ConsumerRecord<byte[], byte[]>> records, long reached) {

    /** True when the read covered every offset below {@code to}. */
    public boolean covers(long to) {
        return reached >= to;
    }
}
