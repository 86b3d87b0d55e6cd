package dev.sextant.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.config.HostAndPort;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The HTTP contract on a real socket, with routing and stores faked: bad input is a 4xx JSON answer naming what is
 * wrong (never a 500), rebalancing is a 503 with Retry-After, and the documents have the documented fields.
 */
class QueryServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    private FakeBackend backend;

    @BeforeEach
    void start() {
        backend = new FakeBackend(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        backend.groups.put("billing", new Views.GroupDetail("billing", "consumer", List.of(
                new Views.PartitionView("orders", 0, "source.orders", 1234, 1230L, "bounded", 3L, 1230L, 99L,
                        "APPLIED"),
                new Views.PartitionView("orders", 1, "source.orders", 50, null, null, null, null, null,
                        "UNTRANSLATABLE"))));
        backend.translations.put("orders-0@1234", new Views.TranslationView("orders", 0, 1234, "source.orders", 1230,
                "bounded", 3));
    }

    @AfterEach
    void stop() {
        backend.close();
    }

    private HttpResponse<String> get(String pathAndQuery) throws IOException, InterruptedException {
        return send("GET", pathAndQuery);
    }

    private HttpResponse<String> send(String method, String pathAndQuery) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(backend.url() + pathAndQuery))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode assertJsonError(HttpResponse<String> response, int status, String mentions)
            throws IOException {
        assertEquals(status, response.statusCode(), response.body());
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElse(""));
        JsonNode body = JSON.readTree(response.body());
        assertTrue(body.hasNonNull("error"), response.body());
        assertTrue(body.get("error").asText().contains(mentions), "'" + mentions + "' in " + response.body());
        return body;
    }

    // ------------------------------------------------------------------------------------------- bad parameters

    @Test
    void translateWithoutTopicIs400() throws Exception {
        assertJsonError(get("/v1/translate?partition=0&offset=1"), 400, "'topic'");
    }

    @Test
    void translateWithEmptyTopicIs400() throws Exception {
        assertJsonError(get("/v1/translate?topic=&partition=0&offset=1"), 400, "'topic'");
    }

    @Test
    void translateWithoutPartitionIs400() throws Exception {
        assertJsonError(get("/v1/translate?topic=orders&offset=1"), 400, "'partition'");
    }

    @Test
    void translateWithNegativePartitionIs400() throws Exception {
        assertJsonError(get("/v1/translate?topic=orders&partition=-1&offset=1"), 400, "'partition'");
    }

    @Test
    void translateWithNonNumericPartitionIs400() throws Exception {
        assertJsonError(get("/v1/translate?topic=orders&partition=zero&offset=1"), 400, "'partition'");
    }

    @Test
    void translateWithPartitionBeyondIntIs400() throws Exception {
        assertJsonError(get("/v1/translate?topic=orders&partition=3000000000&offset=1"), 400, "'partition'");
    }

    @Test
    void translateWithoutOffsetIs400() throws Exception {
        assertJsonError(get("/v1/translate?topic=orders&partition=0"), 400, "'offset'");
    }

    @Test
    void translateWithNegativeOffsetIs400() throws Exception {
        assertJsonError(get("/v1/translate?topic=orders&partition=0&offset=-5"), 400, "'offset'");
    }

    @Test
    void translateWithNonNumericOffsetIs400() throws Exception {
        assertJsonError(get("/v1/translate?topic=orders&partition=0&offset=1e3"), 400, "'offset'");
    }

    @Test
    void aParameterGivenTwiceIs400() throws Exception {
        assertJsonError(get("/v1/translate?topic=orders&partition=0&partition=1&offset=1"), 400, "'partition'");
    }

    @Test
    void aMalformedQueryStringIs400() throws Exception {
        // the JDK server rejects a request line that is not a URI before any handler runs (400, its own HTML body)
        assertEquals(400, rawStatus("/v1/translate?topic=%zz&partition=0&offset=1"));
        QueryException e = Assertions.assertThrows(QueryException.class,
                () -> QueryParams.parse("topic=%zz"));
        assertEquals(400, e.status());
    }

    @Test
    void conflictsWithNonNumericLimitIs400() throws Exception {
        assertJsonError(get("/v1/conflicts?limit=ten"), 400, "'limit'");
    }

    @Test
    void conflictsWithNegativeLimitIs400() throws Exception {
        assertJsonError(get("/v1/conflicts?limit=-1"), 400, "'limit'");
    }

    @Test
    void conflictsWithZeroLimitIs400() throws Exception {
        assertJsonError(get("/v1/conflicts?limit=0"), 400, "'limit'");
    }

    @Test
    void badParametersAre400EvenWhileRebalancing() throws Exception {
        backend.state = "REBALANCING";
        assertJsonError(get("/v1/translate?topic=orders&partition=x&offset=1"), 400, "'partition'");
    }

    // ------------------------------------------------------------------------------------------- unknown things

    @Test
    void anUnknownGroupIs404() throws Exception {
        assertJsonError(get("/v1/groups/nobody"), 404, "'nobody'");
    }

    @Test
    void theOffsetsOfAnUnknownGroupAre404() throws Exception {
        assertJsonError(get("/v1/groups/nobody/offsets"), 404, "'nobody'");
    }

    @Test
    void anOffsetNothingTranslatesIs404() throws Exception {
        assertJsonError(get("/v1/translate?topic=orders&partition=0&offset=7"), 404, "orders-0 at offset 7");
    }

    @Test
    void anUnknownPathIs404() throws Exception {
        assertJsonError(get("/v2/everything"), 404, "no such path");
    }

    @Test
    void theRootPathIsTheStatusPageAndOnlyItsFilesAreServed() throws Exception {
        HttpResponse<String> page = get("/");
        assertEquals(200, page.statusCode());
        assertTrue(page.headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
        assertTrue(page.body().contains("<script src=\"/ui/app.js\">"), page.body());
        HttpResponse<String> script = get("/ui/app.js");
        assertEquals(200, script.statusCode());
        assertTrue(script.body().contains("/v1/groups"), "the page reads the JSON API");
        assertEquals(200, get("/ui/style.css").statusCode());
        assertJsonError(get("/ui/../../etc/passwd"), 400, "bad request");
        assertJsonError(get("/ui/missing.js"), 404, "no such path");
    }

    @Test
    void aTrailingSlashIs404() throws Exception {
        assertJsonError(get("/v1/groups/"), 404, "no such path");
    }

    @Test
    void anUnknownSubresourceOfAGroupIs404() throws Exception {
        assertJsonError(get("/v1/groups/billing/members"), 404, "no such path");
    }

    @Test
    void aMalformedPathIs400() throws Exception {
        assertEquals(400, rawStatus("/v1/groups/%zz"));
        QueryException e = Assertions.assertThrows(QueryException.class,
                () -> QueryServer.segments("/v1/groups/%zz"));
        assertEquals(400, e.status());
    }

    /** The status of a request sent as raw bytes (java.net.http refuses to send a malformed URI). */
    private int rawStatus(String pathAndQuery) throws IOException {
        URI base = URI.create(backend.url());
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.getOutputStream().write(("GET " + pathAndQuery + " HTTP/1.1\r\nHost: test\r\nConnection: close"
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return Integer.parseInt(response.split(" ", 3)[1]);
        }
    }

    // ------------------------------------------------------------------------------------------- wrong method

    @Test
    void postIs405() throws Exception {
        HttpResponse<String> response = send("POST", "/v1/groups");
        assertJsonError(response, 405, "POST");
        assertEquals("GET, HEAD", response.headers().firstValue("Allow").orElse(""));
    }

    @Test
    void deleteOfAGroupIs405() throws Exception {
        assertJsonError(send("DELETE", "/v1/groups/billing"), 405, "DELETE");
    }

    @Test
    void putOnTranslateIs405() throws Exception {
        assertJsonError(send("PUT", "/v1/translate?topic=orders&partition=0&offset=1"), 405, "PUT");
    }

    // ------------------------------------------------------------------------------------------- not ready

    @Test
    void aGroupWhileRebalancingIs503WithRetryAfter() throws Exception {
        backend.state = "REBALANCING";
        HttpResponse<String> response = get("/v1/groups/billing");
        assertJsonError(response, 503, "REBALANCING");
        assertEquals("1", response.headers().firstValue("Retry-After").orElse(""));
    }

    @Test
    void allGroupsWhileRebalancingIs503() throws Exception {
        backend.state = "REBALANCING";
        assertEquals("1", assertRetryAfter(get("/v1/groups")));
    }

    @Test
    void translateWhileRebalancingIs503() throws Exception {
        backend.state = "REBALANCING";
        assertEquals("1", assertRetryAfter(get("/v1/translate?topic=orders&partition=0&offset=1234")));
    }

    private static String assertRetryAfter(HttpResponse<String> response) throws IOException {
        assertJsonError(response, 503, "retry");
        return response.headers().firstValue("Retry-After").orElse("");
    }

    @Test
    void aStoreThatMovedIs503() throws Exception {
        backend.storeFailure = QueryException.unavailable("state store not queryable right now; retry");
        assertRetryAfter(get("/v1/groups/billing"));
    }

    @Test
    void aForwardedRequestThisInstanceDoesNotOwnIs503NotForwardedAgain() throws Exception {
        backend.owner = new GroupRouter.Remote(new HostAndPort("127.0.0.1", 1));
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(backend.url() + "/v1/groups/billing"))
                        .header(Forwarder.FORWARDED_HEADER, "127.0.0.1:2").GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertJsonError(response, 503, "moving");
    }

    @Test
    void anOwnerThatCannotBeReachedIs503() throws Exception {
        backend.owner = new GroupRouter.Remote(new HostAndPort("127.0.0.1", 1));
        assertJsonError(get("/v1/groups/billing"), 503, "cannot be reached");
    }

    @Test
    void anUnexpectedFailureIs500WithAMessage() throws Exception {
        backend.storeFailure = new IllegalStateException("disk on fire");
        assertJsonError(get("/v1/groups/billing"), 500, "disk on fire");
    }

    // ------------------------------------------------------------------------------------------- documents

    @Test
    void aGroupHasEveryDocumentedFieldWithNullsWhereUnknown() throws Exception {
        HttpResponse<String> response = get("/v1/groups/billing");
        assertEquals(200, response.statusCode(), response.body());
        JsonNode body = JSON.readTree(response.body());
        assertEquals(List.of("group", "groupType", "partitions", "cutOver"), fields(body));
        assertTrue(body.get("cutOver").isNull(), "a group the sync moves has no cutover");
        assertEquals(List.of("topic", "partition", "destinationTopic", "sourceOffset", "translatedOffset", "precision",
                        "bound", "appliedOffset", "appliedAt", "status", "commitTimestamp"),
                fields(body.get("partitions").get(0)));
        assertTrue(body.get("partitions").get(1).get("translatedOffset").isNull());
        assertEquals(1230, body.get("partitions").get(0).get("translatedOffset").asLong());
    }

    @Test
    void offsetsAreDestinationPositionsOfTranslatedPartitions() throws Exception {
        HttpResponse<String> response = get("/v1/groups/billing/offsets");
        assertEquals(200, response.statusCode(), response.body());
        assertEquals("{\"group\":\"billing\",\"groupType\":\"consumer\",\"offsets\":"
                + "[{\"topic\":\"source.orders\",\"partition\":0,\"offset\":1230}]}", response.body());
    }

    @Test
    void aTranslation() throws Exception {
        HttpResponse<String> response = get("/v1/translate?topic=orders&partition=0&offset=1234");
        assertEquals(200, response.statusCode(), response.body());
        assertEquals("{\"topic\":\"orders\",\"partition\":0,\"offset\":1234,\"destinationTopic\":\"source.orders\","
                + "\"destinationOffset\":1230,\"precision\":\"bounded\",\"bound\":3}", response.body());
    }

    @Test
    void groupNamesAreDecodedFromThePath() throws Exception {
        backend.groups.put("a/b+c d", new Views.GroupDetail("a/b+c d", "consumer", List.of()));
        HttpResponse<String> response = get("/v1/groups/a%2Fb+c%20d");
        assertEquals(200, response.statusCode(), response.body());
        assertEquals("a/b+c d", JSON.readTree(response.body()).get("group").asText());
    }

    @Test
    void allGroupsMergeTheInstancesAnswers() throws Exception {
        HttpResponse<String> response = get("/v1/groups");
        assertEquals(200, response.statusCode(), response.body());
        JsonNode group = JSON.readTree(response.body()).get("groups").get(0);
        assertEquals(List.of("group", "groupType", "state", "partitions", "lastSourceCommit", "lastApply",
                "worstReplayBound"), fields(group));
    }

    @Test
    void everyInstanceSaysWhichGroupsItHoldsCutOver() throws Exception {
        backend.cutOver.add("billing");
        HttpResponse<String> response = get("/v1/cutovers");
        assertEquals(200, response.statusCode(), response.body());
        JsonNode instance = JSON.readTree(response.body()).get("instances").get(0);
        assertEquals(List.of("address", "groups", "problem"), fields(instance));
        assertEquals("billing", instance.get("groups").get(0).asText());
        assertTrue(instance.get("problem").isNull());
    }

    @Test
    void conflictsDefaultToFiftyNewestLast() throws Exception {
        HttpResponse<String> response = get("/v1/conflicts?group=billing");
        assertEquals(200, response.statusCode(), response.body());
        JsonNode body = JSON.readTree(response.body());
        assertEquals(50, body.get("limit").asInt());
        assertEquals("GROUP_ACTIVE", body.get("conflicts").get(0).get("reason").asText());
    }

    @Test
    void readinessIs200WhenRunningAndNamesMissingInputs() throws Exception {
        HttpResponse<String> response = get("/health/ready");
        assertEquals(200, response.statusCode(), response.body());
        JsonNode body = JSON.readTree(response.body());
        assertEquals("mm2-offset-syncs.destination.internal", body.get("missingInputs").get(0).get("topic").asText());
    }

    @Test
    void readinessIs503WhileRebalancingBeforeItFirstRanAnd200InARebalanceAfter() throws Exception {
        backend.state = "REBALANCING";
        HttpResponse<String> response = get("/health/ready");
        assertEquals(503, response.statusCode(), response.body());
        JsonNode body = JSON.readTree(response.body());
        assertEquals("REBALANCING", body.get("streamsState").asText());
        assertTrue(body.get("destination").get("ready").asBoolean());
        assertEquals(1, body.get("missingInputs").size());

        backend.state = "RUNNING";
        assertEquals(200, get("/health/ready").statusCode());
        backend.state = "REBALANCING"; // a rebalance of a running instance: its stores still serve
        HttpResponse<String> during = get("/health/ready");
        assertEquals(200, during.statusCode(), during.body());
        assertEquals("REBALANCING", JSON.readTree(during.body()).get("streamsState").asText());
    }

    @Test
    void livenessIs200WhileRebalancingAnd503InError() throws Exception {
        backend.state = "REBALANCING";
        assertEquals(200, get("/health/live").statusCode());
        backend.state = "ERROR";
        assertEquals(503, get("/health/live").statusCode());
    }

    @Test
    void aDestinationUnreachableTooLongIsSaidInTheReadinessBodyWithA200() throws Exception {
        backend.readinessProblem = Optional.of("the destination has been unreachable for 31 s");
        HttpResponse<String> ready = get("/health/ready");
        assertEquals(200, ready.statusCode(), "the instance still serves: no rollout or drain is held up");
        assertEquals("DEGRADED", JSON.readTree(ready.body()).get("status").asText());
        assertTrue(ready.body().contains("unreachable for 31 s"), ready.body());
        assertEquals(200, get("/health/live").statusCode(), "restarting does not bring a destination back");
        backend.readinessProblem = Optional.empty();
        assertEquals(200, get("/health/ready").statusCode());
    }

    @Test
    void livenessIs503WhileStreamThreadsKeepDying() throws Exception {
        backend.livenessProblem = Optional.of("5 stream threads died in the last 10 minutes");
        HttpResponse<String> response = get("/health/live");
        assertEquals(503, response.statusCode());
        assertTrue(response.body().contains("5 stream threads died"), response.body());
        backend.livenessProblem = Optional.empty();
        assertEquals(200, get("/health/live").statusCode());
    }

    @Test
    void metricsArePrometheusText() throws Exception {
        HttpResponse<String> response = get("/metrics");
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
    }

    @Test
    void metricsAre404WithoutAPrometheusRegistry() throws Exception {
        backend.close();
        backend = new FakeBackend(new SimpleMeterRegistry());
        assertJsonError(get("/metrics"), 404, "Prometheus");
    }

    private static List<String> fields(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
