package dev.sextant.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sextant.client.SextantClient;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.GroupKind;
import dev.sextant.domain.Reason;
import dev.sextant.state.GroupRecord;
import dev.sextant.state.PositionStatus;
import dev.sextant.testing.OpenApiContract;
import dev.sextant.translate.Precision;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/openapi.yaml against the code: every route QueryApi registers is documented and nothing else, every field of
 * every JSON view is a documented (and always present) property, the enums name every value Sextant writes, the
 * server serves the published file, and the answers a healthy cluster never gives (503 while rebalancing, DOWN) match
 * their documented shape on the real server code. OpenApiIT checks the other answers against a running Sextant.
 */
class OpenApiDescriptionTest {

    private static final OpenApiContract CONTRACT = OpenApiContract.load();
    private static final JsonNode SCHEMAS = CONTRACT.document().get("components").get("schemas");

    /** Each JSON view the server writes and the schema that documents it. */
    private static final Map<Class<? extends Record>, String> VIEWS = views();

    private static Map<Class<? extends Record>, String> views() {
        Map<Class<? extends Record>, String> views = new LinkedHashMap<>();
        views.put(Views.GroupList.class, "GroupList");
        views.put(Views.GroupSummary.class, "GroupSummary");
        views.put(Views.GroupDetail.class, "GroupDetail");
        views.put(Views.PartitionView.class, "PartitionPosition");
        views.put(Views.CutoverView.class, "Cutover");
        views.put(Views.GroupOffsets.class, "GroupOffsets");
        views.put(Views.OffsetView.class, "SeekOffset");
        views.put(Views.TranslationView.class, "Translation");
        views.put(Views.ConflictList.class, "ConflictList");
        views.put(DeadLetterRecord.class, "DeadLetterRecord");
        views.put(DeadLetterRecord.PartitionDetail.class, "ConflictPartition");
        views.put(Views.InstanceList.class, "InstanceList");
        views.put(Views.InstanceView.class, "Instance");
        views.put(Views.Health.class, "Health");
        views.put(Views.DestinationHealth.class, "DestinationHealth");
        views.put(Views.MissingInput.class, "MissingInput");
        views.put(Views.LocalGroups.class, "LocalGroups");
        views.put(Views.CutoverHolders.class, "CutoverHolders");
        views.put(Views.InstanceCutovers.class, "InstanceCutovers");
        views.put(Views.LocalCutovers.class, "LocalCutovers");
        views.put(Views.ErrorBody.class, "Error");
        return views;
    }

    @Test
    void everyRouteTheServerRegistersIsDocumentedAndNothingElse() {
        Set<String> routes = new TreeSet<>(QueryApi.paths());
        Set<String> undocumented = new TreeSet<>(routes);
        undocumented.removeAll(CONTRACT.paths());
        Set<String> notServed = new TreeSet<>(CONTRACT.paths());
        notServed.removeAll(routes);
        assertEquals(Set.of(), undocumented, "routes QueryApi registers that " + OpenApiContract.FILE + " lacks");
        assertEquals(Set.of(), notServed, "paths " + OpenApiContract.FILE + " documents that QueryApi does not serve");
    }

    @Test
    void everyOperationIsAGetWithItsPathParametersDocumented() {
        CONTRACT.document().get("paths").fields().forEachRemaining(path -> {
            List<String> operations = new ArrayList<>();
            path.getValue().fieldNames().forEachRemaining(operations::add);
            assertEquals(List.of("get"), operations, path.getKey() + ": only GET (and HEAD, the same) is served");
            Set<String> declared = new TreeSet<>();
            path.getValue().get("get").path("parameters").forEach(p -> {
                JsonNode parameter = p.has("$ref") ? CONTRACT.document().at(p.get("$ref").asText().substring(1)) : p;
                if (parameter.get("in").asText().equals("path")) {
                    declared.add(parameter.get("name").asText());
                }
            });
            Set<String> inTemplate = Arrays.stream(path.getKey().split("/")).filter(s -> s.startsWith("{"))
                    .map(s -> s.substring(1, s.length() - 1)).collect(Collectors.toCollection(TreeSet::new));
            assertEquals(inTemplate, declared, path.getKey() + ": path parameters");
        });
    }

    @Test
    void everyFieldOfEveryViewIsADocumentedPropertyThatIsAlwaysPresent() {
        Set<String> documented = new TreeSet<>();
        VIEWS.forEach((view, schemaName) -> {
            JsonNode schema = SCHEMAS.get(schemaName);
            assertTrue(schema != null, "schema " + schemaName + " for " + view.getSimpleName());
            List<String> properties = new ArrayList<>();
            schema.get("properties").fieldNames().forEachRemaining(properties::add);
            assertEquals(fields(view), properties, schemaName + ": the fields of " + view.getName() + ", in order");
            List<String> required = new ArrayList<>();
            schema.get("required").forEach(r -> required.add(r.asText()));
            assertEquals(properties, required, schemaName + ": the server writes every field, null or not");
            documented.add(schemaName);
        });
        SCHEMAS.fields().forEachRemaining(s -> assertTrue(!s.getValue().has("properties")
                || documented.contains(s.getKey()), "schema " + s.getKey() + " documents no view the server writes"));
    }

    @Test
    void theClientLibraryReadsOnlyDocumentedFields() {
        Map<Class<? extends Record>, String> client = new LinkedHashMap<>();
        client.put(SextantClient.GroupPositions.class, "GroupDetail");
        client.put(SextantClient.Partition.class, "PartitionPosition");
        client.put(SextantClient.Cutover.class, "Cutover");
        client.put(SextantClient.GroupOffsets.class, "GroupOffsets");
        client.put(SextantClient.Offset.class, "SeekOffset");
        client.put(SextantClient.GroupSummary.class, "GroupSummary");
        client.put(SextantClient.Translation.class, "Translation");
        client.put(SextantClient.Conflict.class, "DeadLetterRecord");
        client.put(SextantClient.ConflictPartition.class, "ConflictPartition");
        client.put(SextantClient.Instance.class, "Instance");
        client.put(SextantClient.InstanceCutovers.class, "InstanceCutovers");
        client.put(SextantClient.Readiness.class, "Health");
        client.forEach((record, schemaName) -> {
            Set<String> properties = new TreeSet<>();
            SCHEMAS.get(schemaName).get("properties").fieldNames().forEachRemaining(properties::add);
            for (String field : fields(record)) {
                assertTrue(properties.contains(field), record.getName() + "." + field + " is not in " + schemaName);
            }
        });
    }

    @Test
    void theEnumsNameEveryValueSextantWrites() {
        assertEquals(names(Stream.of(PositionStatus.values()).map(Enum::name)),
                enumOf(SCHEMAS.at("/PartitionPosition/properties/status")), "partition statuses");
        assertEquals(names(Stream.of(Reason.values()).map(Enum::name)),
                enumOf(SCHEMAS.at("/DeadLetterRecord/properties/reason")), "dead-letter reasons");
        assertEquals(names(Stream.of(Precision.values()).map(Precision::label)), enumOf(SCHEMAS.get("Precision")));
        assertEquals(names(Stream.concat(Stream.of(GroupKind.values()).map(GroupKind::label),
                Stream.of(GroupRecord.STREAMS_PROTOCOL))), enumOf(SCHEMAS.get("GroupType")), "group types");
        // a group's state: its open dead-letter reason, the worst retried status of its partitions, or one of three
        Set<String> states = names(Stream.concat(Stream.of(Reason.values()).map(Enum::name), Stream.of(
                GroupViews.IN_SYNC, GroupViews.NO_OFFSETS, GroupViews.CUT_OVER, PositionStatus.PENDING.name())));
        Set<String> documented = enumOf(SCHEMAS.at("/GroupSummary/properties/state"));
        assertTrue(documented.containsAll(states), "group states not documented: " + difference(states, documented));
        Set<String> possible = new TreeSet<>(states);
        Stream.of(PositionStatus.values()).forEach(s -> possible.add(s.name()));
        assertTrue(possible.containsAll(documented), "documented group states Sextant never writes: "
                + difference(documented, possible));
    }

    /** The check the integration test relies on: it refuses what the description does not say. */
    @Test
    void theContractRefusesAnUndocumentedFieldAMissingOneAWrongTypeAndAnUndocumentedPath() {
        String json = "application/json";
        CONTRACT.check("/v1/groups/g", 404, json, Map.of(), "{\"error\":\"unknown\"}");
        CONTRACT.check("/v1/groups/g/offsets", 200, json, Map.of(), "{\"group\":\"g\",\"groupType\":\"consumer\","
                + "\"offsets\":[{\"topic\":\"source.orders\",\"partition\":0,\"offset\":7}]}");
        for (String body : List.of("{\"error\":\"unknown\",\"more\":1}", "{}", "{\"error\":1}", "[]")) {
            assertThrows(AssertionError.class, () -> CONTRACT.check("/v1/groups/g", 404, json, Map.of(), body), body);
        }
        assertThrows(AssertionError.class, () -> CONTRACT.check("/v1/groups/g/offsets", 200, json, Map.of(),
                "{\"group\":\"g\",\"groupType\":\"consumer\",\"offsets\":[{\"topic\":\"t\",\"partition\":0,"
                        + "\"offset\":7,\"extra\":true}]}"), "an undocumented field in a nested object");
        assertThrows(AssertionError.class, () -> CONTRACT.check("/v1/groups/g", 404, "text/html", Map.of(), "x"));
        assertThrows(AssertionError.class, () -> CONTRACT.check("/v1/nothing", 404, json, Map.of(), "{}"));
        assertThrows(AssertionError.class, () -> CONTRACT.check("/v1/groups", 503, json, Map.of(),
                "{\"error\":\"rebalancing\"}"), "503 without Retry-After");
    }

    @Test
    void theServerServesThePublishedDescription() throws Exception {
        try (FakeBackend backend = new FakeBackend(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))) {
            HttpResponse<String> r = get(backend, QueryApi.OPENAPI_PATH);
            assertEquals(Files.readString(OpenApiContract.file()), r.body(), "the served description is the file");
            CONTRACT.check(QueryApi.OPENAPI_PATH, r.statusCode(), contentType(r), headers(r), r.body());
        }
    }

    /** What a running cluster in good health never answers, each checked against its documented response. */
    @Test
    void theAnswersWhileRebalancingOrDownMatchTheirDescription() throws Exception {
        try (FakeBackend backend = new FakeBackend(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))) {
            backend.state = "REBALANCING";
            backend.livenessProblem = Optional.of("stream threads keep dying");
            List<String> paths = List.of("/v1/groups", "/v1/groups/billing", "/v1/groups/billing/offsets",
                    "/v1/translate?topic=orders&partition=0&offset=1234", QueryApi.LOCAL_GROUPS_PATH,
                    "/health/ready", "/health/live");
            Set<String> checked = new TreeSet<>();
            for (String path : paths) {
                HttpResponse<String> r = get(backend, path);
                assertEquals(503, r.statusCode(), path + ": " + r.body());
                checked.add(CONTRACT.check(path, r.statusCode(), contentType(r), headers(r), r.body()));
            }
            Set<String> documented503 = new TreeSet<>(CONTRACT.responses().stream().filter(s -> s.endsWith(" 503"))
                    .toList());
            assertEquals(documented503, checked, "every documented 503, checked");
        }
    }

    private static HttpResponse<String> get(FakeBackend backend, String pathAndQuery) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(backend.url() + pathAndQuery)).GET()
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    static String contentType(HttpResponse<?> r) {
        return r.headers().firstValue("Content-Type").orElse("");
    }

    static Map<String, String> headers(HttpResponse<?> r) {
        Map<String, String> out = new LinkedHashMap<>();
        r.headers().map().forEach((name, values) -> out.put(name.toLowerCase(Locale.ROOT), String.join(",", values)));
        return out;
    }

    private static List<String> fields(Class<? extends Record> record) {
        return Arrays.stream(record.getRecordComponents()).map(c -> c.getName()).toList();
    }

    private static Set<String> enumOf(JsonNode schema) {
        Set<String> out = new TreeSet<>();
        schema.get("enum").forEach(v -> out.add(v.asText()));
        return out;
    }

    private static Set<String> names(Stream<String> names) {
        return names.collect(Collectors.toCollection(TreeSet::new));
    }

    private static Set<String> difference(Set<String> a, Set<String> b) {
        Set<String> out = new TreeSet<>(a);
        out.removeAll(b);
        return out;
    }
}
