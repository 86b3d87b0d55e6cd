package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.Reason;
import dev.sextant.testing.DeadLetters;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code sync.foreign.offsets=adopt-forward} (the failback default) takes a group over whole or not at all (issue 48,
 * item 8): a group partly taken over on the target (a consumer there committed one partition with {@code assign()},
 * so the group never shows members) is not written on its other partitions, however far forward the translation is;
 * it is refused {@code DESTINATION_DIVERGED}. Before, each partition was judged alone, and the source's commit of the
 * other partition was written beside the consumer's own offset.
 */
@ExtendWith(LocalClustersExtension.class)
class AdoptForwardWholeGroupIT {

    private static final String TOPIC = "whole-ledger";
    private static final String MIRRORED = "source." + TOPIC;
    private static final String GROUP = "whole-partly";
    private static final Duration SYNCED = Duration.ofSeconds(60);

    @Test
    void aGroupPartlyTakenOverOnTheTargetIsNotWrittenOnItsOtherPartitions(LocalClusters clusters) throws Exception {
        clusters.createTopic(clusters.source(), TOPIC, 2);
        Clients.produceNumbered(clusters.source(), TOPIC, 2, 1_000);
        clusters.awaitMirrored(TOPIC, SYNCED);
        long above = 1;
        for (int partition : List.of(0, 1)) {
            int p = partition;
            above = Math.max(above, Await.value(SYNCED, "a MirrorMaker 2 sync of " + TOPIC + "-" + p,
                    () -> Clients.mirrorMakerSyncs(clusters.source(), TOPIC, p).stream().min(Long::compare)
                            .orElse(null)) + 1);
        }
        long commit = Math.max(400, above);
        // a consumer that failed over commits partition 0 on the target with assign(): never a member
        try (Admin destination = clusters.admin(clusters.destination())) {
            destination.alterConsumerGroupOffsets(GROUP, Map.of(new TopicPartition(MIRRORED, 0),
                    new OffsetAndMetadata(10))).all().get(30, TimeUnit.SECONDS);
        }
        try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-whole", Map.of(
                "groups.include", "whole-.*", "sync.foreign.offsets", "adopt-forward"))) {
            // the source's group commits partition 1 only: its translation is far above anything on the target
            Clients.commit(clusters.source(), GROUP, TOPIC, Map.of(1, commit));
            DeadLetterRecord refused = DeadLetters.await(clusters, GROUP, Reason.DESTINATION_DIVERGED, SYNCED);
            assertTrue(refused.detail().contains(MIRRORED + "-0=10"), refused.detail());
            Map<Integer, OffsetAndMetadata> there = Clients.committed(clusters, clusters.destination(), GROUP,
                    MIRRORED);
            assertNull(there.get(1), "not written beside the consumer's own offset: " + there);
            assertEquals(10L, there.get(0).offset(), "the consumer's offset left as it is");
            System.out.printf("adopt-forward, a group partly taken over on the target: refused %s, partition 1 "
                    + "(source commit %d) not written%n", refused.reason(), commit);
        }
    }
}
