package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.LocalKafkaBroker;
import io.micrometer.core.instrument.Counter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Destination offsets do not expire (edge 3 of the no-silent-loss work): against a destination broker that deletes
 * the offsets of a group without members one minute after their commit ({@code offsets.retention.minutes=1}, checked
 * every second), an idle group Sextant synced keeps every partition's offset for several retention periods, while a
 * group committed on the destination by hand at the same time is deleted (the broker's retention does run).
 *
 * <p>Brokers of its own: the retention is a broker setting. Identity translation: expiry is the destination's doing,
 * whatever mirrors the records.
 */
@Tag("soak")
@ExtendWith(LocalClustersExtension.class)
class OffsetsRetentionIT {

    private static final String TOPIC = "retention-ledger";
    private static final int PARTITIONS = 3;
    private static final Duration RETENTION = Duration.ofMinutes(1);
    private static final Duration IDLE = Duration.ofSeconds(150);

    @Test
    void anIdleSyncedGroupKeepsItsDestinationOffsetsPastTheRetention(LocalClusters clusters) throws Exception {
        try (LocalKafkaBroker source = LocalKafkaBroker.builder("retention-source").start();
             LocalKafkaBroker destination = LocalKafkaBroker.builder("retention-destination")
                     .property("offsets.retention.minutes", Long.toString(RETENTION.toMinutes()))
                     .property("offsets.retention.check.interval.ms", "1000").start()) {
            clusters.createTopic(source, TOPIC, PARTITIONS);
            clusters.createTopic(destination, TOPIC, PARTITIONS);
            Clients.produceNumbered(source, TOPIC, PARTITIONS, 100);
            Clients.produceNumbered(destination, TOPIC, PARTITIONS, 100);
            try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-retention", Map.of(
                    "source.bootstrap.servers", source.bootstrapServers(),
                    "destination.bootstrap.servers", destination.bootstrapServers(),
                    "translation", "identity", "replication.policy", "identity", "groups.include", "retention-.*"));
                 Admin target = clusters.admin(destination)) {
                Clients.commit(source, "retention-idle", TOPIC, Map.of(0, 50L, 1, 60L, 2, 70L));
                Await.until(Duration.ofSeconds(60), "retention-idle synced", () -> offsets(target,
                        "retention-idle").size() == PARTITIONS);
                // the control: committed on the destination by hand, written again by no one
                Map<TopicPartition, OffsetAndMetadata> control = Map.of(new TopicPartition(TOPIC, 0),
                        new OffsetAndMetadata(10));
                target.alterConsumerGroupOffsets("retention-control", control).all().get(30, TimeUnit.SECONDS);

                long start = System.nanoTime();
                long controlGoneMs = -1;
                List<String> gaps = new ArrayList<>();
                while (System.nanoTime() - start < IDLE.toNanos()) {
                    long at = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                    Map<Integer, Long> idle = offsets(target, "retention-idle");
                    if (!idle.equals(Map.of(0, 50L, 1, 60L, 2, 70L))) {
                        gaps.add(at + " ms: " + idle);
                    }
                    if (controlGoneMs < 0 && offsets(target, "retention-control").isEmpty()) {
                        controlGoneMs = at;
                    }
                    Thread.sleep(500); // the sampling interval, not a wait for a condition
                }
                assertTrue(controlGoneMs > 0, "the broker's retention deletes a group no one writes again");
                assertEquals(List.of(), gaps, "retention-idle kept every offset");
                Counter refreshed = sextant.registry().find("sextant.offsets.refreshed").counter();
                double rewrites = refreshed == null ? 0 : refreshed.count();
                assertTrue(rewrites >= PARTITIONS * 2, "written again in each retention period: " + rewrites);
                System.out.printf("offsets retention %d s: the hand-written group was deleted after %d ms; the "
                        + "group Sextant synced kept its %d offsets for %d s (%.0f rewrites)%n",
                        RETENTION.toSeconds(), controlGoneMs, PARTITIONS, IDLE.toSeconds(), rewrites);
            }
        }
    }

    private static Map<Integer, Long> offsets(Admin admin, String group) {
        try {
            Map<Integer, Long> out = new TreeMap<>();
            admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS)
                    .forEach((tp, om) -> {
                        if (om != null) {
                            out.put(tp.partition(), om.offset());
                        }
                    });
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the offsets of " + group, e);
        }
    }
}
