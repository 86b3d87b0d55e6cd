package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.testing.RetentionWatch;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.LocalKafkaBroker;
import dev.sextant.testkit.LocalMirrorMaker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * An exact offset kept as a floor is still refreshed (issue 48, item 3). A group commits between two of MirrorMaker
 * 2's offset syncs and is written exact (its interval proven by reading the records); then the source's retention
 * deletes the start of the interval and Sextant restarts, which loses the proof (it lives in memory) for good: the
 * refresh of the idle group plans a bounded translation below the exact offset, which the destination keeps
 * ({@code ExactFloor}). The destination's retention is one minute
 * ({@code offsets.retention.minutes=1}, checked every second): over more than one retention and a quarter after the
 * restart the group keeps its exact offset, while a group committed there by hand is deleted (the retention runs).
 *
 * <p>Before, a kept floor wrote nothing yet counted as a refresh (the position's applied time moved), so the
 * destination's commit time stood still: the offset expired, and the vanished-offset rewrite then wrote the bounded
 * translation, moving the group back.
 *
 * <p>Brokers and a MirrorMaker 2 of their own: the retention is a broker setting.
 */
@Tag("soak")
@ExtendWith(LocalClustersExtension.class)
class KeptFloorRefreshIT {

    private static final String TOPIC = "floor-ledger";
    private static final String MIRROR = LocalMirrorMaker.mirroredTopic(TOPIC);
    private static final String GROUP = "floor-idle";
    private static final String APP = "sextant-it-floor";
    private static final int RECORDS = 1_000;
    private static final Duration IDLE = Duration.ofSeconds(75);
    private static final Duration SYNCED = Duration.ofSeconds(90);
    private static final LocalMirrorMaker.Options MIRRORING = LocalMirrorMaker.Options.builder().topics("floor-.*")
            .groups("none").build();

    @Test
    void anExactOffsetKeptAsAFloorAfterARestartIsWrittenAgainBeforeTheRetentionDeletesIt(LocalClusters clusters,
            @TempDir Path dir) throws Exception {
        try (LocalKafkaBroker source = LocalKafkaBroker.builder("floor-source").start();
             LocalKafkaBroker destination = LocalKafkaBroker.builder("floor-destination")
                     .property("offsets.retention.minutes", "1")
                     .property("offsets.retention.check.interval.ms", "1000").start();
             LocalMirrorMaker mirrorMaker = LocalMirrorMaker.start(source.bootstrapServers(),
                     destination.bootstrapServers(), MIRRORING, null);
             Admin target = clusters.admin(destination)) {
            clusters.createTopic(source, TOPIC, 1);
            Clients.produceNumbered(source, TOPIC, 1, RECORDS);
            Await.until(SYNCED, "MirrorMaker 2's sync of the last record", () ->
                    Clients.mirrorMakerSyncs(source, TOPIC, 0).contains(RECORDS - 1L));
            long committed = betweenSyncs(Clients.mirrorMakerSyncs(source, TOPIC, 0));
            Map<Integer, Long> exact = Map.of(0, committed); // a fresh mirror: the same offset on both clusters
            Map<String, Object> overrides = Map.of("source.bootstrap.servers", source.bootstrapServers(),
                    "destination.bootstrap.servers", destination.bootstrapServers(), "groups.include", "floor-.*");
            Path stateDir = dir.resolve("state");
            try (SextantInstance first = SextantInstance.start(clusters, APP, stateDir, overrides)) {
                Clients.commit(source, GROUP, TOPIC, exact);
                Await.until(SYNCED, GROUP + " written exact", () -> RetentionWatch.offsets(target, GROUP)
                        .equals(exact));
            }
            try (Admin admin = clusters.admin(source)) {
                // the source's retention took the start of the interval: the proof cannot be made again
                admin.deleteRecords(Map.of(new TopicPartition(TOPIC, 0), RecordsToDelete.beforeOffset(committed - 2)))
                        .all().get(30, TimeUnit.SECONDS);
            }
            try (SextantInstance restarted = SextantInstance.start(clusters, APP, stateDir, overrides)) {
                RetentionWatch.Result watched = RetentionWatch.sample(target, MIRROR, "floor-control", GROUP, exact,
                        IDLE);
                assertTrue(watched.controlGoneMs() > 0, "the broker's retention deletes a group no one writes again");
                List<String> gaps = watched.gaps();
                assertTrue(gaps.isEmpty(), GROUP + " kept its exact offset " + committed + " past a retention and a "
                        + "quarter after the restart; " + gaps.size() + " samples without it, the first "
                        + (gaps.isEmpty() ? "" : gaps.get(0)));
                System.out.printf("kept floor refreshed: %s held its exact offset %d for %d s after a restart "
                        + "(retention 60 s; the hand-written control group was deleted after %d ms)%n", GROUP,
                        committed, IDLE.toSeconds(), watched.controlGoneMs());
            }
        }
    }

    /** An offset half-way between two of MirrorMaker 2's syncs: exact only once the interval is proven. */
    private static long betweenSyncs(List<Long> syncs) {
        List<Long> sorted = syncs.stream().sorted().toList();
        for (int i = sorted.size() - 1; i > 0; i--) {
            if (sorted.get(i) - sorted.get(i - 1) >= 4) {
                return (sorted.get(i) + sorted.get(i - 1)) / 2;
            }
        }
        throw new AssertionError("no two of MirrorMaker 2's syncs with records between them: " + sorted);
    }
}
