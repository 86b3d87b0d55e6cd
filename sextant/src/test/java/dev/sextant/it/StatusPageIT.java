package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.domain.Reason;
import dev.sextant.testing.DeadLetters;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The status page in a real browser: headless Chromium (Debian's {@code chromium}) loads {@code GET /} of an instance
 * syncing a group and refusing another, runs its JavaScript against the JSON API, and the rendered page shows both
 * groups and the conflict, with nothing on the browser's console. A screenshot goes to
 * {@code target/status-page.png}. Skipped where Chromium is not installed, unless {@code SEXTANT_REQUIRE_TOOLS=1}.
 */
@ExtendWith(LocalClustersExtension.class)
class StatusPageIT {

    private static final String TOPIC = "page-orders";

    @Test
    void theStatusPageShowsTheGroupsAndAConflictInABrowser(LocalClusters clusters, @TempDir Path dir)
            throws Exception {
        String chromium = browser();
        clusters.createTopic(clusters.source(), TOPIC, 2);
        Clients.produceNumbered(clusters.source(), TOPIC, 2, 500);
        clusters.awaitMirrored(TOPIC, Duration.ofSeconds(60));
        try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-page", Map.of(
                "groups.include", "page-.*"))) {
            // one group that syncs, one the destination refuses: someone else committed it there
            Clients.commit(clusters.destination(), "page-diverged", "source." + TOPIC, Map.of(0, 5L));
            Clients.commit(clusters.source(), "page-diverged", TOPIC, Map.of(0, 300L));
            Clients.commit(clusters.source(), "page-billing", TOPIC, Map.of(0, 400L, 1, 420L));
            Await.until(Duration.ofSeconds(60), "page-billing synced", () ->
                    Clients.committed(clusters, clusters.destination(), "page-billing", "source." + TOPIC).size() == 2);
            DeadLetters.await(clusters, "page-diverged", Reason.DESTINATION_DIVERGED, Duration.ofSeconds(60));

            String url = "http://" + sextant.app().queryAddress() + "/";
            Browser dom = run(chromium, dir, "--dump-dom", url);
            assertEquals(0, dom.exit(), dom.log());
            assertTrue(dom.out().contains(">page-billing<"), "the synced group is listed:\n" + dom.out());
            assertTrue(dom.out().contains(">page-diverged<"), "the refused group is listed");
            assertTrue(dom.out().contains(">DESTINATION_DIVERGED<"), "the conflict is listed");
            assertTrue(dom.out().contains("class=\"badge up\""), "the instance reads as ready");
            List<String> console = dom.log().lines().filter(l -> l.contains("CONSOLE")).toList();
            assertEquals(List.of(), console, "messages on the browser's console");

            Path screenshot = Path.of(System.getProperty("basedir", "."), "target", "status-page.png");
            Files.createDirectories(screenshot.getParent());
            Browser shot = run(chromium, dir, "--screenshot=" + screenshot, "--window-size=1400,1000", url);
            assertEquals(0, shot.exit(), shot.log());
            assertTrue(Files.size(screenshot) > 10_000, "a screenshot of the page");
            System.out.printf("status page: rendered by %s with both groups and the conflict, no console message; "
                    + "screenshot %s (%d KB)%n", chromium, screenshot, Files.size(screenshot) >> 10);
        }
    }

    private static String browser() throws Exception {
        for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
            Process which = new ProcessBuilder("sh", "-c", "command -v " + name).start();
            if (which.waitFor() == 0) {
                return new String(which.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            }
        }
        if ("1".equals(System.getenv("SEXTANT_REQUIRE_TOOLS"))) {
            throw new AssertionError("chromium is not installed, and SEXTANT_REQUIRE_TOOLS=1");
        }
        Assumptions.abort("chromium is not installed (Debian: apt-get install chromium)");
        return null;
    }

    private record Browser(int exit, String out, String log) {
    }

    /** Headless Chromium: the page's timers run on virtual time, so 12 s of refreshes pass in about one. */
    private static Browser run(String chromium, Path dir, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(chromium, "--headless=new", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--no-first-run", "--user-data-dir=" + dir.resolve("profile"),
                "--enable-logging=stderr", "--v=0", "--virtual-time-budget=12000"));
        command.addAll(List.of(args));
        Path out = dir.resolve("out.txt");
        Path log = dir.resolve("log.txt");
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(log.toFile())
                .start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("chromium did not finish in 120 s: " + Files.readString(log));
        }
        return new Browser(process.exitValue(), Files.readString(out), Files.readString(log));
    }
}
