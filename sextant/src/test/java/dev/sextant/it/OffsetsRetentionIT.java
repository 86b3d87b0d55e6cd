package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.client.SextantClient;
import dev.sextant.testing.Cli;
import dev.sextant.testing.RetentionWatch;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.LocalKafkaBroker;
import dev.sextant.testkit.LocalMirrorMaker;
import io.micrometer.core.instrument.Counter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Destination offsets do not expire, whatever deletes them, for every kind of group Sextant keeps (issue 36, item 4;
 * issue 48, items 1 and 3). A destination broker is restarted, while Sextant runs, with its retention lowered to one
 * minute ({@code offsets.retention.minutes=1}, checked every second); from then on, in one window of more than two
 * retentions, and each against a group committed there by hand that the broker deletes (the retention does run):
 * <ul>
 *   <li>an idle group Sextant synced keeps every partition's offset (Sextant learnt 7 days at its start);</li>
 *   <li>a group cut over before the restart keeps every offset, and {@code failover} reports it cut over and clean
 *       (before, the sync dropped every re-plan of a cut-over group, so its offsets expired while {@code failover}
 *       said clean);</li>
 *   <li>an exact offset kept as a floor after a restart of Sextant keeps its offset: a group committed between two of
 *       MirrorMaker 2's offset syncs is written exact (its interval proven by reading the records), the source's
 *       retention then deletes the start of the interval and Sextant restarts, which loses the proof for good, so the
 *       refresh plans a bounded translation below the exact offset, which the destination keeps
 *       ({@code ExactFloor}). Before, a kept floor wrote nothing yet counted as a refresh, so the destination's commit
 *       time stood still, the offset expired, and the vanished-offset rewrite then moved the group back;</li>
 *   <li>a consumer joins a synced group on the destination and leaves: the broker deletes all of an Empty group's
 *       offsets a retention after its last member left, however recently they were written, and Sextant writes them
 *       again within seconds of seeing the group gone.</li>
 * </ul>
 *
 * <p>The four share one pair of brokers and one window because each must outlast the retention: apart they took
 * about eight minutes of CI. Brokers of their own (the retention is a broker setting), and MirrorMaker 2 for the
 * floor's records and offset syncs. The first
 * two and the last with identity translation (expiry is the destination's doing, whatever mirrors the records), the
 * floor through MirrorMaker 2's offset syncs, each from an instance of its own.
 */
@Tag("soak")
@ExtendWith(LocalClustersExtension.class)
class OffsetsRetentionIT {

    private static final String TOPIC = "retention-ledger";
    private static final String IDLE_GROUP = "retention-idle";
    private static final String HELD_GROUP = "retention-held";
    private static final String JOINED_GROUP = "retention-joined";
    private static final String APP = "sextant-it-retention";
    private static final int PARTITIONS = 3;
    private static final Map<Integer, Long> COMMITTED = Map.of(0, 50L, 1, 60L, 2, 70L);
    private static final Duration RETENTION = Duration.ofMinutes(1);
    /** More than two retentions: a refresh that ran once by luck does not pass. */
    private static final Duration IDLE = Duration.ofSeconds(130);
    /** From the offsets gone to written again, at most: the view lists the groups every refresh (500 ms here). */
    private static final Duration BACK_WITHIN = Duration.ofSeconds(10);

    private static final String FLOOR_TOPIC = "floor-ledger";
    private static final String FLOOR_MIRROR = LocalMirrorMaker.mirroredTopic(FLOOR_TOPIC);
    private static final String FLOOR_GROUP = "floor-idle";
    private static final String FLOOR_APP = "sextant-it-floor";
    private static final int FLOOR_RECORDS = 1_000;
    /** From the restart of the floor's instance: more than a retention and a quarter. */
    private static final Duration FLOOR_IDLE = Duration.ofSeconds(75);
    private static final Duration SYNCED = Duration.ofSeconds(90);
    private static final LocalMirrorMaker.Options MIRRORING = LocalMirrorMaker.Options.builder().topics("floor-.*")
            .groups("none").build();
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void syncedCutOverAndFloorOffsetsOutliveALoweredRetention(LocalClusters clusters, @TempDir Path dir)
            throws Exception {
        try (LocalKafkaBroker source = LocalKafkaBroker.builder("retention-source").start();
             LocalKafkaBroker destination = LocalKafkaBroker.builder("retention-destination")
                     .property("offsets.retention.check.interval.ms", "1000").start()) {
            clusters.createTopic(source, TOPIC, PARTITIONS);
            clusters.createTopic(destination, TOPIC, PARTITIONS);
            Clients.produceNumbered(source, TOPIC, PARTITIONS, 100);
            Clients.produceNumbered(destination, TOPIC, PARTITIONS, 100);
            Map<String, Object> identity = Map.of("source.bootstrap.servers", source.bootstrapServers(),
                    "destination.bootstrap.servers", destination.bootstrapServers(),
                    "translation", "identity", "replication.policy", "identity", "groups.include", "retention-.*");
            try (SextantInstance sextant = SextantInstance.start(clusters, APP, identity);
                 Admin target = clusters.admin(destination)) {
                for (String group : List.of(IDLE_GROUP, HELD_GROUP, JOINED_GROUP)) {
                    Clients.commit(source, group, TOPIC, COMMITTED);
                }
                Await.until(Duration.ofSeconds(60), "every group synced", () -> List.of(IDLE_GROUP, HELD_GROUP,
                        JOINED_GROUP).stream().allMatch(g -> RetentionWatch.offsets(target, g).equals(COMMITTED)));
                String url = "http://" + sextant.app().queryAddress();
                Path config = dir.resolve("sextant.properties");
                Files.writeString(config, String.join("\n", "source.bootstrap.servers=" + source.bootstrapServers(),
                        "destination.bootstrap.servers=" + destination.bootstrapServers(), "application.id=" + APP,
                        "translation=identity", "replication.policy=identity", "groups.include=retention-.*", ""));
                Cli.Run cut = Cli.run("cutover", "-c", config.toString(), "--url", url, "--group", HELD_GROUP,
                        "--fence-check", "2s", "--apply", "-o", "json");
                assertEquals(0, cut.exit(), "cut over: " + cut);
                SextantClient client = SextantClient.create(url);
                assertTrue(client.group(HELD_GROUP).cutOver() != null, "the instance holds the cutover");

                Supplier<Double> refreshed = () -> {
                    Counter counter = sextant.registry().find("sextant.offsets.refreshed").counter();
                    return counter == null ? 0 : counter.count();
                };
                double refreshedBefore = refreshed.get();
                // the operator lowers the retention in a rolling restart; Sextant learnt 7 days at its start
                destination.restart(Map.of("offsets.retention.minutes", Long.toString(RETENTION.toMinutes())));
                CompletableFuture<RetentionWatch.Result> kept = CompletableFuture.supplyAsync(() -> sample(
                        clusters, destination, "retention-control", TOPIC,
                        Map.of(IDLE_GROUP, COMMITTED, HELD_GROUP, COMMITTED), IDLE));
                CompletableFuture<long[]> rewritten = CompletableFuture.supplyAsync(() -> joinAndLeave(clusters,
                        destination, () -> refreshed.get() > refreshedBefore));
                keptAsAFloorAfterARestart(clusters, source, destination, dir.resolve("floor-state"));

                RetentionWatch.Result watched = kept.get(IDLE.plusSeconds(60).toSeconds(), TimeUnit.SECONDS);
                assertTrue(watched.controlGoneMs() > 0, "the broker's retention deletes a group no one writes again");
                assertEquals(List.of(), watched.gaps(IDLE_GROUP), IDLE_GROUP
                        + " kept every offset after the retention was lowered");
                List<String> heldGaps = watched.gaps(HELD_GROUP);
                assertTrue(heldGaps.isEmpty(), HELD_GROUP + " kept every offset, cut over, past two retentions; "
                        + heldGaps.size() + " samples without, the first "
                        + (heldGaps.isEmpty() ? "" : heldGaps.get(0)));
                System.out.printf("offsets retention lowered to %d s in a restart: the hand-written group was deleted "
                        + "after %d ms; %s (synced) and %s (cut over) kept their %d offsets for %d s%n",
                        RETENTION.toSeconds(), watched.controlGoneMs(), IDLE_GROUP, HELD_GROUP, PARTITIONS,
                        IDLE.toSeconds());
                assertEquals("CUT_OVER", client.groups().stream().filter(g -> g.group().equals(HELD_GROUP))
                        .findFirst().orElseThrow().state(), "and still shows cut over");
                Cli.Run failover = Cli.run("failover", "-c", config.toString(), "--group", HELD_GROUP, "--url", url,
                        "--json");
                assertEquals(0, failover.exit(), failover.out() + failover.err());
                JsonNode result = JSON.readTree(failover.out()).path("results").get(0);
                assertEquals("CUT_OVER", result.path("result").asText(), failover.out());

                long[] goneAndBack = rewritten.get(RETENTION.plusSeconds(120).toSeconds(), TimeUnit.SECONDS);
                long goneAt = goneAndBack[0];
                long backAt = goneAndBack[1];
                assertTrue(goneAt >= 0, "the broker deleted the Empty group's offsets a retention after its member "
                        + "left");
                assertTrue(backAt >= 0, "written again after they were deleted");
                System.out.printf("a destination consumer joined %s and left: the broker deleted the group's offsets "
                        + "%d ms later; Sextant wrote them again %d ms after that%n", JOINED_GROUP, goneAt,
                        backAt - goneAt);
                assertTrue(backAt - goneAt <= BACK_WITHIN.toMillis(), "written again within "
                        + BACK_WITHIN.toSeconds() + " s of being deleted, not at the next refresh: " + (backAt - goneAt)
                        + " ms");
                Counter vanished = sextant.registry().find("sextant.offsets.vanished").counter();
                assertTrue(vanished != null && vanished.count() >= PARTITIONS, "counted as vanished");
            }
        }
    }

    /**
     * The floor: written exact by a first instance, the proof taken by the source's retention, then a second instance
     * on the same state, sampled while it refreshes the offset it keeps.
     */
    private static void keptAsAFloorAfterARestart(LocalClusters clusters, LocalKafkaBroker source,
            LocalKafkaBroker destination, Path stateDir) throws Exception {
        clusters.createTopic(source, FLOOR_TOPIC, 1);
        Clients.produceNumbered(source, FLOOR_TOPIC, 1, FLOOR_RECORDS);
        try (LocalMirrorMaker mirrorMaker = LocalMirrorMaker.start(source.bootstrapServers(),
                destination.bootstrapServers(), MIRRORING, null)) {
            Await.until(SYNCED, "MirrorMaker 2's sync of the last record", () ->
                    Clients.mirrorMakerSyncs(source, FLOOR_TOPIC, 0).contains(FLOOR_RECORDS - 1L));
        } // the syncs it wrote are all the floor needs: the records are copied, none come after
        long committed = betweenSyncs(Clients.mirrorMakerSyncs(source, FLOOR_TOPIC, 0));
        Map<Integer, Long> exact = Map.of(0, committed); // a fresh mirror: the same offset on both clusters
        Map<String, Object> overrides = Map.of("source.bootstrap.servers", source.bootstrapServers(),
                "destination.bootstrap.servers", destination.bootstrapServers(), "groups.include", "floor-.*");
        try (SextantInstance first = SextantInstance.start(clusters, FLOOR_APP, stateDir, overrides);
             Admin target = clusters.admin(destination)) {
            Clients.commit(source, FLOOR_GROUP, FLOOR_TOPIC, exact);
            Await.until(SYNCED, FLOOR_GROUP + " written exact", () -> RetentionWatch.offsets(target, FLOOR_GROUP)
                    .equals(exact));
        }
        try (Admin admin = clusters.admin(source)) {
            // the source's retention took the start of the interval: the proof cannot be made again
            admin.deleteRecords(Map.of(new TopicPartition(FLOOR_TOPIC, 0), RecordsToDelete.beforeOffset(committed - 2)))
                    .all().get(30, TimeUnit.SECONDS);
        }
        try (SextantInstance restarted = SextantInstance.start(clusters, FLOOR_APP, stateDir, overrides)) {
            RetentionWatch.Result watched = sample(clusters, destination, "floor-control", FLOOR_MIRROR,
                    Map.of(FLOOR_GROUP, exact), FLOOR_IDLE);
            assertTrue(watched.controlGoneMs() > 0, "the broker's retention deletes a group no one writes again");
            List<String> gaps = watched.gaps(FLOOR_GROUP);
            assertTrue(gaps.isEmpty(), FLOOR_GROUP + " kept its exact offset " + committed + " past a retention and a "
                    + "quarter after the restart; " + gaps.size() + " samples without it, the first "
                    + (gaps.isEmpty() ? "" : gaps.get(0)));
            System.out.printf("kept floor refreshed: %s held its exact offset %d for %d s after a restart "
                    + "(retention 60 s; the hand-written control group was deleted after %d ms)%n", FLOOR_GROUP,
                    committed, FLOOR_IDLE.toSeconds(), watched.controlGoneMs());
        }
    }

    private static RetentionWatch.Result sample(LocalClusters clusters, LocalKafkaBroker destination, String control,
            String topic, Map<String, Map<Integer, Long>> expected, Duration duration) {
        try (Admin target = clusters.admin(destination)) {
            return RetentionWatch.sample(target, topic, control, expected, duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (Exception e) {
            throw new IllegalStateException("sampling " + expected.keySet(), e);
        }
    }

    /**
     * A consumer joins {@link #JOINED_GROUP} on the destination and leaves, committing nothing, once Sextant refreshed
     * at the lowered retention; then samples until its offsets are back after the broker deleted them.
     *
     * @return when they were gone and when back, ms from the consumer's leaving; -1 for what did not happen
     */
    private static long[] joinAndLeave(LocalClusters clusters, LocalKafkaBroker destination,
                                       Supplier<Boolean> refreshedSinceTheRestart) {
        Map<String, Object> config = new HashMap<>(destination.clientProperties());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, JOINED_GROUP);
        config.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (Admin target = clusters.admin(destination)) {
            Await.until(Duration.ofSeconds(60), "a refresh at the lowered retention", refreshedSinceTheRestart);
            // a phase offset, not a wait for a condition: the group goes Empty half-way between two of its refreshes
            // (every 30 s from the one just seen), so its deletion is found by the listing, not by a refresh that
            // happens to come first
            Thread.sleep(RETENTION.toMillis() / 4);
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                    new ByteArrayDeserializer())) {
                consumer.subscribe(List.of(TOPIC));
                Await.until(Duration.ofSeconds(60), "a destination consumer in " + JOINED_GROUP, () -> {
                    consumer.poll(Duration.ofMillis(200));
                    return !consumer.assignment().isEmpty();
                });
            } // it leaves: the group is Empty from now, and its offsets expire a retention later
            long left = System.nanoTime();
            long goneAt = -1;
            long backAt = -1;
            while (backAt < 0 && System.nanoTime() - left < RETENTION.plusSeconds(60).toNanos()) {
                long at = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - left);
                boolean all = RetentionWatch.offsets(target, JOINED_GROUP).equals(COMMITTED);
                if (!all && goneAt < 0) {
                    goneAt = at;
                } else if (all && goneAt >= 0) {
                    backAt = at;
                }
                Thread.sleep(200); // the sampling interval, not a wait for a condition
            }
            return new long[] {goneAt, backAt};
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
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
