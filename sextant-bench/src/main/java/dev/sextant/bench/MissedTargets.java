package dev.sextant.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The targets the latest results files ({@code bench/results/latest*.json}) mark missed ({@code "met": false}), and
 * whether a document's list of what is not met names each of them: a marker {@code <!--missed FILE: TARGET-->} per
 * target, where TARGET is the start of the target's text in that file (invisible once rendered). A marker that names
 * no missed target is reported too, so a target met since is taken out of the list.
 */
final class MissedTargets {

    private static final Pattern MARKER = Pattern.compile("<!--missed (\\S+): (.+?)-->", Pattern.DOTALL);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A target a results file marks missed. */
    record Missed(String file, String target) {
        @Override
        public String toString() {
            return file + ": " + target;
        }
    }

    private final List<Missed> missed;

    private MissedTargets(List<Missed> missed) {
        this.missed = missed;
    }

    /** Reads every {@code latest*.json} of {@code results}. */
    static MissedTargets of(Path results) throws IOException {
        List<Missed> missed = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> list = Files.list(results)) {
            files = list.filter(p -> p.getFileName().toString().matches("latest.*\\.json")).sorted().toList();
        }
        for (Path file : files) {
            for (JsonNode target : JSON.readTree(file.toFile()).path("targets")) {
                if (target.path("met").isBoolean() && !target.path("met").asBoolean()) {
                    missed.add(new Missed(file.getFileName().toString(), target.path("target").asText()));
                }
            }
        }
        return new MissedTargets(missed);
    }

    List<Missed> missed() {
        return missed;
    }

    /**
     * What is wrong with {@code section}, a document's list of targets not met: each missed target it does not name,
     * and each marker that names no missed target.
     */
    List<String> problems(String where, String section) {
        List<Missed> named = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Matcher marker = MARKER.matcher(section);
        while (marker.find()) {
            String prefix = marker.group(2).replaceAll("\\s+", " ").strip();
            List<Missed> matching = missed.stream().filter(m -> m.file().equals(marker.group(1))
                    && m.target().startsWith(prefix)).toList();
            if (matching.isEmpty()) {
                problems.add(where + ": " + marker.group() + " names no target that " + marker.group(1)
                        + " marks missed");
            }
            named.addAll(matching);
        }
        for (Missed m : missed) {
            if (!named.contains(m)) {
                problems.add(where + " leaves out a target " + m.file() + " marks missed: '" + m.target()
                        + "' (name it with <!--missed " + m.file() + ": " + m.target() + "-->)");
            }
        }
        return problems;
    }

    /**
     * The part of {@code text} from the first line that contains {@code start} to the next blank line: a paragraph
     * or a list.
     */
    static String section(String text, String start) {
        int at = text.indexOf(start);
        if (at < 0) {
            throw new IllegalArgumentException("no '" + start + "'");
        }
        int from = text.lastIndexOf('\n', at) + 1;
        int end = text.indexOf("\n\n", at);
        return text.substring(from, end < 0 ? text.length() : end);
    }
}
