package dev.sextant.query;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** One HTTP answer: status, content type, extra headers and body bytes. */
public record Reply(int status, String contentType, Map<String, String> headers, byte[] body) {

    static final String JSON_TYPE = "application/json";
    static final ObjectMapper JSON = new ObjectMapper();

    public Reply {
        headers = Map.copyOf(headers);
    }

    public static Reply json(int status, Object value) {
        try {
            return new Reply(status, JSON_TYPE, Map.of(), JSON.writeValueAsBytes(value));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    public static Reply ok(Object value) {
        return json(200, value);
    }

    public static Reply text(int status, String contentType, String body) {
        return new Reply(status, contentType, Map.of(), body.getBytes(StandardCharsets.UTF_8));
    }

    public static Reply error(QueryException e) {
        Reply reply = json(e.status(), new Views.ErrorBody(e.getMessage()));
        return e.retryAfterSeconds() == null ? reply
                : reply.withHeader("Retry-After", e.retryAfterSeconds().toString());
    }

    public Reply withHeader(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(name, value);
        return new Reply(status, contentType, more, body);
    }

    public String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }
}
