package dev.sextant.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The cycle rules of {@link ArchitectureTest} read compiled classes, and javac copies a {@code static final}
 * constant's value into the class that reads it: a class that takes a constant from a class that depends back on it
 * shows no dependency there. This reads the sources instead: inside one package, a class may read a constant only
 * from a class that does not depend back on it, directly or through others; shared constants live in a holder
 * ({@code Backoffs}, {@code ConfigKeys}, {@code ExitCodes}, {@code TopologyNames}).
 */
class ConstantReferencesTest {

    private static final Path SOURCES = Path.of("src", "main", "java");
    private static final Pattern COMMENTS = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);
    private static final Pattern STRINGS = Pattern.compile("\"(?:\\\\.|[^\"\\\\])*\"");
    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+);", Pattern.MULTILINE);

    @Test
    void noClassReadsAConstantOfAClassThatDependsBackOnIt() throws IOException {
        assertTrue(Files.isDirectory(SOURCES), "run from the module's folder: " + SOURCES.toAbsolutePath());
        Map<String, Map<String, String>> packages = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String code = STRINGS.matcher(COMMENTS.matcher(Files.readString(file)).replaceAll(""))
                        .replaceAll("\"\"");
                var pkg = PACKAGE.matcher(code);
                String name = file.getFileName().toString().replace(".java", "");
                packages.computeIfAbsent(pkg.find() ? pkg.group(1) : "", p -> new HashMap<>()).put(name, code);
            }
        }
        List<String> backwards = new ArrayList<>();
        packages.forEach((pkg, classes) -> backwards.addAll(backwards(pkg, classes)));
        assertEquals(List.of(), backwards, "constants read from a class that depends back on the reader: move them "
                + "to a holder class both can read");
    }

    /** The constant references of one package that run back up a dependency: "pkg: Reader -> Owner.CONSTANT". */
    private static List<String> backwards(String pkg, Map<String, String> classes) {
        Map<String, Set<String>> uses = new HashMap<>();
        classes.forEach((reader, code) -> {
            Set<String> used = new HashSet<>();
            classes.keySet().stream().filter(other -> !other.equals(reader)
                    && Pattern.compile("\\b" + other + "\\b").matcher(code).find()).forEach(used::add);
            uses.put(reader, used);
        });
        List<String> out = new ArrayList<>();
        classes.forEach((reader, code) -> {
            for (String owner : uses.get(reader)) {
                var constant = Pattern.compile("\\b" + owner + "\\.([A-Z][A-Z0-9_]+)\\b").matcher(code);
                if (constant.find() && reaches(uses, owner, reader)) {
                    out.add(pkg + ": " + reader + " -> " + owner + "." + constant.group(1));
                }
            }
        });
        return out;
    }

    private static boolean reaches(Map<String, Set<String>> uses, String from, String to) {
        Deque<String> next = new ArrayDeque<>(List.of(from));
        Set<String> seen = new HashSet<>(next);
        while (!next.isEmpty()) {
            for (String used : uses.get(next.pop())) {
                if (used.equals(to)) {
                    return true;
                }
                if (seen.add(used)) {
                    next.add(used);
                }
            }
        }
        return false;
    }
}
