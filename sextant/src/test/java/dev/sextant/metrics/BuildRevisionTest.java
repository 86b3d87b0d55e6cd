package dev.sextant.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sextant.Version;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The build writes the commit it builds into the version resource, for {@code sextant_build_info{revision}}. */
class BuildRevisionTest {

    @Test
    void theRevisionIsTheCommitTheBuildRanAt() throws Exception {
        String head;
        try {
            Process git = new ProcessBuilder("git", "rev-parse", "HEAD")
                    .directory(Path.of(System.getProperty("basedir", ".")).toFile()).start();
            head = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            git.waitFor(30, TimeUnit.SECONDS);
        } catch (IOException e) {
            head = ""; // no git on the PATH
        }
        // a source archive has no Git repository: the build says "unknown", as Version.revision() then does
        Assumptions.assumeTrue(head.matches("[0-9a-f]{40}"), "not a Git checkout");
        assertEquals(head, Version.revision());
    }
}
