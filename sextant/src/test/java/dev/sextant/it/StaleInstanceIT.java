package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sextant.testing.BackwardsSampler;
import dev.sextant.testing.Cli;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testing.SextantProcess;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.ChildJvm;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.FreePorts;
import dev.sextant.testkit.HoldingProxy;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.LocalKafkaBroker;
import io.micrometer.core.instrument.Counter;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stale instance: instance A (a child JVM) reaches the destination through a proxy that holds back one kind of
 * Kafka call, so that A has a write on its way; then A is frozen (SIGSTOP) until the source's coordinator gives its
 * tasks to instance B, B writes a newer commit, and A and its held call are let go.
 *
 * <ol>
 *   <li>The answer to A's read of the destination offsets is held: when it arrives, what A read is older than what
 *       B wrote. A's write lease ran out while it was frozen, so A does not write: no offset ever moves
 *       backwards.</li>
 *   <li>A's offset write itself is held, already sent: it lands after B's newer one. B audits the groups it took
 *       over and writes the newer commit again: the destination ends at the newer translation.</li>
 * </ol>
 *
 * <p>The destination is a broker of its own with a second listener that advertises the proxy. Identity translation
 * keeps MirrorMaker 2 out of it.
 */
@ExtendWith(LocalClustersExtension.class)
class StaleInstanceIT {

    private static final String APP = "sextant-it-stale";
    private static final String TOPIC = "stale-ledger";
    private static final int GROUPS = 12;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void aStaleInstancesDelayedWriteNeverLeavesTheDestinationAtAnOlderCommit(LocalClusters clusters,
                                                                             @TempDir Path dir) throws Exception {
        try (HoldingProxy proxy = HoldingProxy.start();
             LocalKafkaBroker destination = LocalKafkaBroker.builder("stale-destination")
                     .extraListener("PROXIED", proxy.targetPort(), proxy.port()).start()) {
            run(clusters, destination, proxy, dir);
        }
    }

    private void run(LocalClusters clusters, LocalKafkaBroker destination, HoldingProxy proxy, Path dir)
            throws Exception {
        clusters.createTopic(clusters.source(), TOPIC, 1);
        clusters.createTopic(destination, TOPIC, 1);
        // the mirror holds the records the groups commit up to: Sextant never writes beyond its log end
        Clients.produceNumbered(destination, TOPIC, 1, 600);
        Map<String, String> common = new LinkedHashMap<>();
        common.put("translation", "identity");
        common.put("replication.policy", "identity");
        common.put("groups.include", "stale-.*");
        common.put("sync.interval.ms", "100");
        common.put("streams.num.stream.threads", "1");
        // a frozen instance loses its tasks after 6 s (the broker's minimum); its write lease is 6 - 1.5 - 1 = 3.5 s
        common.put("streams.main.consumer.session.timeout.ms", "6000");
        common.put("streams.main.consumer.heartbeat.interval.ms", "1500");

        int queryPort = FreePorts.pick(1).get(0);
        Map<String, String> configA = new LinkedHashMap<>(common);
        configA.put("source.bootstrap.servers", clusters.source().bootstrapServers());
        configA.put("destination.bootstrap.servers", proxy.bootstrapServers());
        configA.put("application.id", APP);
        configA.put("state.dir", dir.resolve("state-a").toString());
        configA.put("query.listen", "127.0.0.1:" + queryPort);
        Path logA = dir.resolve("sextant-a.log");
        ChildJvm a = SextantProcess.start(SextantProcess.writeConfig(dir.resolve("a.properties"), configA), logA);
        Map<String, Object> configB = new HashMap<>(common);
        configB.put("destination.bootstrap.servers", destination.bootstrapServers());
        try (Admin source = clusters.admin(clusters.source());
             Admin target = clusters.admin(destination)) {
            Await.until(Duration.ofSeconds(90), "instance A ready (log " + logA + ")",
                    () -> status(queryPort, "/health/ready") == 200);
            commitAll(source, 100);
            awaitAll(target, 100, "A writing");

            // 1. the answer to A's read is held: A must not write what it read once B may own the group
            double plannedBefore = plannedWrites(queryPort);
            proxy.holdResponses(ApiKeys.OFFSET_FETCH.id);
            commitAll(source, 200);
            Await.until(Duration.ofSeconds(30), "A planned a write and waits for its read", () ->
                    plannedWrites(queryPort) > plannedBefore && proxy.held() > 0);
            long frozenAt = System.nanoTime();
            Cli.signal("STOP", a.pid());
            long takeoverMs;
            List<String> backwardsAfterStaleRead;
            try (SextantInstance b = SextantInstance.start(clusters, APP, configB)) {
                awaitAll(target, 200, "B took over A's groups");
                takeoverMs = (System.nanoTime() - frozenAt) / 1_000_000;
                commitAll(source, 300);
                awaitAll(target, 300, "B wrote the newer commit");
                try (BackwardsSampler sampler = new BackwardsSampler(() -> offsets(target))) {
                    proxy.release();
                    Cli.signal("CONT", a.pid());
                    Await.until(Duration.ofSeconds(60), "A back", () -> status(queryPort, "/health/ready") == 200);
                    holdFor(Duration.ofSeconds(8)); // A's late answers arrive and its lease is checked
                    backwardsAfterStaleRead = sampler.backwards();
                }
            }
            assertEquals(List.of(), backwardsAfterStaleRead, "a stale read never becomes a write");
            assertAllAt(target, 300);
            commitAll(source, 350);
            awaitAll(target, 350, "A alone again, writing every group");

            // 2. A's write itself is held, already sent: it lands late, and B writes the newer commit again
            proxy.holdRequests(ApiKeys.OFFSET_COMMIT.id);
            commitAll(source, 400);
            Await.until(Duration.ofSeconds(30), "A's write held in the network", () -> proxy.held() > 0);
            Cli.signal("STOP", a.pid());
            List<String> backwardsAfterLateWrite;
            long repairedMs;
            double repaired;
            try (SextantInstance b = SextantInstance.start(clusters, APP, configB)) {
                awaitAll(target, 400, "B took over A's groups again");
                commitAll(source, 500);
                awaitAll(target, 500, "B wrote the newer commit");
                try (BackwardsSampler sampler = new BackwardsSampler(() -> offsets(target))) {
                    long releasedAt = System.nanoTime();
                    proxy.release();
                    Cli.signal("CONT", a.pid());
                    holdFor(Duration.ofSeconds(2)); // the late write lands
                    awaitAll(target, 500, "the newer commit written again over the late one");
                    repairedMs = (System.nanoTime() - releasedAt) / 1_000_000;
                    holdFor(Duration.ofSeconds(12)); // more than two audits: it stays there
                    backwardsAfterLateWrite = sampler.backwards();
                }
                assertAllAt(target, 500);
                repaired = counter(b, "sextant.stale.writes.repaired");
            }
            // who wrote the newer commit again depends on where the group's task is once A is back: B's audit (counted
            // in sextant_stale_writes_repaired), or A itself, which reads the newer commit once it owns the task again
            boolean leaseUsed = Files.readString(logA).contains("write lease ran out");
            System.out.printf("stale instance: B took A's groups over %d ms after A froze; a held read: 0 "
                            + "backwards moves (A's lease stopped its write: %s); a held write landing late: "
                            + "%d moves seen %s, %.0f repaired by B's audit (the rest by A once back), all at the "
                            + "newer commit %d ms after the release%n", takeoverMs, leaseUsed,
                    backwardsAfterLateWrite.size(), backwardsAfterLateWrite, repaired, repairedMs);
        } finally {
            Cli.signal("CONT", a.pid());
            a.stop(Duration.ofSeconds(30));
        }
    }

    private static String group(int g) {
        return "stale-g" + g;
    }

    private static void commitAll(Admin source, long offset) throws Exception {
        for (int g = 0; g < GROUPS; g++) {
            source.alterConsumerGroupOffsets(group(g), Map.of(new TopicPartition(TOPIC, 0),
                    new OffsetAndMetadata(offset))).all().get(30, TimeUnit.SECONDS);
        }
    }

    private static Map<String, Long> offsets(Admin cluster) {
        Map<String, ListConsumerGroupOffsetsSpec> specs = new HashMap<>();
        for (int g = 0; g < GROUPS; g++) {
            specs.put(group(g),
                    new ListConsumerGroupOffsetsSpec().topicPartitions(List.of(new TopicPartition(TOPIC, 0))));
        }
        Map<String, Long> out = new HashMap<>();
        try {
            var result = cluster.listConsumerGroupOffsets(specs);
            for (String group : specs.keySet()) {
                OffsetAndMetadata om = result.partitionsToOffsetAndMetadata(group).get(10, TimeUnit.SECONDS)
                        .get(new TopicPartition(TOPIC, 0));
                if (om != null) {
                    out.put(group, om.offset());
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("reading group offsets", e);
        }
        return out;
    }

    private static void awaitAll(Admin target, long offset, String what) {
        Map<String, Long> seen = new HashMap<>();
        Await.until(Duration.ofSeconds(60), what + ": every group at " + offset + " (seen " + seen + ")", () -> {
            seen.clear();
            seen.putAll(offsets(target));
            return seen.size() == GROUPS && seen.values().stream().allMatch(o -> o == offset);
        });
    }

    private static void assertAllAt(Admin target, long offset) {
        Map<String, Long> expected = new HashMap<>();
        for (int g = 0; g < GROUPS; g++) {
            expected.put(group(g), offset);
        }
        assertEquals(expected, offsets(target));
    }

    /** Lets time pass while the instances work; nothing is being waited for. */
    private static void holdFor(Duration duration) {
        long end = System.nanoTime() + duration.toNanos();
        Await.until(duration.plusSeconds(5), "time passing", () -> System.nanoTime() >= end);
    }

    private static final Pattern PLANNED = Pattern.compile(
            "^sextant_admin_requests_total\\{[^}]*call=\"alterConsumerGroupOffsets\"[^}]*} ([0-9.eE+]+)$",
            Pattern.MULTILINE);

    /** A's count of planned consumer-group writes, from its Prometheus endpoint; -1 while it does not answer. */
    private static double plannedWrites(int port) {
        HttpResponse<String> metrics = get(port, "/metrics");
        if (metrics == null || metrics.statusCode() != 200) {
            return -1;
        }
        Matcher m = PLANNED.matcher(metrics.body());
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    private static int status(int port, String path) {
        HttpResponse<String> response = get(port, path);
        return response == null ? -1 : response.statusCode();
    }

    private static HttpResponse<String> get(int port, String path) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return null; // not up yet, or frozen
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static double counter(SextantInstance instance, String name) {
        Counter counter = instance.registry().find(name).counter();
        return counter == null ? 0 : counter.count();
    }
}
