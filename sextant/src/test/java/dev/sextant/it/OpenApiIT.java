package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.SextantApplication;
import dev.sextant.config.SextantConfig;
import dev.sextant.config.SextantConfigLoader;
import dev.sextant.domain.Reason;
import dev.sextant.testing.DeadLetters;
import dev.sextant.testing.OpenApiContract;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/openapi.yaml against a running Sextant (with a bearer token, syncing one group and refusing another): every
 * documented operation is called and every documented response but the 503s is produced (OpenApiDescriptionTest
 * produces those on the server code with a rebalancing backend), each answer's status, media type, required headers
 * and body validated against the description, no undocumented field allowed.
 */
@ExtendWith(LocalClustersExtension.class)
class OpenApiIT {

    private static final String TOPIC = "openapi-orders";
    private static final String MIRRORED = "source." + TOPIC;
    private static final String TOKEN = "openapi-it-token";
    private static final Duration SETTLED = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final OpenApiContract contract = OpenApiContract.load();
    private String base;

    private record Answer(int status, String contentType, Map<String, String> headers, String body) {
    }

    @Test
    void everyDocumentedAnswerOfARunningSextantMatchesTheDescription(LocalClusters clusters, @TempDir Path stateDir)
            throws Exception {
        clusters.createTopic(clusters.source(), TOPIC, 2);
        Clients.produceNumbered(clusters.source(), TOPIC, 2, 500);
        clusters.awaitMirrored(TOPIC, SETTLED);
        // as `sextant run` makes it: with the Prometheus registry /metrics serves
        SextantConfig config = SextantConfigLoader.load(SextantInstance.config(clusters, "sextant-it-openapi", stateDir,
                Map.of("groups.include", "openapi-.*", "query.auth.token", TOKEN)), Map.of());
        try (SextantApplication sextant = new SextantApplication(config,
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))) {
            sextant.start();
            Await.until(SETTLED, "Sextant running", () -> sextant.streams().state() == KafkaStreams.State.RUNNING);
            base = "http://" + sextant.queryAddress();
            // one group that syncs, one the destination refuses (someone else committed it there): a conflict
            Clients.commit(clusters.destination(), "openapi-diverged", MIRRORED, Map.of(0, 5L));
            Clients.commit(clusters.source(), "openapi-diverged", TOPIC, Map.of(0, 300L));
            Clients.commit(clusters.source(), "openapi-billing", TOPIC, Map.of(0, 400L, 1, 420L));
            Await.until(SETTLED, "openapi-billing synced", () ->
                    Clients.committed(clusters, clusters.destination(), "openapi-billing", MIRRORED).size() == 2);
            DeadLetters.await(clusters, "openapi-diverged", Reason.DESTINATION_DIVERGED, SETTLED);

            JsonNode groups = JSON.readTree(settled("/v1/groups").body());
            assertEquals(2, groups.get("groups").size(), groups.toString());
            checked("/v1/groups/openapi-billing", 200);
            checked("/v1/groups/openapi-diverged", 200);
            JsonNode offsets = JSON.readTree(checked("/v1/groups/openapi-billing/offsets", 200).body());
            assertEquals(2, offsets.get("offsets").size(), offsets.toString());
            checked("/v1/groups/openapi-nobody", 404);
            checked("/v1/groups/openapi-nobody/offsets", 404);
            checked("/v1/translate?topic=" + TOPIC + "&partition=0&offset=400", 200);
            checked("/v1/translate?topic=" + TOPIC + "&partition=0", 400);
            checked("/v1/translate?topic=openapi-not-mirrored&partition=0&offset=1", 404);
            JsonNode conflicts = JSON.readTree(checked("/v1/conflicts?group=openapi-diverged", 200).body());
            assertTrue(conflicts.get("conflicts").size() > 0, conflicts.toString());
            checked("/v1/conflicts", 200);
            checked("/v1/conflicts?limit=0", 400);
            checked("/v1/instances", 200);
            checked("/v1/openapi.yaml", 200);
            checked("/internal/v1/local-groups", 200);
            checked("/v1/cutovers", 200);
            checked("/internal/v1/local-cutovers", 200);
            checked("/health/live", 200);
            checked("/health/ready", 200);
            checked("/metrics", 200);
            checked("/", 200);
            for (String file : new String[] {"index.html", "app.js", "style.css"}) {
                checked("/ui/" + file, 200);
            }
            checked("/ui/nothing.js", 404);

            Map<String, String> examples = examples();
            for (Map.Entry<String, String> path : examples.entrySet()) {
                String example = path.getValue();
                JsonNode security = contract.document().at("/paths/" + path.getKey().replace("~", "~0")
                        .replace("/", "~1") + "/get/security");
                boolean open = security.isArray() && security.size() == 1 && security.get(0).isEmpty();
                if (!open) {
                    check(example, send("GET", example, false, null), 401);
                }
                // every path's default answer (an error body): a method other than GET/HEAD, and a body
                check(example, send("POST", example, true, null), 405);
                check(example, send("GET", example, true, "a body"), 413);
            }

            Set<String> notProduced = new TreeSet<>(contract.responses());
            notProduced.removeAll(contract.checked());
            Set<String> unavailable = new TreeSet<>(contract.responses().stream().filter(r -> r.endsWith(" 503"))
                    .toList());
            assertEquals(unavailable, notProduced, "documented answers not produced here (only the 503s may be: "
                    + "OpenApiDescriptionTest produces them)");
            System.out.printf("OpenAPI: %d documented answers of %d paths checked against a running Sextant "
                    + "(%d 503s left to OpenApiDescriptionTest)%n", contract.checked().size(), examples.size(),
                    unavailable.size());
        }
    }

    /** A concrete path for every documented template. */
    private Map<String, String> examples() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String template : contract.paths()) {
            out.put(template, template.replace("{group}", "openapi-billing").replace("{file}", "app.js"));
        }
        return out;
    }

    private Answer settled(String pathAndQuery) {
        Answer answer = Await.value(SETTLED, pathAndQuery + " answered", () -> {
            Answer a = send("GET", pathAndQuery, true, null);
            return a.status() == 503 ? null : a;
        });
        check(pathAndQuery, answer, 200);
        return answer;
    }

    private Answer checked(String pathAndQuery, int status) {
        Answer answer = send("GET", pathAndQuery, true, null);
        check(pathAndQuery, answer, status);
        return answer;
    }

    private void check(String pathAndQuery, Answer answer, int status) {
        assertEquals(status, answer.status(), pathAndQuery + ": " + answer.body());
        contract.check(pathAndQuery, answer.status(), answer.contentType(), answer.headers(), answer.body());
    }

    private Answer send(String method, String pathAndQuery, boolean withToken, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                .timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (withToken) {
            request.header("Authorization", "Bearer " + TOKEN);
        }
        try {
            HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            Map<String, String> headers = new LinkedHashMap<>();
            r.headers().map().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT),
                    String.join(",", values)));
            return new Answer(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), headers, r.body());
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + pathAndQuery + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
