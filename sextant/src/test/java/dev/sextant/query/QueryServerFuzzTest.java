package dev.sextant.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Request targets no client library would send, as raw bytes on a socket: every one is answered, a refusal is a 4xx
 * with a JSON body, and none is a 500 (what Jetty accepts, forwarding must accept too).
 */
class QueryServerFuzzTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Percent-encodings that are broken, ambiguous, or decode to something awkward. */
    private static final List<String> ESCAPES = List.of("%", "%z", "%zz", "%0", "%%", "%%41", "%C3%28", "%FF", "%00",
            "%2e%2e", "%2F", "%2F..%2F", "..", "%2e%2e%2F%2e%2e", "%u0041", "%C0%AF", "%E2%82", "+", "%2B", "%20",
            ";", ";a=b", "#", "#frag", "?", "//", "\\", "\\..\\..");

    private FakeBackend front;
    private FakeBackend owner;

    @BeforeEach
    void start() {
        owner = new FakeBackend(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        front = new FakeBackend(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    }

    @AfterEach
    void stop() {
        front.close();
        owner.close();
    }

    /** Every byte value in a group name, a parameter and a forwarded path, raw and after a percent sign. */
    @Test
    void everyByteInThePathOrQueryIsAnsweredWithoutA500() throws Exception {
        front.owner = new GroupRouter.Remote(owner.address());
        List<String> failures = new ArrayList<>();
        for (int b = 0; b < 256; b++) {
            String c = String.valueOf((char) b);
            for (String target : List.of("/v1/groups/a" + c + "b", "/v1/groups/a" + c + "b/offsets",
                    "/v1/translate?topic=a" + c + "b&partition=0&offset=1", "/v1/conflicts?group=" + c,
                    "/health/live?" + c, "/v1/groups/%" + c + "1")) {
                check(front, target, failures);
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " bad answers:\n" + String.join("\n", failures));
    }

    @Test
    void brokenAndAmbiguousPercentEncodingIsAnsweredWithoutA500() throws Exception {
        front.owner = new GroupRouter.Remote(owner.address());
        List<String> failures = new ArrayList<>();
        for (String escape : ESCAPES) {
            for (String target : List.of("/v1/groups/" + escape, "/v1/groups/a" + escape + "b",
                    "/v1/groups/billing/" + escape, "/v1/groups/x?q=" + escape, "/v1/translate?topic=" + escape
                            + "&partition=0&offset=1", "/v1/translate?" + escape, "/" + escape, "/ui/" + escape,
                    "/health/" + escape)) {
                check(front, target, failures);
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " bad answers:\n" + String.join("\n", failures));
    }

    @Test
    void overlongTargetsAre4xxWithAJsonBody() throws Exception {
        List<String> failures = new ArrayList<>();
        for (int length : new int[] {15_000, 17_000, 70_000}) {
            String name = "g".repeat(length);
            check(front, "/v1/groups/" + name, failures);
            check(front, "/v1/translate?topic=" + name + "&partition=0&offset=1", failures);
            check(front, "/" + "a/".repeat(length / 2), failures);
            check(front, "/v1/groups/" + "%41".repeat(length / 3), failures);
        }
        assertTrue(failures.isEmpty(), failures.size() + " bad answers:\n" + String.join("\n", failures));
    }

    /** Random bytes (seeded: a failure is repeatable), a third of them after a percent sign. */
    @Test
    void randomTargetsAreAnsweredWithoutA500() throws Exception {
        front.owner = new GroupRouter.Remote(owner.address());
        Random random = new Random(23);
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            StringBuilder junk = new StringBuilder();
            int length = 1 + random.nextInt(24);
            for (int j = 0; j < length; j++) {
                int pick = random.nextInt(3);
                char printable = (char) (0x21 + random.nextInt(0x5e));
                junk.append(pick == 0 ? '%' : pick == 1 ? printable : (char) random.nextInt(256));
            }
            String[] forms = {"/v1/groups/" + junk, "/v1/groups/" + junk + "/offsets",
                    "/v1/translate?topic=" + junk + "&partition=0&offset=1", "/" + junk};
            check(front, forms[i % forms.length], failures);
        }
        assertTrue(failures.isEmpty(), failures.size() + " bad answers:\n" + String.join("\n", failures));
    }

    /**
     * Group names may hold any character (Kafka allows it); the ones {@code java.net.URI} refuses raw must still be
     * forwarded to the instance that owns the group, and found there.
     */
    @Test
    void groupNamesWithCharactersUriRefusesAreForwardedAndFound() throws Exception {
        front.owner = new GroupRouter.Remote(owner.address());
        List<String> failures = new ArrayList<>();
        for (String c : List.of("|", "{", "}", "^", "`", "\"", "<", ">", "[", "]", "\\", "é", "€")) {
            String group = "a" + c + "b";
            owner.groups.put(group, new Views.GroupDetail(group, "consumer", List.of()));
            Answer answer = send(front, "/v1/groups/" + group + "?x=" + c, StandardCharsets.UTF_8);
            if (answer.status != 200 || !group.equals(JSON.readTree(answer.body).get("group").asText())) {
                failures.add(group + " -> " + answer);
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " not forwarded:\n" + String.join("\n", failures));
    }

    /** What forwarding sends is a URI for any path Jetty may hand over, and decodes to the same segments. */
    @Test
    void forwardedPathsAreUrisThatDecodeToTheSameSegments() {
        assertEquals("/v1/groups/a%7Cb%2Fc+d%5C%22%C3%A9%E2%82%AC%F0%9F%98%80?q=%25zz&r=%25",
                Forwarder.uriSafe("/v1/groups/a|b%2Fc+d\\\"é€\uD83D\uDE00?q=%zz&r=%"));
        for (char c = 0; c < 0xd800; c++) {
            if (c == '%') {
                continue; // a lone % in the path is a 400 before anything is forwarded
            }
            String path = "/v1/groups/a" + c + "b";
            String safe = Forwarder.uriSafe(path);
            URI.create("http://127.0.0.1:1" + safe);
            assertEquals(QueryServer.segments(path), QueryServer.segments(safe), path);
        }
    }

    private static void check(FakeBackend backend, String target, List<String> failures) throws IOException {
        Answer answer = send(backend, target);
        String problem = answer.problem();
        if (problem != null) {
            failures.add(printable(target) + " -> " + problem + ": " + answer);
        }
    }

    /** The answer to {@code GET target}, its characters sent as single bytes (ISO-8859-1). */
    private static Answer send(FakeBackend backend, String target) throws IOException {
        return send(backend, target, StandardCharsets.ISO_8859_1);
    }

    private static Answer send(FakeBackend backend, String target, Charset charset) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", backend.address().port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    .getBytes(charset));
            return Answer.parse(readAll(socket.getInputStream()));
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                out.write(buffer, 0, n);
            }
        } catch (IOException e) {
            // a reset after the answer (the server closed with our bytes unread): keep what arrived
            if (out.size() == 0) {
                throw e;
            }
        }
        return out.toByteArray();
    }

    private static String printable(String s) {
        StringBuilder out = new StringBuilder();
        for (char c : s.toCharArray()) {
            out.append(c >= 0x21 && c < 0x7f ? String.valueOf(c) : String.format("\\x%02x", (int) c));
        }
        return out.length() > 120 ? out.substring(0, 120) + "..." : out.toString();
    }

    private record Answer(int status, String contentType, String body) {

        static Answer parse(byte[] raw) {
            String text = new String(raw, StandardCharsets.UTF_8);
            int end = text.indexOf("\r\n\r\n");
            if (!text.startsWith("HTTP/1.1 ") || end < 0) {
                return new Answer(-1, "", text);
            }
            String type = "";
            for (String line : text.substring(0, end).split("\r\n")) {
                if (line.regionMatches(true, 0, "Content-Type:", 0, 13)) {
                    type = line.substring(13).trim();
                }
            }
            return new Answer(Integer.parseInt(text.substring(9, 12)), type, text.substring(end + 4));
        }

        /** What is wrong with this answer, or null. */
        String problem() {
            if (status < 200 || status >= 500) {
                return "status " + status;
            }
            if (status >= 400) {
                if (!contentType.equals(Reply.JSON_TYPE)) {
                    return "content type '" + contentType + "'";
                }
                try {
                    JsonNode error = JSON.readTree(body).get("error");
                    if (error == null || !error.isTextual()) {
                        return "no error field";
                    }
                } catch (IOException e) {
                    return "not JSON";
                }
            }
            return null;
        }

        @Override
        public String toString() {
            return status + " " + contentType + " " + (body.length() > 200 ? body.substring(0, 200) + "..." : body);
        }
    }
}
