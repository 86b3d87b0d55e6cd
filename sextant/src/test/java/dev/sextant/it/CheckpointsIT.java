package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.mirror.RemoteClusterUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * With MirrorMaker 2's checkpoints off (the shared clusters' MirrorMaker 2 emits none) and
 * {@code emit.checkpoints.enabled=true}, {@code RemoteClusterUtils.translateOffsets} on the destination, MirrorMaker
 * 2's own client, returns for a group exactly the offsets Sextant applied.
 */
@ExtendWith(LocalClustersExtension.class)
class CheckpointsIT {

    private static final String TOPIC = "checkpointed-orders";

    @Test
    void remoteClusterUtilsReadsTheOffsetsSextantApplied(LocalClusters clusters) throws Exception {
        clusters.createTopic(clusters.source(), TOPIC, 2);
        Clients.produceNumbered(clusters.source(), TOPIC, 2, 1_000);
        clusters.awaitMirrored(TOPIC, Duration.ofSeconds(60));
        String mirrored = "source." + TOPIC;
        try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-checkpoints", Map.of(
                "groups.include", "checkpointed-.*", "emit.checkpoints.enabled", "true"))) {
            // an offset below a partition's oldest MirrorMaker 2 sync has no translation (under load MirrorMaker 2
            // can coalesce the first syncs): commit at 437 and 911, or just past the oldest sync if that is higher
            Map<Integer, Long> commit = new HashMap<>();
            for (int partition : List.of(0, 1)) {
                long oldest = Await.value(Duration.ofSeconds(60), "a MirrorMaker 2 sync of " + TOPIC + "-" + partition,
                        () -> Clients.mirrorMakerSyncs(clusters.source(), TOPIC, partition).stream()
                                .min(Long::compare).orElse(null));
                commit.put(partition, Math.max(partition == 0 ? 437L : 911L, oldest + 1));
            }
            Clients.commit(clusters.source(), "checkpointed-billing", TOPIC, commit);
            Map<String, Object> client = new HashMap<>(clusters.destination().clientProperties());
            // what the destination holds now: a position written bounded is written again exact once the records
            // prove its interval, and the checkpoint follows it
            Map<Integer, Long> applied = new HashMap<>();
            Map<Integer, Long> translated = Await.value(Duration.ofSeconds(60), "checkpoints for both partitions",
                    () -> {
                        try {
                            Map<Integer, OffsetAndMetadata> there = Clients.committed(clusters,
                                    clusters.destination(), "checkpointed-billing", mirrored);
                            applied.clear();
                            there.forEach((p, om) -> applied.put(p, om.offset()));
                            Map<TopicPartition, OffsetAndMetadata> t = RemoteClusterUtils.translateOffsets(client,
                                    "source", "checkpointed-billing", Duration.ofSeconds(10));
                            Map<Integer, Long> out = new HashMap<>();
                            t.forEach((tp, om) -> {
                                assertEquals(mirrored, tp.topic(), "destination topic names, as MirrorMaker 2's");
                                out.put(tp.partition(), om.offset());
                            });
                            return applied.size() == 2 && out.equals(applied) ? out : null;
                        } catch (Exception e) {
                            throw new IllegalStateException("translateOffsets", e);
                        }
                    });
            assertEquals(applied, translated);
            System.out.printf("checkpoints: RemoteClusterUtils.translateOffsets = %s, the offsets Sextant applied%n",
                    translated);
        }
    }
}
