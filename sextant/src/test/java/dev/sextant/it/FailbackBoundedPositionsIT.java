package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.client.SextantClient;
import dev.sextant.client.SextantClientException;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.LocalMirrorMaker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Failback's bounded positions become exact as the forward direction's do (issue 48, item 11). A group on B commits
 * above the newest sync of the forward flow's history as the failback Sextant read it at its start: written to A
 * bounded. The forward flow goes on (its MirrorMaker 2 emits a sync above the commit, its Sextant records it), the
 * failback Sextant reads the history again, and the position is planned again: the interval between the two syncs is
 * proven against the records on both clusters, and A holds the exact offset. Before, the re-plan looked for newer syncs
 * in the failback Sextant's own history, which has none of a mirror of A's topic, and the position stayed bounded.
 */
@ExtendWith(LocalClustersExtension.class)
class FailbackBoundedPositionsIT {

    private static final String ORDERS = "fbb-orders";
    private static final String MIRROR = LocalMirrorMaker.mirroredTopic(ORDERS);
    private static final String GROUP = "fbb-app";
    private static final String FORWARD = "sextant-it-fbb";
    private static final Duration SYNCED = Duration.ofSeconds(60);
    /** The history is read again every 30 s; then the re-plan, the proof and the write. */
    private static final Duration EXACT = Duration.ofSeconds(70);

    @Test
    void aBoundedFailbackPositionBecomesExactOnceTheInvertedHistoryProvesIt(LocalClusters clusters) throws Exception {
        clusters.createTopic(clusters.source(), ORDERS, 1);
        clusters.produceMirroredFromFirstSyncs(ORDERS, 1, 100, SYNCED);
        // the failback Sextant's own offset syncs (of a reverse flow this test does not need) are an input topic
        clusters.createTopic(clusters.destination(), "mm2-offset-syncs.source.internal", 1);

        try (SextantInstance forward = SextantInstance.start(clusters, FORWARD, Map.of("groups.include", "fbb-.*"))) {
            long head = Clients.mirrorMakerSyncs(clusters.source(), ORDERS, 0).stream().mapToLong(Long::longValue)
                    .max().orElseThrow();
            SextantClient forwardApi = SextantClient.create("http://" + forward.app().queryAddress());
            Await.until(SYNCED, "the forward history holds the sync at " + head, () ->
                    exactTranslation(forwardApi, head));

            Path stateDir = Files.createTempDirectory("sextant-it-failback-bounded");
            Map<String, Object> failback = new HashMap<>(Map.of(
                    "source.bootstrap.servers", clusters.destination().bootstrapServers(),
                    "destination.bootstrap.servers", clusters.source().bootstrapServers(),
                    "source.alias", LocalMirrorMaker.DESTINATION_ALIAS,
                    "destination.alias", LocalMirrorMaker.SOURCE_ALIAS,
                    "application.id", FORWARD + "-failback", "groups.include", "fbb-.*",
                    "failback.history.topic", FORWARD + "-offset-sync-history",
                    "state.dir", stateDir.toString(), "query.listen", "127.0.0.1:0"));
            failback.putAll(Map.of("sync.interval.ms", "100", "sync.pending.timeout.ms", "3000",
                    "streams.num.stream.threads", "1"));
            try (SextantInstance home = SextantInstance.start(failback, stateDir)) {
                SextantClient api = SextantClient.create("http://" + home.app().queryAddress());
                // the forward flow goes on after the failback Sextant read its history: records 100..199, mirrored
                Clients.produceNumberedFrom(clusters.source(), ORDERS, 1, 100, 100);
                clusters.awaitMirrored(ORDERS, SYNCED);
                Clients.commit(clusters.destination(), GROUP, MIRROR, Map.of(0, 150L)); // consumed on B

                SextantClient.Partition[] seen = {null};
                Await.until(SYNCED, GROUP + " written to A", () -> applied(api).map(p -> seen[0] = p).isPresent());
                SextantClient.Partition first = seen[0];
                long firstBound = first.bound() == null ? -1 : first.bound();
                assertTrue(firstBound > 0, "above the newest sync the failback Sextant read: bounded, " + seen[0]);
                long boundedAt = System.nanoTime();
                try {
                    Await.until(EXACT, GROUP + "'s failback position exact", () -> applied(api)
                            .map(p -> seen[0] = p).filter(p -> Long.valueOf(0).equals(p.bound())
                            && p.appliedOffset().equals(p.translatedOffset())).isPresent());
                } catch (AssertionError e) {
                    throw new AssertionError(e.getMessage() + "; it stayed " + seen[0] + "; the forward flow's syncs "
                            + "of " + ORDERS + "-0: " + Clients.mirrorMakerSyncs(clusters.source(), ORDERS, 0), e);
                }
                long exactAfterMs = (System.nanoTime() - boundedAt) / 1_000_000;
                assertEquals(150L, seen[0].appliedOffset(), "exact: record 150 of " + ORDERS);
                Map<Integer, OffsetAndMetadata> onA = Clients.committed(clusters, clusters.source(), GROUP, ORDERS);
                assertEquals(150L, onA.get(0).offset(), "A holds the exact offset: " + onA);
                System.out.printf("failback: %s at 150 on %s written to A at %d, bounded (bound %d), exact at 150 "
                        + "%d ms later%n", GROUP, MIRROR, first.appliedOffset(), firstBound, exactAfterMs);
            }
        }
    }

    private static boolean exactTranslation(SextantClient api, long offset) {
        try {
            return api.translate(ORDERS, 0, offset).bound() == 0;
        } catch (SextantClientException e) {
            return false;
        }
    }

    /** The group's position on the mirror, once applied. */
    private static Optional<SextantClient.Partition> applied(SextantClient api) {
        try {
            List<SextantClient.Partition> partitions = api.group(GROUP).partitions();
            return partitions.stream().filter(p -> MIRROR.equals(p.topic()) && "APPLIED".equals(p.status())
                    && p.sourceOffset() == 150).findFirst();
        } catch (SextantClientException e) {
            return Optional.empty();
        }
    }
}
