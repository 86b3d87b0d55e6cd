package dev.sextant.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.stream.Stream;

/** Small helpers shared by the benchmark classes. */
final class Bench {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");
    private static final long START = System.nanoTime();
    static volatile PrintStream out = System.out;

    private Bench() {
    }

    /** A progress line: wall time, seconds since start, message. */
    static void log(String format, Object... args) {
        out.printf("%s +%4ds  %s%n", LocalTime.now().format(TIME), (System.nanoTime() - START) / 1_000_000_000L,
                String.format(format, args));
        out.flush();
    }

    /** Sleeps; rate pacing and polling intervals, never a wait for a condition that has a signal. */
    static void sleep(long millis) {
        if (millis <= 0) {
            return;
        }
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Deletes a directory tree if it exists. */
    static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + root, e);
        }
    }

    static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
