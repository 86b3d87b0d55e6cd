package dev.sextant.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a {@link LocalMirrorMaker}'s log4j log tells: that MirrorMaker has started, and the configuration its
 * checkpoint task runs with.
 */
final class MirrorMakerLog {

    /** Logged by {@code MirrorMaker.start()} once all herders have started. */
    static final String STARTED_LINE = "Kafka MirrorMaker started";
    private static final Pattern GROUP_SYNC_VALUE = Pattern.compile("\\tsync\\.group\\.offsets\\.enabled = (\\w+)");

    private MirrorMakerLog() {
    }

    /** Waits until {@code process} logged {@link #STARTED_LINE}; fails if it exits first or the deadline passes. */
    static void awaitStarted(ChildJvm process, Path logFile, long deadlineNanos) {
        LocalFiles.LogWatcher watcher = new LocalFiles.LogWatcher(logFile, STARTED_LINE);
        while (!watcher.seen()) {
            String problem = !process.isAlive() ? "exited during startup"
                    : System.nanoTime() > deadlineNanos ? "did not log '" + STARTED_LINE + "' in time" : null;
            if (problem != null) {
                throw new IllegalStateException("MirrorMaker " + problem + "; last lines of " + logFile + ":\n"
                        + LocalFiles.tail(logFile, 40) + "\n" + LocalFiles.tail(process.outputFile(), 20));
            }
            try {
                Thread.sleep(100); // poll interval, not a wait for a condition
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for MirrorMaker", e);
            }
        }
    }

    /**
     * The group offset sync of the checkpoint task started last, as its config logs it in {@code logFile}; null
     * before one started.
     */
    static Boolean checkpointTaskGroupSync(Path logFile) {
        String log;
        try {
            log = Files.readString(logFile, StandardCharsets.ISO_8859_1);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + logFile, e);
        }
        int block = log.lastIndexOf("MirrorCheckpointTaskConfig values:");
        Matcher value = GROUP_SYNC_VALUE.matcher(log);
        return block >= 0 && value.find(block) ? Boolean.valueOf(value.group(1)) : null;
    }
}
