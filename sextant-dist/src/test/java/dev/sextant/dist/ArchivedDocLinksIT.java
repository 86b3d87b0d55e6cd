package dev.sextant.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive's documents link within it: every relative link of its {@code README.md}, {@code docs/*.md},
 * {@code deploy/**}{@code /*.md} and {@code bench/README.md}, unpacked, names a file or folder the archive holds
 * ({@code deploy/} and the benchmark's latest results are shipped for them); and {@code deploy/} comes without what
 * {@code npm ci} installs into a checkout.
 */
class ArchivedDocLinksIT {

    private static final Path TARGET = Path.of(System.getProperty("basedir", "."), "target");
    /** An inline Markdown link or image: its target, up to a space (a title) or the closing parenthesis. */
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern FENCED = Pattern.compile("(?s)```.*?```");
    private static final Pattern ABSOLUTE = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");

    @Test
    void everyRelativeLinkOfTheArchivedDocumentsResolvesInsideTheArchive(@TempDir Path dir) throws Exception {
        Path home = unpack(dir);
        for (String entry : List.of("deploy/README.md", "deploy/kubernetes/base/statefulset.yaml",
                "deploy/kubernetes/cutover/job.yaml", "deploy/prometheus/sextant-rules.yaml",
                "deploy/grafana/sextant.json", "deploy/checks/package-lock.json", "bench/README.md",
                "bench/results/latest.md", "bench/results/latest-64p.md")) {
            assertTrue(Files.exists(home.resolve(entry)), entry + " in the archive");
        }
        assertTrue(Files.isExecutable(home.resolve("deploy/image/build")));
        assertTrue(Files.isExecutable(home.resolve("deploy/prometheus/generate-prometheusrule")));
        assertTrue(!Files.exists(home.resolve("deploy/checks/node_modules")), "no node_modules in the archive");

        List<Path> documents = new ArrayList<>(List.of(home.resolve("README.md"), home.resolve("bench/README.md")));
        for (String folder : List.of("docs", "deploy")) {
            try (Stream<Path> files = Files.walk(home.resolve(folder))) {
                files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(documents::add);
            }
        }
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path document : documents) {
            for (String link : relativeLinks(Files.readString(document))) {
                links++;
                String path = link.contains("#") ? link.substring(0, link.indexOf('#')) : link;
                Path target = document.getParent().resolve(path).normalize();
                if (!target.startsWith(home) || !Files.exists(target)) {
                    broken.add(home.relativize(document) + ": " + link);
                }
            }
        }
        assertEquals(List.of(), broken, "links that do not resolve inside the archive");
        assertTrue(links > 100, "the documents' relative links: " + links);
    }

    /** The check above finds a link out of the archive, such as one to a source file. */
    @Test
    void aLinkToASourceFileIsFound() {
        List<String> links = relativeLinks("""
                See [the rules](../checkstyle/checkstyle.xml), [a section](#code-style), \
                [the site](https://example.com/a), [mail](mailto:a@b.c) and ![a chart](results/latest.png "a title").
                ```
                [not a link](inside/a/code/block.md)
                ```
                """);
        assertEquals(List.of("../checkstyle/checkstyle.xml", "results/latest.png"), links);
    }

    /** The relative targets of the inline links of {@code markdown} outside fenced code blocks. */
    static List<String> relativeLinks(String markdown) {
        List<String> links = new ArrayList<>();
        Matcher link = LINK.matcher(FENCED.matcher(markdown).replaceAll(""));
        while (link.find()) {
            String target = link.group(1);
            if (!target.startsWith("#") && !ABSOLUTE.matcher(target).find()) {
                links.add(target);
            }
        }
        return links;
    }

    private static Path unpack(Path dir) throws IOException, InterruptedException {
        Path archive;
        try (Stream<Path> files = Files.list(TARGET)) {
            archive = files.filter(p -> p.getFileName().toString().matches("sextant-.*\\.tar\\.gz")).findFirst()
                    .orElseThrow(() -> new AssertionError("no sextant-<version>.tar.gz in " + TARGET));
        }
        Process tar = new ProcessBuilder("tar", "xzf", archive.toString()).directory(dir.toFile())
                .redirectErrorStream(true).start();
        String output = new String(tar.getInputStream().readAllBytes());
        assertTrue(tar.waitFor(60, TimeUnit.SECONDS), "tar did not finish");
        assertEquals(0, tar.exitValue(), output);
        try (Stream<Path> unpacked = Files.list(dir)) {
            return unpacked.filter(Files::isDirectory).findFirst().orElseThrow().toRealPath();
        }
    }
}
