package dev.sextant.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.metrics.ProcessMemory;
import dev.sextant.testing.SextantProcess;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.ChildJvm;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.FreePorts;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard's queries against what a running {@code sextant run} serves at {@code /metrics}, once it syncs a
 * group: every JVM, process, Kafka Streams and RocksDB meter a panel names is in the scrape (Sextant's own meters,
 * some registered only on their first event, are checked against docs/metrics.md by {@link DeployFilesTest}), and
 * so are {@code sextant_build_info} and the memory gauges. The scrape is kept as
 * {@code target/sextant-metrics-scrape.txt}.
 */
@ExtendWith(LocalClustersExtension.class)
class DashboardMetricsIT {

    private static final String TOPIC = "scrape-orders";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void everyMeterTheDashboardNamesIsInARunningInstancesScrape(LocalClusters clusters, @TempDir Path dir)
            throws Exception {
        clusters.createTopic(clusters.source(), TOPIC, 2);
        Clients.produceNumbered(clusters.source(), TOPIC, 2, 200);
        clusters.awaitMirrored(TOPIC, Duration.ofSeconds(60));
        int port = FreePorts.pick(1).get(0);
        Map<String, String> config = new LinkedHashMap<>();
        config.put("source.bootstrap.servers", clusters.source().bootstrapServers());
        config.put("destination.bootstrap.servers", clusters.destination().bootstrapServers());
        config.put("application.id", "sextant-it-scrape");
        config.put("state.dir", dir.resolve("state").toString());
        config.put("groups.include", "scrape-.*");
        config.put("query.listen", "127.0.0.1:" + port);
        config.put("sync.interval.ms", "100");
        config.put("streams.num.stream.threads", "1");
        TreeSet<String> named = new TreeSet<>();
        new ObjectMapper().readTree(DeployTools.DEPLOY.resolve("grafana/sextant.json").toFile()).path("panels")
                .forEach(p -> p.path("targets").forEach(t -> {
                    // every selector names the instance variable, so a metric name is what stands before a '{'
                    Matcher m = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\{").matcher(t.path("expr").asText());
                    while (m.find()) {
                        named.add(m.group(1));
                    }
                }));
        Path log = dir.resolve("sextant.log");
        ChildJvm sextant = SextantProcess.start(SextantProcess.writeConfig(dir.resolve("sextant.properties"), config),
                log);
        String scrape;
        try {
            Clients.commit(clusters.source(), "scrape-billing", TOPIC, Map.of(0, 100L, 1, 120L));
            Await.until(Duration.ofSeconds(90), "scrape-billing synced (log " + log + ")", () ->
                    Clients.committed(clusters, clusters.destination(), "scrape-billing", "source." + TOPIC)
                            .size() == 2);
            // Kafka Streams' meters are bound as its clients create them, a RocksDB store's a few at a time: wait until
            // every meter the dashboard names is there (or the deadline, and the assertion below names what is not)
            String[] last = {""};
            Await.until(Duration.ofSeconds(60), "every dashboard meter in /metrics", () -> {
                last[0] = metrics(port);
                return missing(named, served(last[0])).isEmpty();
            });
            scrape = last[0];
        } finally {
            sextant.stop(Duration.ofSeconds(30));
        }
        Path kept = DeployTools.ROOT.resolve("sextant/target/sextant-metrics-scrape.txt");
        Files.createDirectories(kept.getParent());
        Files.writeString(kept, scrape);

        TreeSet<String> served = served(scrape);
        TreeSet<String> missing = missing(named, served);
        assertTrue(named.stream().anyMatch(n -> n.startsWith("kafka_stream_state_")), named.toString());
        assertEquals(new TreeSet<>(), missing, "dashboard meters not in a running instance's /metrics (" + kept + ")");

        assertTrue(Pattern.compile("(?m)^sextant_build_info\\{[^}]*version=\"\\d[^\"]*\"[^}]*} 1(\\.0)?$")
                .matcher(scrape).find(), "sextant_build_info in " + kept);
        assertTrue(served.contains("process_resident_memory_bytes"), "process_resident_memory_bytes in " + kept);
        assertEquals(new ProcessMemory().limitBytes().isPresent(), served.contains("sextant_memory_limit_bytes"),
                "sextant_memory_limit_bytes in " + kept + " where the cgroup sets a limit");
        System.out.printf("dashboard: %d meters named, all non-Sextant ones among the %d a running instance serves "
                + "(scrape kept as %s)%n", named.size(), served.size(), kept);
    }

    /** The meter names a scrape serves. */
    private static TreeSet<String> served(String scrape) {
        TreeSet<String> served = new TreeSet<>();
        Matcher sample = Pattern.compile("(?m)^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]").matcher(scrape);
        while (sample.find()) {
            served.add(sample.group(1));
        }
        return served;
    }

    /** The dashboard's meters of Kafka's clients and the JVM that a scrape does not serve (Sextant's own aside). */
    private static TreeSet<String> missing(Set<String> named, Set<String> served) {
        TreeSet<String> missing = new TreeSet<>();
        for (String name : named) {
            if (!name.startsWith("sextant_") && !name.equals("up") && !served.contains(name)) {
                missing.add(name);
            }
        }
        return missing;
    }

    private static String metrics(int port) {
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/metrics")).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? response.body() : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
