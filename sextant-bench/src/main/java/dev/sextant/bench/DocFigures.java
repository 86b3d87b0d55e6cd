package dev.sextant.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Benchmark figures quoted in the README and {@code docs/}, tied to the results file they come from, so a document
 * can never state a figure the committed results do not hold (issue 38: the README had contradicted itself).
 *
 * <p>A figure is written after a marker naming where it comes from, invisible once the Markdown is rendered:
 * {@code <!--fig sextant/sync/1000 sync_latency_ms.p99 ms-->4.1 s}. The marker names a run
 * ({@code system/scenario/groups}, plus {@code /threads} for the throughput scenario; {@code FILE.json:} first for a
 * results file other than {@code latest.json}), a dotted path into it, and a format ({@link Format}).
 * {@link #check} lists every figure that differs from its file; {@link #update} rewrites them. Figures a marker does
 * not tie ({@code p99 4.1 s}, {@code 97,527 commits/s}) are reported by {@link #untied}, so none slips in
 * unchecked.
 */
final class DocFigures {

    static final Pattern MARKER = Pattern.compile("<!--fig (\\S+) (\\S+) (\\S+)-->");
    /** What follows a marker: the figure as {@link Format} writes it. */
    private static final Pattern VALUE = Pattern.compile(
            "(?:≥ )?(?:failed|n/a|\\d[\\d,]*(?:\\.\\d+)?(?: (?:ms|s|MB|MiB))?)(?!\\w)");
    /** Benchmark figures written without a marker: a latency percentile, an initial sync or a commit rate. */
    private static final List<Pattern> UNTIED = List.of(
            Pattern.compile("\\b(?:p50|p99|initial sync)(?: of| at| was| is)?:? (?:≥ )?\\d"),
            Pattern.compile("(?<![\\d,.>])\\d[\\d,]*(?:\\.\\d+)? commits(?:/s| a second)"));

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path results;
    private final Map<String, JsonNode> files = new HashMap<>();

    /** @param results the directory of results files ({@code bench/results}) */
    DocFigures(Path results) {
        this.results = results;
    }

    /** A figure in a document that differs from its results file. */
    record Stale(Path doc, int line, String marker, String written, String expected) {
        @Override
        public String toString() {
            return doc + ":" + line + ": " + marker + " says '" + written + "', the results say '" + expected + "'";
        }
    }

    /** A benchmark figure without a marker. */
    record Untied(Path doc, int line, String text) {
        @Override
        public String toString() {
            return doc + ":" + line + ": '" + text + "' is a benchmark figure without a <!--fig ...--> marker";
        }
    }

    /** The Markdown files that may quote benchmark figures: the README and every file under docs/. */
    static List<Path> documents(Path repo) {
        List<Path> docs = new ArrayList<>();
        docs.add(repo.resolve("README.md"));
        try (Stream<Path> files = Files.list(repo.resolve("docs"))) {
            files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return docs;
    }

    /** Every figure in {@code doc} that its results file does not hold, in order. */
    List<Stale> check(Path doc) throws IOException {
        List<Stale> stale = new ArrayList<>();
        rewrite(doc, Files.readString(doc), stale);
        return stale;
    }

    /** Rewrites {@code doc}'s figures from their results files; true when something changed. */
    boolean update(Path doc) throws IOException {
        String text = Files.readString(doc);
        String updated = rewrite(doc, text, new ArrayList<>());
        if (updated.equals(text)) {
            return false;
        }
        Files.writeString(doc, updated);
        return true;
    }

    /** Benchmark figures written in {@code doc} without a marker (fenced code blocks aside). */
    static List<Untied> untied(Path doc) throws IOException {
        List<Untied> found = new ArrayList<>();
        boolean fenced = false;
        int number = 0;
        for (String line : Files.readAllLines(doc)) {
            number++;
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            for (Pattern p : UNTIED) {
                Matcher m = p.matcher(line);
                while (m.find()) {
                    found.add(new Untied(doc, number, m.group()));
                }
            }
        }
        return found;
    }

    private String rewrite(Path doc, String text, List<Stale> stale) {
        StringBuilder out = new StringBuilder();
        Matcher m = MARKER.matcher(text);
        int at = 0;
        while (m.find()) {
            int valueStart = m.end();
            Matcher v = VALUE.matcher(text).region(valueStart, text.length());
            String written = v.lookingAt() ? v.group() : "";
            String expected = figure(m.group(1), m.group(2), m.group(3));
            if (!written.equals(expected)) {
                stale.add(new Stale(doc, lineOf(text, m.start()), m.group(), written, expected));
            }
            out.append(text, at, valueStart).append(expected);
            at = valueStart + written.length();
        }
        return out.append(text.substring(at)).toString();
    }

    /** The figure a marker names, formatted. */
    String figure(String run, String path, String format) {
        String file = "latest.json";
        int colon = run.indexOf(':');
        if (colon > 0) {
            file = run.substring(0, colon);
            run = run.substring(colon + 1);
        }
        JsonNode entry = run(file, run);
        JsonNode parent = entry;
        String[] steps = path.split("\\.");
        for (int i = 0; i < steps.length - 1 && parent != null; i++) {
            parent = parent.get(steps[i]);
        }
        String last = steps[steps.length - 1];
        JsonNode value = parent == null ? null : parent.get(last);
        if (value == null || !value.isNumber()) {
            if (entry.hasNonNull("failed")) {
                return "failed";
            }
            if (value == null && parent != null && !parent.isNull()) {
                throw new IllegalArgumentException(file + " " + run + " has no '" + path + "'");
            }
            return "n/a";
        }
        boolean lowerBound = parent.path("lower_bounds").toString().contains('"' + last + '"')
                || (path.equals("initial_sync_s") && entry.path("initial_sync_lower_bound").asBoolean());
        return (lowerBound ? "≥ " : "") + Format.of(format).apply(value.asDouble());
    }

    private JsonNode run(String file, String run) {
        JsonNode results = files.computeIfAbsent(file, f -> {
            try {
                return JSON.readTree(this.results.resolve(f).toFile());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + this.results.resolve(f), e);
            }
        });
        String[] key = run.split("/");
        if (key.length < 3) {
            throw new IllegalArgumentException("a run is system/scenario/groups[/threads], not '" + run + "'");
        }
        for (JsonNode r : results.path("runs")) {
            if (r.path("system").asText().equals(key[0]) && r.path("scenario").asText().equals(key[1])
                    && r.path("groups").asText().equals(key[2])
                    && (key.length < 4 || r.path("threads").asText().equals(key[3]))) {
                return r;
            }
        }
        throw new IllegalArgumentException(file + " has no run " + run);
    }

    private static int lineOf(String text, int index) {
        int line = 1;
        for (int i = 0; i < index; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    /** How a figure is written. */
    enum Format {
        /** Milliseconds as a duration: {@code 446 ms}, {@code 4.1 s}, {@code 118 s}, as the results' tables do. */
        MS(Report::duration),
        /** Seconds as a duration. */
        S(v -> Report.duration(v * 1000)),
        /** A count: {@code 411,561}. */
        COUNT(Report::count),
        /** One decimal: {@code 49.2}. */
        DEC1(v -> String.format(Locale.ROOT, "%,.1f", v)),
        /** Megabytes as the results state them: {@code 481 MB}. */
        MB(v -> String.format(Locale.ROOT, "%,.0f MB", v)),
        /** Mebibytes: {@code 145 MiB}. */
        MIB(v -> String.format(Locale.ROOT, "%,.0f MiB", v));

        private final DoubleFunction<String> writer;

        Format(DoubleFunction<String> writer) {
            this.writer = writer;
        }

        String apply(double v) {
            return writer.apply(v);
        }

        static Format of(String name) {
            try {
                return valueOf(name.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown figure format '" + name + "': ms, s, count, dec1, mb, mib",
                        e);
            }
        }
    }
}
