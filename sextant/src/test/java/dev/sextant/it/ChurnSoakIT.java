package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.testing.SextantProcess;
import dev.sextant.testing.StopLog;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.ChildJvm;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Churning group ids (console consumers, batch jobs, per-run ids) against {@code bin/sextant run} in its own JVM:
 * 20,000 short-lived groups, in two rounds of 10,000, each commits once, is synced, and is deleted on the source.
 * What Sextant holds for them (positions, group records, the names it has seen) must go with them: the heap after a
 * full collection, and the resident set, stay flat from one round to the next.
 */
@Tag("soak")
@ExtendWith(LocalClustersExtension.class)
class ChurnSoakIT {

    private static final String TOPIC = "churn-ledger";
    private static final int ROUND = 10_000;
    private static final Duration SYNCED = Duration.ofSeconds(180);
    private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");
    /** Group commits in flight on the source's Admin client at most. */
    private static final int COMMIT_BATCH = 500;
    private static final Pattern TRACKED = Pattern.compile("(?m)^sextant_groups_tracked(?:\\{[^}]*})? ([0-9.eE+]+)$");
    /** Growth from the first round's end to the second's allowed for noise (JIT, pools): far below a leak's. */
    private static final long FLAT_HEAP_MB = 8;
    private static final long FLAT_RSS_MB = 48;

    @Test
    void theHeapAndTheResidentSetStayFlatWhileGroupIdsChurn(LocalClusters clusters, @TempDir Path dir)
            throws Exception {
        clusters.createTopic(clusters.source(), TOPIC, 1);
        clusters.createTopic(clusters.destination(), TOPIC, 1);
        Clients.produceNumbered(clusters.source(), TOPIC, 1, 100);
        Clients.produceNumbered(clusters.destination(), TOPIC, 1, 100);
        int port = freePort();
        Map<String, String> config = new LinkedHashMap<>();
        config.put("source.bootstrap.servers", clusters.source().bootstrapServers());
        config.put("destination.bootstrap.servers", clusters.destination().bootstrapServers());
        config.put("application.id", "sextant-it-churn");
        config.put("state.dir", dir.resolve("state").toString());
        config.put("translation", "identity");
        config.put("replication.policy", "identity");
        config.put("groups.include", "churn-.*");
        config.put("query.listen", "127.0.0.1:" + port);
        Path file = SextantProcess.writeConfig(dir.resolve("sextant.properties"), config);
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        ChildJvm sextant = SextantProcess.start(file, dir.resolve("sextant.log"));
        try (Admin source = clusters.admin(clusters.source());
             Admin destination = clusters.admin(clusters.destination())) {
            Await.until(Duration.ofSeconds(120), "Sextant ready",
                    () -> status(http, port, "/health/ready") == 200);
            churn(source, destination, http, port, "churn-warmup-", 2_000); // JIT, pools and caches warm
            Memory baseline = Memory.settled(sextant);
            List<Memory> rounds = new ArrayList<>();
            List<Double> seconds = new ArrayList<>();
            for (String round : List.of("churn-a-", "churn-b-")) {
                long started = System.nanoTime();
                churn(source, destination, http, port, round, ROUND);
                seconds.add((System.nanoTime() - started) / 1e9);
                rounds.add(Memory.settled(sextant));
            }
            System.out.printf("group churn: %,d short-lived groups in two rounds (%.0f s, %.0f s: commit once, "
                    + "synced, deleted); heap after a full GC %d -> %d -> %d MiB, resident set %d -> %d -> %d "
                    + "MiB (baseline after a warm-up of 2,000, after round 1, after round 2)%n", 2 * ROUND,
                    seconds.get(0), seconds.get(1), baseline.heapMb(), rounds.get(0).heapMb(),
                    rounds.get(1).heapMb(), baseline.rssMb(), rounds.get(0).rssMb(), rounds.get(1).rssMb());
            assertTrue(rounds.get(1).heapMb() - rounds.get(0).heapMb() <= FLAT_HEAP_MB,
                    "heap grew from round to round: " + rounds);
            assertTrue(rounds.get(1).heapMb() - baseline.heapMb() <= 2 * FLAT_HEAP_MB,
                    "heap kept what the gone groups left: " + baseline + " " + rounds);
            assertTrue(rounds.get(1).rssMb() - rounds.get(0).rssMb() <= FLAT_RSS_MB,
                    "resident set grew from round to round: " + rounds);
        } finally {
            sextant.stop(Duration.ofSeconds(30));
        }
        StopLog.assertQuiet(dir.resolve("sextant.log"));
    }

    /** {@code count} new groups commit once; once all are on the destination, they are deleted on the source. */
    private static void churn(Admin source, Admin destination, HttpClient http, int port, String prefix, int count)
            throws Exception {
        double before = tracked(http, port);
        TopicPartition tp = new TopicPartition(TOPIC, 0);
        List<KafkaFuture<Void>> commits = new ArrayList<>();
        List<String> groups = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String group = prefix + i;
            groups.add(group);
            commits.add(source.alterConsumerGroupOffsets(group, Map.of(tp, new OffsetAndMetadata(50 + i % 50)))
                    .all());
            // a batch at a time: every call queued on the client counts down its own 60 s timeout, and 10,000 at
            // once outlived it on a loaded machine ("Timed out waiting to send the call")
            if (commits.size() == COMMIT_BATCH || i == count - 1) {
                KafkaFuture.allOf(commits.toArray(KafkaFuture[]::new)).get(120, TimeUnit.SECONDS);
                commits.clear();
            }
        }
        Await.until(SYNCED, count + " groups " + prefix + "* on the destination",
                () -> groupsWith(destination, prefix) >= count);
        source.deleteConsumerGroups(groups).all().get(120, TimeUnit.SECONDS);
        Await.until(SYNCED, "Sextant forgot the groups " + prefix + "*", () -> tracked(http, port) <= before);
    }

    private static long groupsWith(Admin admin, String prefix) {
        try {
            Set<String> ids = admin.listGroups().all().get(30, TimeUnit.SECONDS).stream()
                    .map(GroupListing::groupId).filter(g -> g.startsWith(prefix)).collect(Collectors.toSet());
            return ids.size();
        } catch (Exception e) {
            return -1;
        }
    }

    /** What the instance's own gauge says it holds state for. */
    private static double tracked(HttpClient http, int port) {
        Matcher m = TRACKED.matcher(get(http, port, "/metrics"));
        return m.find() ? Double.parseDouble(m.group(1)) : Double.MAX_VALUE;
    }

    private static int status(HttpClient http, int port, String path) {
        try {
            return http.send(request(port, path), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static String get(HttpClient http, int port, String path) {
        try {
            return http.send(request(port, path), HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    private static HttpRequest request(int port, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** The child's heap after a full collection ({@code jcmd GC.run}, then {@code GC.heap_info}) and its RSS. */
    private record Memory(long heapMb, long rssMb) {

        /**
         * Measured until two measurements a poll apart agree on the heap within 2 MiB: what a Streams commit or a
         * flush still held a moment ago is gone then.
         */
        static Memory settled(ChildJvm jvm) {
            Memory[] last = new Memory[1];
            return Await.value(Duration.ofSeconds(60), "the heap settled", () -> {
                Memory now = of(jvm);
                Memory before = last[0];
                last[0] = now;
                return before != null && Math.abs(now.heapMb() - before.heapMb()) <= 2 ? now : null;
            });
        }

        static Memory of(ChildJvm jvm) {
            try {
                return measure(jvm);
            } catch (Exception e) {
                throw new IllegalStateException("cannot measure " + jvm, e);
            }
        }

        private static Memory measure(ChildJvm jvm) throws Exception {
            jcmd(jvm.pid(), "GC.run");
            Matcher m = HEAP_USED.matcher(jcmd(jvm.pid(), "GC.heap_info"));
            long heapKb = m.find() ? Long.parseLong(m.group(1)) : -1;
            long rssKb = Files.readAllLines(Path.of("/proc/" + jvm.pid() + "/status")).stream()
                    .filter(l -> l.startsWith("VmRSS:")).map(l -> l.replaceAll("\\D", "")).mapToLong(Long::parseLong)
                    .findFirst().orElse(-1);
            return new Memory(heapKb / 1024, rssKb / 1024);
        }

        private static String jcmd(long pid, String command) throws Exception {
            Path tool = Path.of(System.getProperty("java.home"), "bin", "jcmd");
            Process p = new ProcessBuilder(tool.toString(), Long.toString(pid), command).redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("jcmd " + command + " failed: " + out);
            }
            return out;
        }
    }
}
