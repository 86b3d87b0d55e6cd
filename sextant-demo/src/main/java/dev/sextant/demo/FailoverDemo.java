package dev.sextant.demo;

import dev.sextant.SextantApplication;
import dev.sextant.client.FailoverSeek;
import dev.sextant.client.SextantClient;
import dev.sextant.config.SextantConfigLoader;
import dev.sextant.domain.GroupKind;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import dev.sextant.state.PositionStore;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalMirrorMaker;
import dev.sextant.testkit.ShutdownRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KafkaStreams;

/**
 * {@code sextant demo}: two real local clusters mirrored by MirrorMaker 2, a workload (a producer, a consumer group
 * that keeps up, one that lags, a share group), Sextant syncing them with a live table, then a failover: the source
 * cluster is stopped and every group resumes on the destination from the offsets Sextant serves, with the records
 * replayed and lost counted against what each group had consumed on the source.
 *
 * <pre>
 *   start clusters + MM2 ─▶ workload + Sextant (live table) ─▶ stop workload, let the sync settle
 *     ─▶ stop MM2 and the source ("the source dies") ─▶ resume each group on the destination ─▶ report
 * </pre>
 */
public final class FailoverDemo {

    static final String TOPIC = "orders";
    static final int PARTITIONS = 3;
    static final String KEEPS_UP = "billing";
    static final String LAGS = "audit";
    static final String SHARE = "shipping";

    private final PrintWriter out;

    public FailoverDemo(PrintWriter out) {
        this.out = out;
    }

    /** Per group and partition: where it resumed on the mirror, and what it re-read or missed. */
    public record Resumption(String group, String groupType, int partition, long sourcePosition, long resumedAt,
                             long firstRecord, long replayed, long lost) {
    }

    /**
     * Runs the whole demo. Returns the failover report, or an empty list when {@code interrupted} fired before the
     * failover (Ctrl-C): everything is stopped either way.
     */
    public List<Resumption> run(Duration workloadTime, CountDownLatch interrupted) throws Exception {
        say("Starting two Kafka clusters and MirrorMaker 2 on 127.0.0.1 (the first run downloads Kafka from Maven "
                + "Central)...");
        try (LocalClusters clusters = LocalClusters.builder()
                .mirrorMaker(LocalMirrorMaker.Options.builder().topics(TOPIC).build()).start()) {
            say(clusters.describe());
            clusters.createTopic(clusters.source(), TOPIC, PARTITIONS);
            shareFromEarliest(clusters);
            Path stateDir = Files.createTempDirectory("sextant-demo");
            Map<String, Object> config = Map.of(
                    "source.bootstrap.servers", clusters.source().bootstrapServers(),
                    "destination.bootstrap.servers", clusters.destination().bootstrapServers(),
                    "application.id", "sextant-demo",
                    "state.dir", stateDir.toString(),
                    "query.listen", "127.0.0.1:0");
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            try (SextantApplication sextant = new SextantApplication(SextantConfigLoader.load(config, Map.of()),
                    registry)) {
                DemoWorkload workload = new DemoWorkload(clusters.source().clientProperties(), TOPIC, PARTITIONS);
                AutoCloseable onExit = () -> {
                    workload.close();
                    sextant.close();
                };
                ShutdownRegistry.register(onExit);
                try {
                    sextant.start();
                    String url = "http://" + sextant.queryAddress();
                    workload.producer(600).consumerGroup(KEEPS_UP, 10_000).consumerGroup(LAGS, 90)
                            .shareGroup(SHARE, 120);
                    say("Workload on '" + TOPIC + "': a producer (600 records/s); consumer group '" + KEEPS_UP
                            + "' keeps up; consumer group '" + LAGS + "' reads 90/s and falls behind; share group '"
                            + SHARE + "' acknowledges 120/s.");
                    say("Status page: " + url + "/  (open it in a browser while the demo runs)");
                    say("Or ask Sextant: curl " + url + "/v1/groups   curl " + url + "/v1/groups/"
                            + LAGS + "   curl " + url + "/metrics");
                    long end = System.nanoTime() + workloadTime.toNanos();
                    while (System.nanoTime() < end) {
                        if (interrupted.await(3, TimeUnit.SECONDS)) {
                            say("Interrupted: stopping everything.");
                            return List.of();
                        }
                        printTable(sextant, registry);
                    }
                    return failover(clusters, sextant, workload, url);
                } finally {
                    workload.close();
                    ShutdownRegistry.unregister(onExit);
                }
            }
        }
    }

    private List<Resumption> failover(LocalClusters clusters, SextantApplication sextant, DemoWorkload workload,
                                      String url) throws Exception {
        say("");
        say("== Failover ==");
        say("Stopping the workload: the consumer groups commit what they read, the share group acknowledges.");
        workload.close();
        Map<String, Map<Integer, Long>> sourcePositions = new TreeMap<>();
        try (Admin admin = clusters.admin(clusters.source())) {
            for (String group : List.of(KEEPS_UP, LAGS)) {
                Map<Integer, Long> committed = new TreeMap<>();
                admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS)
                        .forEach((tp, om) -> committed.put(tp.partition(), om.offset()));
                sourcePositions.put(group, committed);
            }
        }
        sourcePositions.put(SHARE, new TreeMap<>(workload.shareAcknowledgedPrefix()));
        say("Waiting until MirrorMaker 2 has copied every record and Sextant has applied the last positions...");
        clusters.awaitMirrored(TOPIC, Duration.ofSeconds(60));
        awaitApplied(sextant, sourcePositions, Duration.ofSeconds(45));
        printTable(sextant, null);

        say("The source cluster dies: MirrorMaker 2 and the source broker are stopped.");
        clusters.mirrorMaker().ifPresent(LocalMirrorMaker::close);
        clusters.source().close();

        SextantClient client = SextantClient.create(url);
        Map<Integer, Long> ends = clusters.endOffsets(clusters.destination(), LocalMirrorMaker.mirroredTopic(TOPIC));
        List<Resumption> report = new ArrayList<>();
        for (String group : List.of(KEEPS_UP, LAGS)) {
            Map<TopicPartition, Long> offsets = client.offsets(group);
            say("Group '" + group + "': Sextant says resume at " + offsets + "; seeking a consumer there on the "
                    + "destination before its first poll.");
            report.addAll(resumeConsumerGroup(clusters, group, offsets, sourcePositions.get(group), ends));
        }
        say("Share group '" + SHARE + "': its start offsets were synced to the destination; a share consumer "
                + "joins it.");
        report.addAll(resumeShareGroup(clusters, sourcePositions.get(SHARE), ends));
        printReport(report);
        return report;
    }

    private static void shareFromEarliest(LocalClusters clusters) throws Exception {
        try (Admin admin = clusters.admin(clusters.source())) {
            ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, SHARE);
            admin.incrementalAlterConfigs(Map.of(group, List.of(new AlterConfigOp(
                    new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET))))
                    .all().get(30, TimeUnit.SECONDS);
        }
    }

    /** Waits until every partition of every group is applied at its final source position, or the timeout. */
    private void awaitApplied(SextantApplication sextant, Map<String, Map<Integer, Long>> positions, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> pending = new ArrayList<>();
        while (System.nanoTime() < deadline) {
            pending.clear();
            PositionStore store = sextant.positions();
            positions.forEach((group, byPartition) -> byPartition.forEach((p, offset) -> {
                PartitionPosition pos = store.get(new PositionKey(group, TOPIC, p));
                if (offset > 0 && (pos == null || pos.sourceOffset() != offset
                        || pos.status() != PositionStatus.APPLIED)) {
                    pending.add(group + "/" + p);
                }
            }));
            if (pending.isEmpty()) {
                say("Sextant has applied every final position.");
                return;
            }
            Thread.sleep(200); // poll interval of a deadline-bounded wait
        }
        say("Still pending after " + timeout.toSeconds() + " s: " + pending + " (failing over anyway)");
    }

    private static List<Resumption> resumeConsumerGroup(LocalClusters clusters, String group,
                                                        Map<TopicPartition, Long> offsets,
                                                        Map<Integer, Long> sourcePositions, Map<Integer, Long> ends) {
        Map<String, Object> props = new HashMap<>(clusters.destination().clientProperties());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000);
        Map<Integer, List<Long>> read = new HashMap<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            FailoverSeek.assignAndSeek(consumer, offsets);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (offsets.keySet().stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp.partition()))
                    && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    read.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(Long.parseLong(r.value()));
                }
            }
        }
        List<Resumption> out = new ArrayList<>();
        for (Map.Entry<TopicPartition, Long> e : offsets.entrySet()) {
            int p = e.getKey().partition();
            List<Long> values = read.getOrDefault(p, List.of());
            long source = sourcePositions.getOrDefault(p, 0L);
            long sourceEnd = ends.get(p); // the mirror holds every source record (MM2 caught up before the stop)
            long first = values.isEmpty() ? sourceEnd : values.get(0);
            Set<Long> seen = new HashSet<>(values);
            long lost = 0;
            for (long v = source; v < sourceEnd; v++) {
                if (!seen.contains(v)) {
                    lost++;
                }
            }
            out.add(new Resumption(group, GroupKind.CONSUMER.label(), p, source, e.getValue(), first,
                    Math.max(0, source - first), lost));
        }
        return out;
    }

    private static List<Resumption> resumeShareGroup(LocalClusters clusters, Map<Integer, Long> prefix,
                                                     Map<Integer, Long> ends) {
        Map<String, Object> props = new HashMap<>(clusters.destination().clientProperties());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, SHARE);
        Map<Integer, Set<Long>> delivered = new HashMap<>();
        try (KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(LocalMirrorMaker.mirroredTopic(TOPIC)));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (System.nanoTime() < deadline && !allDelivered(prefix, ends, delivered)) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    delivered.computeIfAbsent(r.partition(), p -> new HashSet<>()).add(Long.parseLong(r.value()));
                }
            }
        }
        List<Resumption> out = new ArrayList<>();
        for (Map.Entry<Integer, Long> e : prefix.entrySet()) {
            int p = e.getKey();
            Set<Long> got = delivered.getOrDefault(p, Set.of());
            long lowest = got.stream().mapToLong(Long::longValue).min().orElse(ends.get(p));
            long lost = 0;
            for (long v = e.getValue(); v < ends.get(p); v++) {
                if (!got.contains(v)) {
                    lost++;
                }
            }
            out.add(new Resumption(SHARE, GroupKind.SHARE.label(), p, e.getValue(), lowest, lowest,
                    Math.max(0, e.getValue() - lowest), lost));
        }
        return out;
    }

    private static boolean allDelivered(Map<Integer, Long> prefix, Map<Integer, Long> ends,
                                        Map<Integer, Set<Long>> delivered) {
        for (Map.Entry<Integer, Long> e : prefix.entrySet()) {
            Set<Long> got = delivered.getOrDefault(e.getKey(), Set.of());
            for (long v = e.getValue(); v < ends.get(e.getKey()); v++) {
                if (!got.contains(v)) {
                    return false;
                }
            }
        }
        return true;
    }

    private void printTable(SextantApplication sextant, SimpleMeterRegistry registry) {
        if (sextant.streams().state() != KafkaStreams.State.RUNNING) {
            say("(Sextant's Kafka Streams is " + sextant.streams().state() + ")");
            return;
        }
        // group, then partition: columns as wide as their longest value, so they line up whatever the names
        Map<String, Map<String, PartitionPosition>> rows = new TreeMap<>();
        sextant.positions().forEach((key, pos) -> rows.computeIfAbsent(key.group(), g -> new TreeMap<>())
                .put(key.topic() + "-" + key.partition(), pos));
        int groupWidth = Math.max(5, rows.keySet().stream().mapToInt(String::length).max().orElse(0));
        int partitionWidth = Math.max(9, rows.values().stream().flatMap(m -> m.keySet().stream())
                .mapToInt(String::length).max().orElse(0));
        String format = "%-" + groupWidth + "s  %-" + partitionWidth + "s %9s %12s %-9s %6s  %s%n";
        out.printf("%n" + format, "GROUP", "PARTITION", "SOURCE", "DESTINATION", "PRECISION", "BOUND", "STATUS");
        rows.forEach((group, partitions) -> partitions.forEach((partition, pos) -> out.printf(format, group,
                partition, pos.sourceOffset(), pos.appliedOffset() < 0 ? "-" : Long.toString(pos.appliedOffset()),
                pos.hasTranslation() ? pos.precision().label() : "-", pos.hasTranslation() ? pos.bound() : "-",
                pos.status())));
        if (registry != null) {
            AtomicLong count = new AtomicLong();
            StringBuilder latency = new StringBuilder();
            registry.find("sextant.sync.latency").timers().forEach(t -> {
                count.addAndGet(t.count());
                latency.append(String.format(" %s: mean %.0f ms, max %.0f ms;", t.getId().getTag("group_type"),
                        t.mean(TimeUnit.MILLISECONDS), t.max(TimeUnit.MILLISECONDS)));
            });
            out.printf("sync latency (source commit -> destination), %d applies:%s%n", count.get(), latency);
        }
        out.flush();
    }

    private void printReport(List<Resumption> report) {
        say("");
        out.printf("%-10s %-9s %-9s %12s %12s %12s %9s %6s%n", "GROUP", "TYPE", "PARTITION", "SOURCE POS",
                "RESUMED AT", "FIRST READ", "REPLAYED", "LOST");
        for (Resumption r : report) {
            out.printf("%-10s %-9s %-9d %12d %12d %12d %9d %6d%n", r.group(), r.groupType(), r.partition(),
                    r.sourcePosition(), r.resumedAt(), r.firstRecord(), r.replayed(), r.lost());
        }
        long lost = report.stream().mapToLong(Resumption::lost).sum();
        long replayed = report.stream().mapToLong(Resumption::replayed).sum();
        say("Failover done: records lost: " + lost + ", records replayed: " + replayed
                + " (replay is bounded by MirrorMaker 2's offset-sync spacing, offset.lag.max=100 here).");
    }

    private void say(String line) {
        out.println(line);
        out.flush();
    }
}
