package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.Reason;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import dev.sextant.testing.DeadLetters;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.OrdersTopic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Share groups (KIP-932) on real clusters with real MirrorMaker 2 ({@code offset.lag.max=100}): the effective share
 * start offset, translated and applied in its own phase.
 */
@ExtendWith(LocalClustersExtension.class)
class ShareGroupSyncIT {

    private static final long SPACING = 100;
    private static final Duration SYNCED = Duration.ofSeconds(90);

    private static LocalClusters clusters;
    private static SextantInstance sextant;

    @BeforeAll
    static void start() {
        clusters = LocalClustersExtension.clusters();
        OrdersTopic.ensure(clusters);
        sextant = SextantInstance.start(clusters, "sextant-it-share",
                Map.of("groups.include", "(shipping|side-billing).*"));
    }

    @AfterAll
    static void stop() {
        if (sextant != null) {
            sextant.close();
        }
    }

    private static boolean existsOnDestination(String group) {
        try (Admin admin = clusters.admin(clusters.destination())) {
            return admin.listGroups(ListGroupsOptions.forShareGroups()).all().get(10, TimeUnit.SECONDS).stream()
                    .anyMatch(g -> g.groupId().equals(group));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Waits until the destination start offsets of {@code group} stop moving and cover every partition. */
    private static Map<Integer, Long> awaitShareSynced(String group, Map<Integer, Long> expectedSource) {
        try {
            return awaitShareSyncedOrFail(group, expectedSource);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; expected source offsets " + expectedSource
                    + "; Sextant's positions: " + sextant.app().positions().group(group) + "; destination: "
                    + Clients.shareStartOffsets(clusters, clusters.destination(), group, "source.orders"), e);
        }
    }

    private static Map<Integer, Long> awaitShareSyncedOrFail(String group, Map<Integer, Long> expectedSource) {
        return Await.value(SYNCED, group + " synced on the destination", () -> {
            Map<Integer, Long> offsets = Clients.shareStartOffsets(clusters, clusters.destination(), group,
                    "source.orders");
            boolean allApplied = expectedSource.entrySet().stream().allMatch(e -> {
                var p = sextant.app().positions().get(new PositionKey(group, "orders", e.getKey()));
                return p != null && p.sourceOffset() == e.getValue()
                        && p.status() == PositionStatus.APPLIED
                        && Long.valueOf(p.appliedOffset()).equals(offsets.get(e.getKey()));
            });
            return allApplied ? offsets : null;
        });
    }

    @Test
    void aShareGroupResumesOnTheMirrorAfterItsAcknowledgedPrefix() {
        String group = "shipping";
        assertFalse(existsOnDestination(group));
        Clients.shareFromEarliest(clusters, clusters.source(), group);
        Map<Integer, SortedSet<Long>> acked = Clients.consumeShare(clusters.source(), group, "orders", 1_500);
        Map<Integer, Long> prefix = new HashMap<>();
        for (int p = 0; p < OrdersTopic.PARTITIONS; p++) {
            prefix.put(p, Clients.contiguousPrefix(acked.getOrDefault(p, new TreeSet<>())));
        }
        Map<Integer, Long> sourceStarts = Clients.shareStartOffsets(clusters, clusters.source(), group, "orders");
        System.out.println("shipping: acknowledged prefix " + prefix + ", source SPSO as listed " + sourceStarts);

        // partitions where nothing was acknowledged have nothing to sync (their share state may not even exist)
        Map<Integer, Long> withProgress = new HashMap<>(prefix);
        withProgress.values().removeIf(offset -> offset == 0);
        Map<Integer, Long> synced = awaitShareSynced(group, withProgress);
        assertTrue(existsOnDestination(group), "Sextant created the share group on the destination");

        // a share consumer on the mirror: from the synced start offset to the end
        Clients.shareFromEarliest(clusters, clusters.destination(), group);
        Map<Integer, Set<Long>> delivered = readShareToEnd(group, prefix);
        for (int p : withProgress.keySet()) {
            long resumedAt = synced.get(p);
            long lowest = delivered.get(p).stream().mapToLong(Long::longValue).min().orElseThrow();
            long redelivered = prefix.get(p) - lowest;
            System.out.printf("shipping orders-%d: acknowledged prefix %d, destination start %d, redelivered %d%n",
                    p, prefix.get(p), resumedAt, redelivered);
            assertTrue(lowest <= prefix.get(p), "no record after the prefix is skipped");
            assertTrue(redelivered <= SPACING, "redelivered " + redelivered + " > sync spacing");
        }
    }

    /** Reads with a share consumer until every record from the prefix to the end was delivered at least once. */
    private static Map<Integer, Set<Long>> readShareToEnd(String group, Map<Integer, Long> prefix) {
        Map<String, Object> props = new HashMap<>(clusters.destination().clientProperties());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        Map<Integer, Set<Long>> delivered = new HashMap<>();
        prefix.keySet().forEach(p -> delivered.put(p, new HashSet<>()));
        try (KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of("source.orders"));
            Await.until(Duration.ofSeconds(90), "every record after the prefix delivered on the mirror", () -> {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    delivered.get(r.partition()).add(Long.parseLong(r.value()));
                }
                return prefix.entrySet().stream().allMatch(e -> {
                    Set<Long> got = delivered.get(e.getKey());
                    for (long v = e.getValue(); v < OrdersTopic.PER_PARTITION; v++) {
                        if (!got.contains(v)) {
                            return false;
                        }
                    }
                    return true;
                });
            });
        }
        return delivered;
    }

    @Test
    void aConsumerGroupOfTheSameNameIsATypeConflictAndTheGroupsBesideItStillSync() throws Exception {
        String group = "shipping-conflict";
        try (Admin admin = clusters.admin(clusters.destination())) {
            admin.alterConsumerGroupOffsets(group, Map.of(new TopicPartition("source.orders", 0),
                    new OffsetAndMetadata(0))).all().get(30, TimeUnit.SECONDS); // a consumer group there
        }
        Clients.shareFromEarliest(clusters, clusters.source(), group);
        Clients.consumeShare(clusters.source(), group, "orders", 300);
        Clients.commit(clusters.source(), "side-billing", "orders", Map.of(0, 1_000L));

        DeadLetterRecord record = awaitDeadLetter(group, Reason.TYPE_CONFLICT);
        assertEquals("share", record.groupType());
        Await.until(SYNCED, "side-billing synced", () -> !Clients.committed(clusters, clusters.destination(),
                "side-billing", "source.orders").isEmpty());
        assertEquals(0L, Clients.committed(clusters, clusters.destination(), group, "source.orders").get(0).offset(),
                "the consumer group there is untouched");
        assertFalse(existsOnDestination(group), "no share group created over it");
    }

    @Test
    void anActiveShareGroupOnTheDestinationIsLeftAlone() throws Exception {
        String group = "shipping-live";
        Clients.shareFromEarliest(clusters, clusters.source(), group);
        Map<Integer, SortedSet<Long>> first = Clients.consumeShare(clusters.source(), group, "orders", 600);
        Map<Integer, Long> prefix = new HashMap<>();
        first.forEach((p, offsets) -> prefix.put(p, Clients.contiguousPrefix(offsets)));
        prefix.values().removeIf(offset -> offset == 0);
        Map<Integer, Long> before = awaitShareSynced(group, prefix);

        // a member on the destination, subscribed to a topic of its own so it moves no start offset of source.orders
        clusters.createTopic(clusters.destination(), "shipping-live-idle", 1);
        AtomicBoolean running = new AtomicBoolean(true);
        List<Throwable> memberErrors = new ArrayList<>();
        Thread member = new Thread(() -> {
            Map<String, Object> props = new HashMap<>(clusters.destination().clientProperties());
            props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
            try (KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(props,
                    new StringDeserializer(), new StringDeserializer())) {
                consumer.subscribe(List.of("shipping-live-idle"));
                while (running.get()) {
                    consumer.poll(Duration.ofMillis(100));
                }
            } catch (RuntimeException e) {
                memberErrors.add(e);
            }
        }, "destination-share-member");
        member.start();
        try {
            Await.until(SYNCED, group + " has members on the destination", () -> {
                try (Admin admin = clusters.admin(clusters.destination())) {
                    return !admin.describeShareGroups(List.of(group)).all().get(10, TimeUnit.SECONDS).get(group)
                            .members().isEmpty();
                } catch (Exception e) {
                    return false;
                }
            });
            Clients.consumeShare(clusters.source(), group, "orders", 600); // the source moves on
            DeadLetterRecord record = awaitDeadLetter(group, Reason.GROUP_ACTIVE);
            assertEquals("share", record.groupType());
            assertEquals(before, Clients.shareStartOffsets(clusters, clusters.destination(), group, "source.orders"),
                    "an active share group is never written");
        } finally {
            running.set(false);
            member.join(30_000);
        }
        assertTrue(memberErrors.isEmpty(), memberErrors.toString());
    }

    /**
     * Edge 8 of the no-silent-loss work: the takeover audit covers share groups. The instance that owned a task before
     * can have a write of an older start offset in flight that lands after the new owner applied a newer one; share
     * offsets carry no mark, so the audit reads the start offsets and writes again one below the applied one. The
     * late write is made here by the test itself, within the audit window of an instance of its own.
     */
    @Test
    void aLateWriteOfAnOlderStartOffsetAfterATakeoverIsWrittenOver() throws Exception {
        String group = "late-queue";
        try (SextantInstance owner = SextantInstance.start(clusters, "sextant-it-share-audit",
                Map.of("groups.include", "late-queue"))) {
            Clients.shareFromEarliest(clusters, clusters.source(), group);
            Map<Integer, SortedSet<Long>> acked = Clients.consumeShare(clusters.source(), group, "orders", 600);
            Map<Integer, Long> prefix = new HashMap<>();
            acked.forEach((p, offsets) -> prefix.put(p, Clients.contiguousPrefix(offsets)));
            prefix.values().removeIf(offset -> offset == 0);
            int partition = prefix.keySet().iterator().next();
            PositionKey key = new PositionKey(group, "orders", partition);
            long applied = Await.value(SYNCED, group + " synced", () -> {
                var p = owner.app().positions().get(key);
                Long there = Clients.shareStartOffsets(clusters, clusters.destination(), group, "source.orders")
                        .get(partition);
                return p != null && p.status() == PositionStatus.APPLIED && p.sourceOffset() == prefix.get(partition)
                        && there != null && there == p.appliedOffset() && there > 0 ? there : null;
            });

            long lateAt = System.nanoTime();
            try (Admin admin = clusters.admin(clusters.destination())) {
                admin.alterShareGroupOffsets(group, Map.of(new TopicPartition("source.orders", partition), 0L))
                        .all().get(30, TimeUnit.SECONDS); // the previous owner's late write of an older position
            }
            Await.until(SYNCED, "the applied start offset written again", () -> Long.valueOf(applied).equals(
                    Clients.shareStartOffsets(clusters, clusters.destination(), group, "source.orders")
                            .get(partition)));
            long repairedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lateAt);
            assertTrue(owner.registry().get("sextant.stale.writes.repaired").counter().count() >= 1);
            System.out.printf("share audit: a late write of start offset 0 over %d on orders-%d written over in "
                    + "%d ms%n", applied, partition, repairedMs);
        }
    }

    private static DeadLetterRecord awaitDeadLetter(String group, Reason reason) {
        return DeadLetters.await(clusters, group, reason, SYNCED);
    }
}
