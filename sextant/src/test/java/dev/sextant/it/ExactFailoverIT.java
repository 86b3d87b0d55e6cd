package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.client.SextantClient;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalKafkaBroker;
import dev.sextant.testkit.LocalMirrorMaker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Exact failover on an ordinary MirrorMaker 2 mirror: a commit between two offset syncs whose deltas are equal, and
 * whose records the two clusters hold one for one, is written where its record is (replay 0), however widely
 * MirrorMaker 2 spaced its syncs; where the records say otherwise (transaction markers, records copied twice after
 * a MirrorMaker 2 crash) the position stays bounded, and no consumer ever skips a record.
 *
 * <p>Every check reads the records themselves: a consumer resumes on the mirror from what Sextant wrote and must
 * read every source record from its commit on; a position Sextant calls exact must hold the committed record.
 *
 * <p>Clusters of its own: the test kills and restarts MirrorMaker 2, which runs with {@code offset.lag.max=10}, so a
 * burst keeps its ten in-flight syncs busy and it coalesces the rest.
 */
class ExactFailoverIT {

    private static final Duration SYNCED = Duration.ofSeconds(90);
    private static final int LAG_MAX = 10;
    private static final LocalMirrorMaker.Options MIRROR = LocalMirrorMaker.Options.builder()
            .topics("exact-.*").groups("none").offsetLagMax(LAG_MAX).build();
    /**
     * The same, committing its source offsets every 5 minutes instead of every second: what it copies before it is
     * killed is still uncommitted then, so its successor copies it again. With the 1 s commits a MirrorMaker 2 that
     * had caught up with a slowed load committed everything just before the kill and copied nothing twice (seen in
     * CI: 15,600 records on both clusters).
     */
    private static final LocalMirrorMaker.Options MIRROR_COMMITTING_LATE = LocalMirrorMaker.Options.builder()
            .topics("exact-.*").groups("none").offsetLagMax(LAG_MAX)
            .property(LocalMirrorMaker.SOURCE_ALIAS + ".offset.flush.interval.ms", "300000")
            .property(LocalMirrorMaker.DESTINATION_ALIAS + ".offset.flush.interval.ms", "300000").build();

    private static LocalClusters clusters;
    private static LocalMirrorMaker mirrorMaker;

    @BeforeAll
    static void start() {
        clusters = LocalClusters.builder().withoutMirrorMaker().start();
        mirrorMaker = startMirrorMaker();
    }

    @AfterAll
    static void stop() {
        if (mirrorMaker != null) {
            mirrorMaker.close();
        }
        if (clusters != null) {
            clusters.close();
        }
    }

    private static LocalMirrorMaker startMirrorMaker() {
        return startMirrorMaker(MIRROR);
    }

    private static LocalMirrorMaker startMirrorMaker(LocalMirrorMaker.Options options) {
        return LocalMirrorMaker.start(clusters.source().bootstrapServers(), clusters.destination().bootstrapServers(),
                options, null);
    }

    @Test
    void laggingAndCaughtUpGroupsResumeOnTheirCommittedRecordThoughMirrorMakerCoalescedItsSyncs() {
        String topic = "exact-burst";
        String mirrored = LocalMirrorMaker.mirroredTopic(topic);
        int partitions = 4;
        int perPartition = 25_000;
        clusters.createTopic(clusters.source(), topic, partitions);
        try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-exact-burst",
                Map.of("groups.include", "exact-burst-.*"))) {
            Clients.produceNumbered(clusters.source(), topic, partitions, perPartition); // a burst, unthrottled
            clusters.awaitMirrored(topic, SYNCED);
            for (int p = 0; p < partitions; p++) {
                int partition = p;
                Await.until(SYNCED, "MirrorMaker 2's sync of the last record of " + topic + "-" + p, () ->
                        Clients.mirrorMakerSyncs(clusters.source(), topic, partition).contains(perPartition - 1L));
            }

            // lagging groups commit in the middle of the widest gaps between syncs; one group is caught up
            Map<String, Map<Integer, Long>> commits = new LinkedHashMap<>();
            Map<String, Long> floorReplay = new HashMap<>();
            long widest = 0;
            for (int p = 0; p < partitions; p++) {
                List<Long> syncs = Clients.mirrorMakerSyncs(clusters.source(), topic, p).stream().distinct().sorted()
                        .toList();
                List<long[]> gaps = new ArrayList<>();
                for (int i = 1; i < syncs.size(); i++) {
                    gaps.add(new long[] {syncs.get(i - 1), syncs.get(i)});
                }
                gaps.sort((a, b) -> Long.compare(b[1] - b[0], a[1] - a[0]));
                widest = Math.max(widest, gaps.get(0)[1] - gaps.get(0)[0]);
                for (long[] gap : gaps.subList(0, Math.min(3, gaps.size()))) {
                    long commit = gap[0] + (gap[1] - gap[0]) / 2;
                    if (commit > gap[0] + 1) {
                        String group = "exact-burst-lag-" + p + "-" + commit;
                        commits.put(group, Map.of(p, commit));
                        floorReplay.put(group, commit - gap[0] - 1); // MirrorMaker 2's rule: resume at D + 1
                    }
                }
            }
            assertTrue(widest > 3 * LAG_MAX, "MirrorMaker 2 coalesced its syncs under the burst (widest gap "
                    + widest + ", offset.lag.max " + LAG_MAX + ")");
            Map<Integer, Long> end = new HashMap<>();
            for (int p = 0; p < partitions; p++) {
                end.put(p, (long) perPartition);
            }
            commits.put("exact-burst-caught-up", end);
            commits.forEach((group, offsets) -> Clients.commit(clusters.source(), group, topic, offsets));

            SextantClient client = SextantClient.builder("http://" + sextant.app().queryAddress())
                    .deadline(Duration.ofSeconds(10)).build();
            for (Map.Entry<String, Map<Integer, Long>> e : commits.entrySet()) {
                String group = e.getKey();
                Await.until(SYNCED, group + " applied exactly", () -> appliedExactly(client, group, e.getValue()));
                Map<Integer, Long> mirrorEnds = new HashMap<>(clusters.endOffsets(clusters.destination(), mirrored));
                mirrorEnds.keySet().retainAll(e.getValue().keySet());
                Map<Integer, List<Integer>> read = Clients.resumeAndReadToEnd(clusters.destination(), group, mirrored,
                        mirrorEnds);
                e.getValue().forEach((p, committed) -> {
                    List<Integer> values = read.get(p);
                    long first = values.isEmpty() ? perPartition : values.get(0);
                    assertEquals(committed, first, group + "-" + p + " resumes on its committed record: replay 0, "
                            + "none lost");
                    assertEquals(perPartition - committed, values.size(), group + "-" + p + " reads every record "
                            + "from its commit on, once");
                });
                System.out.printf("exact failover %s %s: resumed on the committed record (replay 0; MirrorMaker "
                        + "2's rule would replay %s)%n", group, e.getValue(), floorReplay.getOrDefault(group, 0L));
            }
            System.out.printf("exact failover: widest gap between MirrorMaker 2's syncs %d (offset.lag.max %d); "
                    + "intervals proven %.0f, records read %.0f source + %.0f destination%n", widest, LAG_MAX,
                    count(sextant, "sextant.offset.sync.intervals", "verdict", "proven"),
                    count(sextant, "sextant.offset.sync.interval.records.read", "cluster", "source"),
                    count(sextant, "sextant.offset.sync.interval.records.read", "cluster", "destination"));
        }
    }

    @Test
    void transactionMarkersAndRecordsCopiedTwiceKeepTheirIntervalsBoundedAndNoRecordIsSkipped() throws Exception {
        String topic = "exact-txn";
        String mirrored = LocalMirrorMaker.mirroredTopic(topic);
        clusters.createTopic(clusters.source(), topic, 1);
        try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-exact-txn",
                Map.of("groups.include", "exact-txn-.*"))) {
            // plain records, committed transactions and aborted ones (each ends with a marker), while MirrorMaker 2
            // is killed and restarted: it copies again what it had not committed (all of it: it commits late)
            mirrorMaker.close();
            mirrorMaker = startMirrorMaker(MIRROR_COMMITTING_LATE);
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread load = new Thread(() -> {
                try {
                    produceWithTransactions(topic, 240);
                } catch (Throwable e) {
                    failed.set(e);
                }
            }, "exact-txn-load");
            load.start();
            Await.until(SYNCED, "the mirror a third through the load",
                    () -> clusters.endOffsets(clusters.destination(), mirrored).getOrDefault(0, 0L) >= 5_000);
            ProcessHandle.of(mirrorMaker.pid()).ifPresent(ProcessHandle::destroyForcibly);
            mirrorMaker.close();
            mirrorMaker = startMirrorMaker();
            load.join(TimeUnit.MINUTES.toMillis(3));
            assertEquals(null, failed.get(), "the load");

            TreeMap<Long, String> source = records(clusters.source(), topic);
            String last = source.lastEntry().getValue();
            Await.until(SYNCED, "everything mirrored", () -> last.equals(
                    records(clusters.destination(), mirrored).lastEntry().getValue()));
            long sourceEnd = clusters.endOffsets(clusters.source(), topic).get(0);
            Await.until(SYNCED, "MirrorMaker 2's sync of the last record", () ->
                    Clients.mirrorMakerSyncs(clusters.source(), topic, 0).contains(source.lastKey()));
            TreeMap<Long, String> destination = records(clusters.destination(), mirrored);
            assertTrue(sourceEnd > source.size(), "transaction markers on the source");
            assertTrue(destination.size() > source.size(), "MirrorMaker 2 copied records again after the kill ("
                    + destination.size() + " records on the mirror, " + source.size() + " on the source)");

            // groups resume at every stretch: every 200th source record
            List<Long> commits = new ArrayList<>();
            for (long offset : source.keySet()) {
                if (offset % 200 == 0 || commits.isEmpty()) {
                    commits.add(offset);
                }
            }
            for (long commit : commits) {
                Clients.commit(clusters.source(), "exact-txn-" + commit, topic, Map.of(0, commit));
            }
            SextantClient client = SextantClient.builder("http://" + sextant.app().queryAddress())
                    .deadline(Duration.ofSeconds(10)).build();
            for (long commit : commits) {
                Await.until(SYNCED, "exact-txn-" + commit + " applied",
                        () -> applied(client, "exact-txn-" + commit, commit) != null);
            }
            Await.until(SYNCED, "every interval asked for checked", () -> gauge(sextant,
                    "sextant.offset.sync.intervals.queued") == 0);
            int exact = 0;
            int bounded = 0;
            Map<String, long[]> seen = new HashMap<>();
            for (long commit : commits) {
                String group = "exact-txn-" + commit;
                SextantClient.Partition position = Await.value(SYNCED, group + " settled", () ->
                        settled(client, group, commit, seen));
                long written = Clients.committed(clusters, clusters.destination(), group, mirrored).get(0).offset();
                assertEquals(position.appliedOffset().longValue(), written, group);
                // nothing lost: every source record from the commit on has a copy at or after the written offset
                Set<String> after = new HashSet<>(destination.tailMap(written, true).values());
                for (String value : source.tailMap(commit, true).values()) {
                    assertTrue(after.contains(value), group + " resumed at " + written + " and skipped " + value);
                }
                if (Long.valueOf(0).equals(position.bound())) {
                    exact++;
                    assertEquals(source.get(commit), destination.get(written), group + " is exact: the committed "
                            + "record is where it resumes");
                } else {
                    bounded++;
                }
            }
            System.out.printf("transactions and a MirrorMaker 2 restart: %d commits, %d exact (verified), %d bounded; "
                    + "intervals proven %.0f, refuted %.0f; none skipped a record%n", commits.size(), exact, bounded,
                    count(sextant, "sextant.offset.sync.intervals", "verdict", "proven"),
                    count(sextant, "sextant.offset.sync.intervals", "verdict", "refuted"));
            assertTrue(bounded > 0, "the intervals with markers or copies stay bounded");
            assertTrue(exact > 0, "the intervals copied one for one are exact");
        }
    }

    /**
     * {@code rounds} times: 40 plain records, a committed transaction of 15, an aborted one of 10. Values are unique
     * ({@code "<round>-<kind>-<i>"}), so a record on the mirror names its source record.
     */
    private static void produceWithTransactions(String topic, int rounds) throws InterruptedException {
        Map<String, Object> plainProps = new HashMap<>(clusters.source().clientProperties());
        plainProps.put(ProducerConfig.ACKS_CONFIG, "all");
        Map<String, Object> txProps = new HashMap<>(plainProps);
        txProps.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "exact-txn-producer");
        try (KafkaProducer<String, String> plain = new KafkaProducer<>(plainProps, new StringSerializer(),
                new StringSerializer());
             KafkaProducer<String, String> tx = new KafkaProducer<>(txProps, new StringSerializer(),
                     new StringSerializer())) {
            tx.initTransactions();
            for (int round = 0; round < rounds; round++) {
                for (int i = 0; i < 40; i++) {
                    plain.send(new ProducerRecord<>(topic, 0, null, round + "-plain-" + i));
                }
                plain.flush();
                tx.beginTransaction();
                for (int i = 0; i < 15; i++) {
                    tx.send(new ProducerRecord<>(topic, 0, null, round + "-committed-" + i));
                }
                tx.commitTransaction();
                tx.beginTransaction();
                for (int i = 0; i < 10; i++) {
                    tx.send(new ProducerRecord<>(topic, 0, null, round + "-aborted-" + i));
                }
                tx.flush();
                tx.abortTransaction();
                Thread.sleep(20); // pacing the load, not a wait for a condition
            }
        }
    }

    /** Every record of partition 0 ({@code read_uncommitted}: what MirrorMaker 2 copies), by offset. */
    private static TreeMap<Long, String> records(LocalKafkaBroker cluster, String topic) {
        Map<String, Object> props = new HashMap<>(cluster.clientProperties());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000);
        TreeMap<Long, String> out = new TreeMap<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            TopicPartition tp = new TopicPartition(topic, 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (consumer.position(tp) < end) {
                assertTrue(System.nanoTime() < deadline, "read " + topic + " to its end");
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    out.put(r.offset(), r.value());
                }
            }
        }
        return out;
    }

    private static boolean appliedExactly(SextantClient client, String group, Map<Integer, Long> offsets) {
        try {
            SextantClient.GroupPositions positions = client.group(group);
            return positions.partitions().size() == offsets.size() && positions.partitions().stream().allMatch(p ->
                    p.status().equals("APPLIED") && p.sourceOffset() == offsets.get(p.partition())
                            && Long.valueOf(0).equals(p.bound()) && p.appliedOffset() != null
                            && p.appliedOffset().equals(p.translatedOffset()));
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static SextantClient.Partition applied(SextantClient client, String group, long offset) {
        try {
            return client.group(group).partitions().stream().filter(p -> p.status().equals("APPLIED")
                    && p.sourceOffset() == offset && p.appliedOffset() != null
                    && p.appliedOffset().equals(p.translatedOffset())).findFirst().orElse(null);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Applied, and at the same offset for a second (first seen per group in {@code seen}: offset, nanos). */
    private static SextantClient.Partition settled(SextantClient client, String group, long offset,
                                                   Map<String, long[]> seen) {
        SextantClient.Partition now = applied(client, group, offset);
        if (now == null) {
            seen.remove(group);
            return null;
        }
        long[] first = seen.get(group);
        if (first == null || first[0] != now.appliedOffset()) {
            seen.put(group, new long[] {now.appliedOffset(), System.nanoTime()});
            return null;
        }
        return System.nanoTime() - first[1] >= Duration.ofSeconds(1).toNanos() ? now : null;
    }

    private static double count(SextantInstance sextant, String name, String... tags) {
        Counter counter = sextant.registry().find(name).tags(tags).counter();
        return counter == null ? 0 : counter.count();
    }

    private static double gauge(SextantInstance sextant, String name) {
        Gauge gauge = sextant.registry().find(name).gauge();
        return gauge == null ? 0 : gauge.value();
    }
}
