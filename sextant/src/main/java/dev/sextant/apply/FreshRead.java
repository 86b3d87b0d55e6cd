package dev.sextant.apply;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Keeps the time between the read a consumer-group write was planned on and the write itself short. A write is planned
 * from a read of every partition of the group (a destination group is owned as a whole), then may wait in the
 * dispatcher's queue while the destination absorbs earlier writes, up to its {@link WriteLease}. A consumer that
 * commits on the destination meanwhile (one that failed over, or uses {@code assign()} and never makes the group
 * active) would be overwritten. So a write that waited longer than {@link #RECHECK_AFTER_MS} reads the group again in
 * its own turn, on the writer that then sends it, and is sent only if nothing changed; otherwise it fails with
 * {@link DestinationChangedException} and is planned again from a new read.
 *
 * <p>Cost: one more request per group, only for writes that waited, that is only while the destination lags. The
 * window left is the time of one read plus the write's own round trip, or {@link #RECHECK_AFTER_MS} for a write that
 * did not wait.
 */
final class FreshRead {

    /** A write that waited longer than this since its read reads again before it is sent. */
    static final long RECHECK_AFTER_MS = 500;

    private FreshRead() {
    }

    /**
     * @param waitedMs   how long the write waited since the read it was planned on
     * @param group      the group written
     * @param readBefore every committed offset of the group in that read (partitions without one absent); null when
     *                   the caller has none, and then nothing is read again
     * @param reRead     reads the group's committed offsets again, partitions without one absent
     * @param send       sends the write
     */
    static <T> CompletableFuture<T> send(long waitedMs, String group, Map<TopicPartition, OffsetAndMetadata> readBefore,
                                         Supplier<CompletableFuture<Map<TopicPartition, OffsetAndMetadata>>> reRead,
                                         Supplier<CompletableFuture<T>> send) {
        if (readBefore == null || waitedMs < RECHECK_AFTER_MS) {
            return send.get();
        }
        return reRead.get().thenCompose(now -> now.equals(readBefore) ? send.get()
                : CompletableFuture.failedFuture(new DestinationChangedException(group)));
    }
}
