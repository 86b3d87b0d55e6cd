package dev.sextant.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalFilesTest {

    @TempDir
    Path tmp;

    @Test
    void ownedTempDirsCarryTheOwnerPid() {
        Path dir = LocalFiles.createOwnedTempDir("sextant-test");
        try {
            assertEquals(Optional.of(ProcessHandle.current().pid()),
                    LocalFiles.ownerPid("sextant-test", dir.getFileName().toString()));
            assertEquals(Optional.empty(), LocalFiles.ownerPid("sextant-test", "sextant-test-abc-1"));
            assertEquals(Optional.empty(), LocalFiles.ownerPid("sextant-test", "other-123-1"));
        } finally {
            LocalFiles.deleteRecursively(dir);
        }
    }

    @Test
    void staleDirsOfDeadOwnersAreDeletedAndLiveOnesKept() throws Exception {
        Process finished = new ProcessBuilder(ChildJvm.javaExecutable().toString(), "-version")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(finished.waitFor(30, TimeUnit.SECONDS));
        long deadPid = finished.pid();
        Path stale = Files.createDirectories(LocalFiles.tempRoot().resolve("sextant-stale-" + deadPid + "-1"));
        Files.writeString(stale.resolve("f"), "x");
        Path live = LocalFiles.createOwnedTempDir("sextant-stale");
        try {
            LocalFiles.deleteStaleTempDirs("sextant-stale");

            assertFalse(Files.exists(stale));
            assertTrue(Files.exists(live));
        } finally {
            LocalFiles.deleteRecursively(stale);
            LocalFiles.deleteRecursively(live);
        }
    }

    @Test
    void deleteRecursivelyRemovesTreesAndIgnoresMissingRoots() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("a/b/c"));
        Files.writeString(root.resolve("f"), "x");

        LocalFiles.deleteRecursively(tmp.resolve("a"));
        LocalFiles.deleteRecursively(tmp.resolve("missing"));

        assertFalse(Files.exists(tmp.resolve("a")));
    }

    @Test
    void tailReturnsTheLastLines() throws IOException {
        Path log = tmp.resolve("log");
        StringBuilder text = new StringBuilder();
        for (int i = 1; i <= 100; i++) {
            text.append("line ").append(i).append('\n');
        }
        Files.writeString(log, text);

        assertEquals("line 98\nline 99\nline 100", LocalFiles.tail(log, 3));
        assertTrue(LocalFiles.tail(tmp.resolve("missing"), 3).contains("does not exist"));
    }

    @Test
    void logWatcherFindsTextAppendedLaterEvenAcrossReads() throws IOException {
        Path log = tmp.resolve("mm2.log");
        LocalFiles.LogWatcher watcher = new LocalFiles.LogWatcher(log, "Kafka MirrorMaker started");

        assertFalse(watcher.seen()); // no file yet
        append(log, "[x] INFO starting\n[x] INFO Kafka Mirror");
        assertFalse(watcher.seen());
        append(log, "Maker started (org.apache.kafka.connect.mirror.MirrorMaker)\n");
        assertTrue(watcher.seen());
    }

    private static void append(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
}
