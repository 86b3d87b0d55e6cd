package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.client.SextantClient;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import io.micrometer.core.instrument.Counter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Pruning of the offset-sync history against a real source: a sync is dropped only when nothing can need it any more,
 * that is below the newest sync at or below the lower of the partition's log start and the lowest offset any synced
 * group committed there. The groups are read a page at a time (more groups here than one page holds), each for its
 * own offsets, so the round's cost follows what the groups committed, not groups times partitions.
 */
@ExtendWith(LocalClustersExtension.class)
class HistoryPruningIT {

    private static final String TOPIC = "prune-ledger";
    private static final Duration SYNCED = Duration.ofSeconds(60);
    /** More than one page of {@code AdminSourceOffsets.GROUP_PAGE} (500). */
    private static final int GROUPS = 600;

    @Test
    void syncsBelowTheLogStartAndTheSlowestGroupArePrunedAndTheSlowestStillTranslates(LocalClusters clusters)
            throws Exception {
        clusters.createTopic(clusters.source(), TOPIC, 1);
        Clients.produceNumbered(clusters.source(), TOPIC, 1, 1_000);
        clusters.awaitMirrored(TOPIC, SYNCED);
        List<Long> syncs = Await.value(SYNCED, "MirrorMaker 2 syncs up to the end of " + TOPIC, () -> {
            List<Long> upstream = Clients.mirrorMakerSyncs(clusters.source(), TOPIC, 0);
            return upstream.stream().anyMatch(u -> u >= 900) ? upstream : null;
        });
        TopicPartition tp = new TopicPartition(TOPIC, 0);
        try (Admin source = clusters.admin(clusters.source())) {
            // many fast groups, one page after another; the slowest sits in the last page
            List<KafkaFuture<Void>> commits = new ArrayList<>();
            for (int i = 0; i < GROUPS; i++) {
                commits.add(source.alterConsumerGroupOffsets("prune-g-" + i, Map.of(tp, new OffsetAndMetadata(950)))
                        .all());
            }
            commits.add(source.alterConsumerGroupOffsets("prune-slowest", Map.of(tp, new OffsetAndMetadata(550)))
                    .all());
            KafkaFuture.allOf(commits.toArray(KafkaFuture[]::new)).get(60, TimeUnit.SECONDS);
            // records before 500 deleted: the log start moves past them, the slowest group is still above it
            source.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(500))).all().get(30, TimeUnit.SECONDS);
        }
        long floor = 500;
        long kept = syncs.stream().filter(u -> u <= floor).max(Long::compare).orElseThrow();
        long prunable = syncs.stream().distinct().filter(u -> u < kept).count();

        Map<String, Object> overrides = new HashMap<>();
        overrides.put("groups.include", "prune-.*");
        overrides.put("offset.syncs.prune.interval.ms", 2_000);
        try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-prune", overrides)) {
            SextantClient client = SextantClient.builder("http://" + sextant.app().queryAddress())
                    .deadline(Duration.ofSeconds(10)).build();
            SextantClient.Translation before = Await.value(SYNCED, "a translation of 550",
                    () -> translation(client, 550));
            long started = System.nanoTime();
            Await.until(SYNCED, prunable + " syncs of " + TOPIC + " pruned",
                    () -> count(sextant, "sextant.history.pruned") >= prunable);
            double seconds = (System.nanoTime() - started) / 1e9;
            // the slowest group still translates: the same, or closer once the interval around it is proven (the
            // history kept the syncs on both sides of it), never past the record it committed
            SextantClient.Translation after = translation(client, 550);
            assertTrue(after.destinationOffset() >= before.destinationOffset()
                    && after.destinationOffset() <= before.destinationOffset() + before.bound()
                    && after.bound() <= before.bound(), "550 translated to " + before + ", then " + after);
            assertTrue(translation(client, kept) != null, "the sync that translates the floor is kept");
            System.out.printf("history pruning: %d of %d syncs of %s, those below %d (the newest at or below the "
                    + "floor: log start 500, slowest of %d groups at 550), pruned within %.1f s; 550 still translates "
                    + "to %d (bound %d)%n", prunable, syncs.size(), TOPIC, kept, GROUPS + 1, seconds,
                    before.destinationOffset(), before.bound());
        }
    }

    /** Sextant's translation of a source offset, or null when it has none. */
    private static SextantClient.Translation translation(SextantClient client, long offset) {
        try {
            return client.translate(TOPIC, 0, offset);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static double count(SextantInstance sextant, String name) {
        Counter counter = sextant.registry().find(name).counter();
        return counter == null ? 0 : counter.count();
    }
}
