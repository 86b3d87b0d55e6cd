package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.testing.AlertRules;
import dev.sextant.testing.Cli;
import dev.sextant.testing.GroupCommitter;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.LocalKafkaBroker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The destination broker stops answering for 80 s (SIGSTOP: it keeps its connections and answers nothing,
 * like a hung or partitioned broker) while 1,000 groups keep committing on the source. Sextant stays alive, keeps
 * reading, says so within 30 s (readiness still 200, its body DEGRADED with the reason,
 * {@code sextant_destination_up} 0, the oldest pending commit ageing), and once the broker is back every group's
 * last commit is on the destination within 60 s, with fewer than 3 offset writes per group.
 *
 * <p>The destination is a broker of its own, so the outage touches nothing the other tests share (MirrorMaker 2 does
 * not always recover from that long without its target in the time they allow). Identity translation on a topic
 * of the same name on both clusters keeps MirrorMaker 2 out of what is measured.
 */
@ExtendWith(LocalClustersExtension.class)
class DestinationOutageIT {

    private static final String APP = "sextant-it-outage";
    private static final String TOPIC = "outage-ledger";
    private static final int PARTITIONS = 4;
    private static final int GROUPS = 1_000;
    /** Past the 60 s an Admin call waits by default: calls in flight at the start time out during the outage. */
    private static final Duration OUTAGE = Duration.ofSeconds(80);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void aTwoMinuteOutageDelaysTheSyncAndLosesNothing(LocalClusters clusters) throws Exception {
        try (LocalKafkaBroker mirror = LocalKafkaBroker.builder("outage-destination").start()) {
            outage(clusters, mirror);
        }
    }

    private void outage(LocalClusters clusters, LocalKafkaBroker mirror) throws Exception {
        clusters.createTopic(clusters.source(), TOPIC, PARTITIONS);
        clusters.createTopic(mirror, TOPIC, PARTITIONS);
        Clients.produceNumbered(clusters.source(), TOPIC, PARTITIONS, 5_000);
        Clients.produceNumbered(mirror, TOPIC, PARTITIONS, 5_000);
        try (SextantInstance sextant = SextantInstance.start(clusters, APP, Map.of("translation", "identity",
                "replication.policy", "identity", "groups.include", "outage-.*",
                "destination.bootstrap.servers", mirror.bootstrapServers(),
                "health.destination.timeout.ms", "15000"));
             Admin source = clusters.admin(clusters.source());
             Admin destination = clusters.admin(mirror);
             GroupCommitter committer = new GroupCommitter(source, "outage-", TOPIC, PARTITIONS, GROUPS, 5_000)) {
            Await.until(Duration.ofSeconds(120), "every group synced once", () ->
                    committer.offsetsOn(destination).size() == GROUPS);

            long pid = mirror.pid();
            // what Prometheus would scrape, every 15 s: fed to the alert rules' unit test at the end
            List<double[]> scrapes = new ArrayList<>();
            scrapes.add(new double[] {gauge(sextant, "sextant.destination.up"),
                    gauge(sextant, "sextant.sync.oldest.pending.age")});
            long stoppedAt = System.nanoTime();
            Cli.signal("STOP", pid);
            long[] notReadyAfterMs = {-1};
            long[] peakHeap = {0};
            try {
                // readiness says "the process can serve": still 200, the outage in its body
                Await.until(Duration.ofSeconds(30), "the readiness body saying the destination is down", () -> {
                    HttpResponse<String> ready = get(sextant, "/health/ready");
                    if (!ready.body().contains("destination has been unreachable")) {
                        return false;
                    }
                    notReadyAfterMs[0] = (System.nanoTime() - stoppedAt) / 1_000_000;
                    assertEquals(200, ready.statusCode(), ready.body());
                    assertTrue(ready.body().contains("\"status\":\"DEGRADED\""), ready.body());
                    return true;
                });
                // the outage lasts its full length, whatever Sextant does meanwhile
                Await.until(OUTAGE.plusSeconds(30), "the end of the outage", () -> {
                    peakHeap[0] = Math.max(peakHeap[0],
                            ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
                    if (System.nanoTime() - stoppedAt >= scrapes.size() * 15_000_000_000L) {
                        scrapes.add(new double[] {gauge(sextant, "sextant.destination.up"),
                                gauge(sextant, "sextant.sync.oldest.pending.age")});
                    }
                    return System.nanoTime() - stoppedAt >= OUTAGE.toNanos();
                });
                assertEquals(KafkaStreams.State.RUNNING, sextant.app().streams().state(), "it kept running");
                assertEquals(200, get(sextant, "/health/live").statusCode(), "liveness stays up");
                assertEquals(200, get(sextant, "/health/ready").statusCode(), "readiness stays up: it serves");
                assertEquals(0.0, gauge(sextant, "sextant.destination.up"));
                double age = gauge(sextant, "sextant.sync.oldest.pending.age");
                assertTrue(age >= 60, "the oldest pending commit ages while nothing applies: " + age + " s");
            } finally {
                Cli.signal("CONT", pid);
            }
            AlertRules.assertFires("SextantDestinationDown", scrapes);
            Map<String, Long> expected = committer.stop();
            double writesBefore = alterRequests(sextant);
            long resumedAt = System.nanoTime();

            Await.until(Duration.ofSeconds(60), "every group's last commit on the destination", () -> {
                Map<String, Long> there = committer.offsetsOn(destination);
                return expected.entrySet().stream().allMatch(e -> e.getValue().equals(there.get(e.getKey())));
            });
            long caughtUpMs = (System.nanoTime() - resumedAt) / 1_000_000;
            double writesPerGroup = (alterRequests(sextant) - writesBefore) / GROUPS;
            System.out.printf("outage: readiness 200 saying DEGRADED after %d ms; after %d s down, all %d groups "
                            + "caught up %d ms after the broker was back, %.2f offset writes per group; peak heap of "
                            + "the test JVM %d MB%n", notReadyAfterMs[0], OUTAGE.toSeconds(), GROUPS, caughtUpMs,
                    writesPerGroup, peakHeap[0] >> 20);
            assertTrue(writesPerGroup < 3, writesPerGroup + " writes per group");
            Await.until(Duration.ofSeconds(60), "the readiness body clear again", () ->
                    get(sextant, "/health/ready").body().contains("\"status\":\"UP\""));
            assertEquals(1.0, gauge(sextant, "sextant.destination.up"));
        }
    }

    private static double alterRequests(SextantInstance sextant) {
        Counter counter = sextant.registry().find("sextant.admin.requests").tag("call", "alterConsumerGroupOffsets")
                .counter();
        return counter == null ? 0 : counter.count();
    }

    private static double gauge(SextantInstance sextant, String name) {
        Gauge gauge = sextant.registry().find(name).gauge();
        return gauge == null ? Double.NaN : gauge.value();
    }

    private static HttpResponse<String> get(SextantInstance sextant, String path) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://" + sextant.app().queryAddress() + path))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException("GET " + path, e);
        }
    }
}
