package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedSet;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code translation=identity} with {@code replication.policy=identity}: an offset-preserving mirror (Cluster
 * Linking, Kafka's Cluster Mirroring) keeps topic names and offsets, so the destination committed offset is the source
 * one. The "mirror" here is the same records produced to a same-named topic on both clusters.
 */
@ExtendWith(LocalClustersExtension.class)
class IdentitySyncIT {

    /**
     * Under either processing guarantee: {@code exactly_once_v2} makes Kafka Streams' own writes transactional (the
     * destination writes are Admin calls either way; see docs/reliability.md).
     */
    @ParameterizedTest
    @ValueSource(strings = {"at_least_once", "exactly_once_v2"})
    void destinationCommittedEqualsSourceCommitted(String guarantee, LocalClusters clusters) {
        String topic = "ledger-" + guarantee.replace('_', '-');
        String app = "sextant-it-identity-" + guarantee.replace('_', '-');
        String reader = topic + "-reader";
        String shipping = topic + "-shipping";
        clusters.createTopic(clusters.source(), topic, 2);
        clusters.createTopic(clusters.destination(), topic, 2);
        Clients.produceNumbered(clusters.source(), topic, 2, 500);
        Clients.produceNumbered(clusters.destination(), topic, 2, 500);

        try (SextantInstance sextant = SextantInstance.start(clusters, app, Map.of(
                "translation", "identity", "replication.policy", "identity", "groups.include", "ledger-.*",
                "streams.processing.guarantee", guarantee))) {
            Map<Integer, Long> committed = Map.of(0, 123L, 1, 321L);
            Clients.commit(clusters.source(), reader, topic, committed);

            Map<Integer, OffsetAndMetadata> synced = Await.value(Duration.ofSeconds(60), reader + " synced", () -> {
                Map<Integer, OffsetAndMetadata> offsets = Clients.committed(clusters, clusters.destination(),
                        reader, topic);
                return offsets.size() == 2 ? offsets : null;
            });
            committed.forEach((p, o) -> assertEquals(o, synced.get(p).offset(), "partition " + p));
            assertTrue(synced.get(0).metadata().startsWith("sextant/" + app));

            // a share group: destination start offset == the effective source start offset
            Clients.shareFromEarliest(clusters, clusters.source(), shipping);
            Map<Integer, SortedSet<Long>> acked = Clients.consumeShare(clusters.source(), shipping,
                    topic, 300);
            Map<Integer, Long> effective = new HashMap<>();
            acked.forEach((p, offsets) -> effective.put(p, Clients.contiguousPrefix(offsets)));
            Map<Integer, Long> lastSeen = new HashMap<>();
            Await.until(Duration.ofSeconds(90), shipping + " synced " + effective + ", seen " + lastSeen, () -> {
                lastSeen.clear();
                lastSeen.putAll(Clients.shareStartOffsets(clusters, clusters.destination(), shipping, topic));
                return effective.entrySet().stream().allMatch(e -> e.getValue().equals(lastSeen.get(e.getKey())));
            });
        }
    }

    /**
     * An offset-preserving mirror that lags: a commit beyond the mirror's log end is written at the end, never
     * beyond it (after a promotion producers append there, and a consumer committed beyond would skip those
     * records), and follows the end up as the mirror catches up.
     */
    @Test
    void aCommitBeyondALaggingMirrorsEndIsWrittenAtTheEndThenFollowsIt(LocalClusters clusters) {
        String topic = "ledger-lagging";
        clusters.createTopic(clusters.source(), topic, 1);
        clusters.createTopic(clusters.destination(), topic, 1);
        Clients.produceNumbered(clusters.source(), topic, 1, 500);
        Clients.produceNumbered(clusters.destination(), topic, 1, 250); // the mirror is 250 records behind
        try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-identity-lagging", Map.of(
                "translation", "identity", "replication.policy", "identity", "groups.include", "ledger-lagging-.*"))) {
            String group = "ledger-lagging-reader";
            Clients.commit(clusters.source(), group, topic, Map.of(0, 400L));
            long clamped = Await.value(Duration.ofSeconds(60), group + " written", () -> {
                OffsetAndMetadata om = Clients.committed(clusters, clusters.destination(), group, topic).get(0);
                return om == null ? null : om.offset();
            });
            assertEquals(250L, clamped, "at the mirror's end, not beyond it");

            Clients.produceNumberedFrom(clusters.destination(), topic, 1, 250, 250); // the mirror catches up
            long followed = Await.value(Duration.ofSeconds(60), group + " at its commit once mirrored", () -> {
                OffsetAndMetadata om = Clients.committed(clusters, clusters.destination(), group, topic).get(0);
                return om != null && om.offset() == 400 ? om.offset() : null;
            });
            System.out.printf("lagging mirror: commit 400 written at the mirror's end %d, then %d once mirrored%n",
                    clamped, followed);
        }
    }
}
