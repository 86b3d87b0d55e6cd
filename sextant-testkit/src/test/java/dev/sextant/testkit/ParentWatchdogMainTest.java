package dev.sextant.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs real child JVMs under the watchdog, as the launcher does, with a tiny main class instead of Kafka. */
class ParentWatchdogMainTest {

    private static final List<String> SMALL_JVM = List.of("-Xmx32m", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData");

    @TempDir
    Path tmp;

    private Path classes;
    private Path markers;

    @BeforeEach
    void copyTestMainOnly() throws IOException {
        classes = tmp.resolve("classes");
        markers = Files.createDirectories(tmp.resolve("markers"));
        String resource = WatchdogTestMain.class.getName().replace('.', '/') + ".class";
        Path target = classes.resolve(resource);
        Files.createDirectories(target.getParent());
        try (InputStream in = WatchdogTestMain.class.getClassLoader().getResourceAsStream(resource)) {
            Files.copy(in, target);
        }
    }

    @Test
    void childExitsCleanlyWhenItsStdinCloses() {
        ChildJvm child = ChildJvm.start("blocker", SMALL_JVM, List.of(classes), WatchdogTestMain.class.getName(),
                List.of(markers.toString(), "block"), tmp.resolve("blocker.out"));
        try {
            awaitFile(markers.resolve("started"), child);

            child.closeStdin(); // what the kernel does when the parent JVM dies, even by SIGKILL

            assertEquals(0, child.awaitExit(Duration.ofSeconds(20)), LocalFiles.tail(child.outputFile(), 20));
            assertTrue(Files.exists(markers.resolve("hook-ran")), "System.exit ran the shutdown hooks");
        } finally {
            child.stop(Duration.ofSeconds(5));
        }
    }

    @Test
    void childEndsWhenItsMainReturnsDespiteTheWatchdogThread() {
        ChildJvm child = ChildJvm.start("returner", SMALL_JVM, List.of(classes), WatchdogTestMain.class.getName(),
                List.of(markers.toString(), "return"), tmp.resolve("returner.out"));

        assertEquals(0, child.awaitExit(Duration.ofSeconds(20)), LocalFiles.tail(child.outputFile(), 20));
        assertTrue(Files.exists(markers.resolve("started")));
    }

    @Test
    void stopSendsSigtermSoShutdownHooksRun() {
        ChildJvm child = ChildJvm.start("stopped", SMALL_JVM, List.of(classes), WatchdogTestMain.class.getName(),
                List.of(markers.toString(), "block"), tmp.resolve("stopped.out"));
        awaitFile(markers.resolve("started"), child);

        child.stop(Duration.ofSeconds(20));

        assertFalse(child.isAlive());
        assertTrue(Files.exists(markers.resolve("hook-ran")));
    }

    @Test
    void childClasspathIsTheWatchdogAloneThenTheGivenJars() throws Exception {
        List<String> command = ChildJvm.command(List.of("-Xmx1m"), List.of(Paths.get("/jars/a.jar")), "x.Main",
                List.of("arg"));

        List<String> classpath = List.of(command.get(command.indexOf("-cp") + 1).split(File.pathSeparator));
        assertEquals(2, classpath.size(), classpath.toString());
        Path watchdogDir = Paths.get(classpath.get(0));
        try (var files = Files.walk(watchdogDir)) {
            assertEquals(List.of("ParentWatchdogMain.class"), files.filter(Files::isRegularFile)
                    .map(p -> p.getFileName().toString()).toList());
        }
        assertEquals("/jars/a.jar", classpath.get(1));
        Path ourClasses = Paths.get(
                ParentWatchdogMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertFalse(classpath.contains(ourClasses.toString()));
        assertEquals(List.of(ParentWatchdogMain.class.getName(), "x.Main", "arg"),
                command.subList(command.size() - 3, command.size()));
    }

    private static void awaitFile(Path file, ChildJvm child) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!Files.exists(file)) {
            assertTrue(child.isAlive(), "child died: " + LocalFiles.tail(child.outputFile(), 20));
            assertTrue(System.nanoTime() < deadline, "child did not start");
            try {
                Thread.sleep(50); // poll interval within a deadline
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
