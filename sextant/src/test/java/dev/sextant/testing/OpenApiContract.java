package dev.sextant.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * docs/openapi.yaml as a contract to check answers of the HTTP API against: the documented response of an operation
 * for a status (or its {@code default}), its media type and required headers, and its JSON body validated with the
 * OpenAPI 3.1 schema dialect. Validation is strict where the description is open: an object schema with
 * {@code properties} accepts no other property, so a field the server writes and the description does not name fails.
 * It records which documented responses were checked, so a test can tell which it never saw.
 */
public final class OpenApiContract {

    /** Where the description is published; the jar serves the same file (the build copies it). */
    public static final String FILE = "docs/openapi.yaml";
    private static final String BASE = "https://sextant.invalid/openapi.json";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SCHEMAS = "#/components/schemas/";
    private static final String DEFINITIONS = "#/$defs/";

    private final JsonNode document;
    private final SchemaRegistry registry;
    private final Set<String> checked = new TreeSet<>();

    private OpenApiContract(JsonNode document) {
        this.document = document;
        // the schemas alone, as the $defs of one schema document (the rest of the description is no schema)
        ObjectNode definitions = JSON.createObjectNode();
        definitions.set("$defs", strict(document.get("components").get("schemas").deepCopy()));
        String schemas = definitions.toString().replace("\"" + SCHEMAS, "\"" + DEFINITIONS);
        this.registry = SchemaRegistry.withDialect(Dialects.getOpenApi31(), builder ->
                builder.schemas(Map.of(BASE, schemas)));
    }

    /** The published file, from the build's root (the parent of the module the tests run in). */
    public static OpenApiContract load() {
        return new OpenApiContract(read(file()));
    }

    public static Path file() {
        Path module = Paths.get(System.getProperty("basedir", ".")).toAbsolutePath().normalize();
        return module.getParent().resolve(FILE);
    }

    public static JsonNode read(Path file) {
        try {
            return new YAMLMapper().readTree(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    public JsonNode document() {
        return document;
    }

    /** The documented path templates. */
    public Set<String> paths() {
        Set<String> out = new TreeSet<>();
        document.get("paths").fieldNames().forEachRemaining(out::add);
        return out;
    }

    /** Every documented response as {@code "GET <template> <status>"} (status {@code default} included). */
    public Set<String> responses() {
        Set<String> out = new TreeSet<>();
        document.get("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(op -> {
            if (op.getValue().has("responses")) {
                op.getValue().get("responses").fieldNames().forEachRemaining(status -> out.add(
                        op.getKey().toUpperCase(Locale.ROOT) + " " + path.getKey() + " " + status));
            }
        }));
        return out;
    }

    /** The responses {@link #check} was given an answer for, as in {@link #responses()}. */
    public Set<String> checked() {
        return new TreeSet<>(checked);
    }

    /** The documented template a raw path (percent-encoded, without its query) matches, or null. */
    public String template(String rawPath) {
        List<String> segments = List.of(rawPath.substring(1).split("/", -1));
        for (String template : paths()) {
            List<String> expected = List.of(template.substring(1).split("/", -1));
            if (expected.size() != segments.size()) {
                continue;
            }
            boolean matches = true;
            for (int i = 0; i < expected.size() && matches; i++) {
                String decoded = URLDecoder.decode(segments.get(i), StandardCharsets.UTF_8);
                matches = expected.get(i).startsWith("{") ? !decoded.isEmpty() : expected.get(i).equals(decoded);
            }
            if (matches) {
                return template;
            }
        }
        return null;
    }

    /**
     * Checks one answer to {@code GET pathAndQuery}: the path is documented, the status is (or {@code default}
     * covers it), the content type is one the response documents, its required headers are there, and a JSON body
     * validates against the documented schema.
     *
     * @param headers the answer's headers, names in lower case
     * @return the documented response that was checked, as in {@link #responses()}
     * @throws AssertionError naming every difference
     */
    public String check(String pathAndQuery, int status, String contentType, Map<String, String> headers,
                        String body) {
        String rawPath = pathAndQuery.contains("?") ? pathAndQuery.substring(0, pathAndQuery.indexOf('?'))
                : pathAndQuery;
        String template = template(rawPath);
        String what = "GET " + pathAndQuery + " -> " + status;
        if (template == null) {
            throw new AssertionError(what + ": the path is not in " + FILE);
        }
        JsonNode responses = document.get("paths").get(template).get("get").get("responses");
        String key = responses.has(Integer.toString(status)) ? Integer.toString(status) : "default";
        if (!responses.has(key)) {
            throw new AssertionError(what + ": status " + status + " is not documented for GET " + template);
        }
        List<String> problems = problems(resolve(responses.get(key)), contentType, headers, body);
        if (!problems.isEmpty()) {
            throw new AssertionError(what + " does not match " + FILE + " (GET " + template + " " + key + "):\n  "
                    + String.join("\n  ", problems) + "\nbody: " + body);
        }
        String checkedResponse = "GET " + template + " " + key;
        checked.add(checkedResponse);
        return checkedResponse;
    }

    /** How an answer differs from the documented response: media type, required headers, JSON body. */
    private List<String> problems(JsonNode response, String contentType, Map<String, String> headers, String body) {
        List<String> problems = new ArrayList<>();
        String mediaType = contentType == null ? "" : contentType.split(";")[0].trim().toLowerCase(Locale.ROOT);
        JsonNode content = response.path("content");
        if (!content.has(mediaType)) {
            problems.add("content type " + contentType + " is not one of " + names(content));
        }
        response.path("headers").fields().forEachRemaining(h -> {
            if (resolve(h.getValue()).path("required").asBoolean(false)
                    && !headers.containsKey(h.getKey().toLowerCase(Locale.ROOT))) {
                problems.add("required header " + h.getKey() + " missing");
            }
        });
        if (content.has(mediaType) && mediaType.equals("application/json")) {
            problems.addAll(validate(content.get(mediaType).get("schema"), body));
        } else if (content.has(mediaType) && body.isEmpty()) {
            problems.add("empty body");
        }
        return problems;
    }

    private List<String> validate(JsonNode schema, String body) {
        JsonNode instance;
        try {
            instance = JSON.readTree(body);
        } catch (IOException e) {
            return List.of("the body is not JSON: " + e.getMessage());
        }
        if (!schema.has("$ref") || !schema.get("$ref").asText().startsWith(SCHEMAS)) {
            throw new IllegalStateException("a JSON response's schema is a $ref to " + SCHEMAS + ": " + schema);
        }
        Schema validator = registry.getSchema(SchemaLocation.of(BASE + DEFINITIONS
                + schema.get("$ref").asText().substring(SCHEMAS.length())));
        List<String> problems = new ArrayList<>();
        for (Error error : validator.validate(instance)) {
            problems.add(error.toString());
        }
        return problems;
    }

    /** Follows an OpenAPI {@code $ref} (to a response, header or parameter) within the document. */
    private JsonNode resolve(JsonNode node) {
        if (node.has("$ref")) {
            return document.at(node.get("$ref").asText().substring(1));
        }
        return node;
    }

    private static List<String> names(JsonNode node) {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }

    /** Every object schema with {@code properties} and no word on others gets {@code additionalProperties: false}. */
    private static JsonNode strict(JsonNode node) {
        if (node.isObject()) {
            ObjectNode object = (ObjectNode) node;
            if (object.has("properties") && object.get("properties").isObject()
                    && !object.has("additionalProperties")) {
                object.put("additionalProperties", false);
            }
            for (Iterator<JsonNode> children = object.elements(); children.hasNext(); ) {
                strict(children.next());
            }
        } else if (node.isArray()) {
            node.forEach(OpenApiContract::strict);
        }
        return node;
    }
}
