package dev.sextant.query;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The status page at {@code GET /}: plain HTML, CSS and JavaScript from the jar, which read this instance's JSON API
 * and refresh themselves (groups, their partitions, recent conflicts, sync latency, instances). Only the files named
 * here are served; they are read once.
 */
final class StatusPage {

    private static final Map<String, String> FILES = Map.of(
            "index.html", "text/html; charset=utf-8",
            "app.js", "text/javascript; charset=utf-8",
            "style.css", "text/css; charset=utf-8");
    private static final Map<String, byte[]> CONTENT = load();

    private StatusPage() {
    }

    private static Map<String, byte[]> load() {
        Map<String, byte[]> content = new HashMap<>();
        for (String name : FILES.keySet()) {
            try (InputStream in = StatusPage.class.getResourceAsStream("ui/" + name)) {
                if (in == null) {
                    throw new IllegalStateException("status page file ui/" + name + " is missing from the jar");
                }
                content.put(name, in.readAllBytes());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return Map.copyOf(content);
    }

    /** True for the page's own paths ({@code /}, {@code /ui/<file>}): static files that hold no data. */
    static boolean isPageFile(String rawPath) {
        return rawPath.equals("/") || rawPath.startsWith("/ui/") && FILES.containsKey(rawPath.substring(4));
    }

    /** The page ({@code /}) or one of its files ({@code /ui/<name>}); empty for any other path. */
    static Optional<Reply> serve(List<String> path) {
        String name = path.equals(List.of("")) ? "index.html"
                : path.size() == 2 && path.get(0).equals("ui") ? path.get(1) : null;
        if (name == null || !FILES.containsKey(name)) {
            return Optional.empty();
        }
        return Optional.of(new Reply(200, FILES.get(name), Map.of("Cache-Control", "no-cache"), CONTENT.get(name)));
    }
}
