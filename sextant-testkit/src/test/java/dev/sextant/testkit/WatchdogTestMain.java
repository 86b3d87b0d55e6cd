package dev.sextant.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A stand-in for a Kafka main class in {@link ParentWatchdogMainTest}: {@code <markerDir> block|return}. Writes
 * {@code started}, registers a shutdown hook that writes {@code hook-ran}, then blocks forever or returns.
 * Must stay free of nested classes: the test copies only this class file onto the child's classpath.
 */
public final class WatchdogTestMain {

    private WatchdogTestMain() {
    }

    public static void main(String[] args) throws Exception {
        Path markers = Path.of(args[0]);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                Files.writeString(markers.resolve("hook-ran"), "yes");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }));
        Files.writeString(markers.resolve("started"), "yes");
        if ("block".equals(args[1])) {
            Thread.sleep(Long.MAX_VALUE); // stands for a server's main thread; only the watchdog ends it
        }
    }
}
