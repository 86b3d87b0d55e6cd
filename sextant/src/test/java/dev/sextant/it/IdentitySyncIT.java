package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code translation=identity} with {@code replication.policy=identity}: an offset-preserving mirror (Cluster
 * Linking, Kafka's Cluster Mirroring) keeps topic names and offsets, so the destination committed offset is the source
 * one. The "mirror" here is the same records produced to a same-named topic on both clusters.
 */
@ExtendWith(LocalClustersExtension.class)
class IdentitySyncIT {

    @Test
    void destinationCommittedEqualsSourceCommitted(LocalClusters clusters) {
        clusters.createTopic(clusters.source(), "ledger", 2);
        clusters.createTopic(clusters.destination(), "ledger", 2);
        Clients.produceNumbered(clusters.source(), "ledger", 2, 500);
        Clients.produceNumbered(clusters.destination(), "ledger", 2, 500);

        try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-identity", Map.of(
                "translation", "identity", "replication.policy", "identity", "groups.include", "ledger-.*"))) {
            Map<Integer, Long> committed = Map.of(0, 123L, 1, 321L);
            Clients.commit(clusters.source(), "ledger-reader", "ledger", committed);

            Map<Integer, OffsetAndMetadata> synced = Await.value(Duration.ofSeconds(30), "ledger-reader synced", () -> {
                Map<Integer, OffsetAndMetadata> offsets = Clients.committed(clusters, clusters.destination(),
                        "ledger-reader", "ledger");
                return offsets.size() == 2 ? offsets : null;
            });
            committed.forEach((p, o) -> assertEquals(o, synced.get(p).offset(), "partition " + p));
            assertTrue(synced.get(0).metadata().startsWith("sextant/sextant-it-identity"));

            // a share group: destination start offset == the effective source start offset
            Clients.shareFromEarliest(clusters, clusters.source(), "ledger-shipping");
            Map<Integer, java.util.SortedSet<Long>> acked = Clients.consumeShare(clusters.source(), "ledger-shipping",
                    "ledger", 300);
            Map<Integer, Long> effective = new java.util.HashMap<>();
            acked.forEach((p, offsets) -> effective.put(p, Clients.contiguousPrefix(offsets)));
            Map<Integer, Long> lastSeen = new java.util.HashMap<>();
            Await.until(Duration.ofSeconds(45), "ledger-shipping synced " + effective + ", seen " + lastSeen, () -> {
                lastSeen.clear();
                lastSeen.putAll(Clients.shareStartOffsets(clusters, clusters.destination(), "ledger-shipping", "ledger"));
                return effective.entrySet().stream().allMatch(e -> e.getValue().equals(lastSeen.get(e.getKey())));
            });
        }
    }
}
