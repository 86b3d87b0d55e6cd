package dev.sextant.query;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The HTTP API's OpenAPI 3.1 description, {@code GET /v1/openapi.yaml}: docs/openapi.yaml, which the build copies
 * into the jar (one copy, so what is served is what is published). Read once.
 */
final class OpenApiDescription {

    /** RFC 9512's media type for YAML. */
    static final String YAML_TYPE = "application/yaml";
    static final String RESOURCE = "openapi.yaml";
    private static final byte[] CONTENT = load();

    private OpenApiDescription() {
    }

    private static byte[] load() {
        try (InputStream in = OpenApiDescription.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the OpenAPI description " + RESOURCE + " is missing from the jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Reply reply() {
        return new Reply(200, YAML_TYPE, Map.of("Cache-Control", "no-cache"), CONTENT);
    }
}
