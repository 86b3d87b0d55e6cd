package dev.sextant.testkit;

import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * The {@code orders} topic every integration test of a run shares: 3 partitions of 3,400 numbered records each
 * (record {@code i} of a partition has value {@code i} and sits at offset {@code i}), mirrored by MirrorMaker 2 to
 * {@code source.orders}. Created once per {@link LocalClusters}, whichever test asks first.
 */
public final class OrdersTopic {

    public static final String NAME = "orders";
    public static final int PARTITIONS = 3;
    public static final int PER_PARTITION = 3_400;

    /** The clusters that have it (by identity: a test JVM may start clusters of its own beside the shared ones). */
    private static final Set<LocalClusters> CREATED = Collections.newSetFromMap(new IdentityHashMap<>());

    private OrdersTopic() {
    }

    public static synchronized void ensure(LocalClusters clusters) {
        if (CREATED.contains(clusters)) {
            return;
        }
        clusters.createTopic(clusters.source(), NAME, PARTITIONS);
        // In chunks, each once MirrorMaker 2 has synced the previous one: with more than 10 syncs in flight it
        // coalesces them, and on a busy machine the spacing of its syncs would widen past offset.lag.max.
        int chunk = 200;
        for (int produced = 0; produced < PER_PARTITION; produced += chunk) {
            Clients.produceNumberedFrom(clusters.source(), NAME, PARTITIONS, produced,
                    Math.min(chunk, PER_PARTITION - produced));
            long end = produced + Math.min(chunk, PER_PARTITION - produced);
            Await.until(Duration.ofSeconds(60), "MirrorMaker 2 synced " + NAME + " up to " + end, () -> {
                for (int p = 0; p < PARTITIONS; p++) {
                    long newest = Clients.mirrorMakerSyncs(clusters.source(), NAME, p).stream()
                            .mapToLong(Long::longValue).max().orElse(-1);
                    if (newest < end - 102) {
                        return false;
                    }
                }
                return true;
            });
        }
        clusters.awaitMirrored(NAME, Duration.ofSeconds(60));
        CREATED.add(clusters);
    }
}
