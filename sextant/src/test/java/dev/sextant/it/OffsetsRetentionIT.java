package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.testing.RetentionWatch;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.LocalKafkaBroker;
import io.micrometer.core.instrument.Counter;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Destination offsets do not expire, whatever deletes them (issue 36, item 4). A destination broker restarted, while
 * Sextant runs, with a retention lowered to one minute ({@code offsets.retention.minutes=1}, checked every second):
 * an idle group Sextant synced keeps every partition's offset for more than two retention periods, while a group
 * committed there by hand is deleted (the broker's retention does run). Then a consumer joins that group on the
 * destination and leaves: the broker deletes all of an Empty group's offsets a retention after its last member left,
 * however recently they were written, and Sextant writes them again within seconds of seeing the group gone.
 *
 * <p>Brokers of its own: the retention is a broker setting. Identity translation: expiry is the destination's doing,
 * whatever mirrors the records.
 */
@Tag("soak")
@ExtendWith(LocalClustersExtension.class)
class OffsetsRetentionIT {

    private static final String TOPIC = "retention-ledger";
    private static final String GROUP = "retention-idle";
    private static final int PARTITIONS = 3;
    private static final Map<Integer, Long> COMMITTED = Map.of(0, 50L, 1, 60L, 2, 70L);
    private static final Duration RETENTION = Duration.ofMinutes(1);
    private static final Duration IDLE = Duration.ofSeconds(130);
    /** From the offsets gone to written again, at most: the view lists the groups every refresh (500 ms here). */
    private static final Duration BACK_WITHIN = Duration.ofSeconds(10);

    @Test
    void syncedOffsetsOutliveALoweredRetentionAndComeBackWhenAnEmptyGroupsOffsetsExpire(LocalClusters clusters)
            throws Exception {
        try (LocalKafkaBroker source = LocalKafkaBroker.builder("retention-source").start();
             LocalKafkaBroker destination = LocalKafkaBroker.builder("retention-destination")
                     .property("offsets.retention.check.interval.ms", "1000").start()) {
            clusters.createTopic(source, TOPIC, PARTITIONS);
            clusters.createTopic(destination, TOPIC, PARTITIONS);
            Clients.produceNumbered(source, TOPIC, PARTITIONS, 100);
            Clients.produceNumbered(destination, TOPIC, PARTITIONS, 100);
            try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-retention", Map.of(
                    "source.bootstrap.servers", source.bootstrapServers(),
                    "destination.bootstrap.servers", destination.bootstrapServers(),
                    "translation", "identity", "replication.policy", "identity", "groups.include", "retention-.*"))) {
                Clients.commit(source, GROUP, TOPIC, COMMITTED);
                try (Admin target = clusters.admin(destination)) {
                    Await.until(Duration.ofSeconds(60), GROUP + " synced",
                            () -> RetentionWatch.offsets(target, GROUP).size() == PARTITIONS);
                }
                // the operator lowers the retention in a rolling restart; Sextant learnt 7 days at its start
                destination.restart(Map.of("offsets.retention.minutes", Long.toString(RETENTION.toMinutes())));
                try (Admin target = clusters.admin(destination)) {
                    keptThroughALoweredRetention(target);
                    backSoonAfterAnEmptyGroupsOffsetsExpire(destination, target);
                }
                Counter refreshed = sextant.registry().find("sextant.offsets.refreshed").counter();
                Counter vanished = sextant.registry().find("sextant.offsets.vanished").counter();
                System.out.printf("offsets retention: %.0f rewrites before the retention, %.0f after they vanished%n",
                        refreshed == null ? 0 : refreshed.count(), vanished == null ? 0 : vanished.count());
                assertTrue(vanished != null && vanished.count() >= PARTITIONS, "counted as vanished");
            }
        }
    }

    private static void keptThroughALoweredRetention(Admin target) throws Exception {
        RetentionWatch.Result watched = RetentionWatch.sample(target, TOPIC, "retention-control", GROUP, COMMITTED,
                IDLE);
        long controlGoneMs = watched.controlGoneMs();
        List<String> gaps = watched.gaps();
        assertTrue(controlGoneMs > 0, "the broker's retention deletes a group no one writes again");
        assertEquals(List.of(), gaps, GROUP + " kept every offset after the retention was lowered");
        System.out.printf("offsets retention lowered to %d s in a restart: the hand-written group was deleted after "
                + "%d ms; the group Sextant synced kept its %d offsets for %d s%n", RETENTION.toSeconds(),
                controlGoneMs, PARTITIONS, IDLE.toSeconds());
    }

    private static void backSoonAfterAnEmptyGroupsOffsetsExpire(LocalKafkaBroker destination, Admin target)
            throws Exception {
        Map<String, Object> config = new HashMap<>(destination.clientProperties());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP);
        config.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(TOPIC));
            Await.until(Duration.ofSeconds(60), "a destination consumer in " + GROUP, () -> {
                consumer.poll(Duration.ofMillis(200));
                return !consumer.assignment().isEmpty();
            });
        } // it leaves: the group is Empty from now, and its offsets expire a retention later
        long left = System.nanoTime();
        long goneAt = -1;
        long backAt = -1;
        while (backAt < 0 && System.nanoTime() - left < RETENTION.plusSeconds(60).toNanos()) {
            long at = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - left);
            boolean all = RetentionWatch.offsets(target, GROUP).equals(COMMITTED);
            if (!all && goneAt < 0) {
                goneAt = at;
            } else if (all && goneAt >= 0) {
                backAt = at;
            }
            Thread.sleep(200); // the sampling interval, not a wait for a condition
        }
        assertTrue(goneAt >= 0, "the broker deleted the Empty group's offsets a retention after its member left");
        assertTrue(backAt >= 0, "written again after they were deleted");
        System.out.printf("a destination consumer joined and left: the broker deleted the group's offsets %d ms "
                + "later; Sextant wrote them again %d ms after that%n", goneAt, backAt - goneAt);
        assertTrue(backAt - goneAt <= BACK_WITHIN.toMillis(), "written again within " + BACK_WITHIN.toSeconds()
                + " s of being deleted, not at the next refresh: " + (backAt - goneAt) + " ms");
    }
}
