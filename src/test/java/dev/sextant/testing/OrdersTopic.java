package dev.sextant.testing;

import dev.sextant.local.LocalClusters;
import java.time.Duration;

/**
 * The {@code orders} topic every integration test of a run shares: 3 partitions of 3,400 numbered records each
 * (record {@code i} of a partition has value {@code i} and sits at offset {@code i}), mirrored by MirrorMaker 2 to
 * {@code source.orders}. Created once per run, whichever test asks first.
 */
public final class OrdersTopic {

    public static final String NAME = "orders";
    public static final int PARTITIONS = 3;
    public static final int PER_PARTITION = 3_400;

    private static boolean created;

    private OrdersTopic() {
    }

    public static synchronized void ensure(LocalClusters clusters) {
        if (created) {
            return;
        }
        clusters.createTopic(clusters.source(), NAME, PARTITIONS);
        // paced so MirrorMaker 2 keeps up and emits a sync every offset.lag.max records
        Clients.produceNumbered(clusters.source(), NAME, PARTITIONS, PER_PARTITION, 3_000);
        clusters.awaitMirrored(NAME, Duration.ofSeconds(60));
        created = true;
    }
}
