package dev.sextant.testkit;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM running {@code mainClass} under {@link ParentWatchdogMain}, with its stdout and stderr appended
 * to one file.
 *
 * <p>Invariants:
 * <ul>
 *   <li>The child's classpath is the watchdog directory (first) plus exactly the given entries. A Kafka child gets
 *       only Kafka's jars, never Sextant's jar or {@code target/classes}, so it sees only its own Kafka version.</li>
 *   <li>The child's stdin is a pipe whose write end this object keeps open until {@link #stop}; when this JVM
 *       dies for any reason, the pipe closes and the child exits by itself.</li>
 *   <li>The child's output never goes through a pipe to this JVM (a full pipe would block the child).</li>
 * </ul>
 */
public final class ChildJvm {

    private final String name;
    private final Process process;
    private final Path outputFile;

    private ChildJvm(String name, Process process, Path outputFile) {
        this.name = name;
        this.process = process;
        this.outputFile = outputFile;
    }

    /**
     * Starts {@code java <jvmOptions> -cp <watchdog>:<classpath> ParentWatchdogMain <mainClass> <args>} in
     * {@code outputFile}'s directory.
     */
    static ChildJvm start(String name, List<String> jvmOptions, List<Path> classpath, String mainClass,
                          List<String> args, Path outputFile) {
        return start(name, jvmOptions, classpath, mainClass, args, outputFile, Map.of());
    }

    /** As {@link #start(String, List, List, String, List, Path)}, with {@code environment} added to the child's. */
    public static ChildJvm start(String name, List<String> jvmOptions, List<Path> classpath, String mainClass,
                                 List<String> args, Path outputFile, Map<String, String> environment) {
        List<String> command = command(jvmOptions, classpath, mainClass, args);
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(outputFile.toAbsolutePath().getParent().toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(outputFile.toFile()));
        builder.environment().putAll(environment);
        // stdin stays ProcessBuilder.Redirect.PIPE (the default): that pipe is the parent-death signal
        try {
            return new ChildJvm(name, builder.start(), outputFile);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + command.get(0), e);
        }
    }

    static List<String> command(List<String> jvmOptions, List<Path> classpath, String mainClass, List<String> args) {
        List<String> entries = new ArrayList<>();
        entries.add(WatchdogClasspath.DIRECTORY.toString());
        for (Path jar : classpath) {
            entries.add(jar.toString());
        }
        List<String> command = new ArrayList<>();
        command.add(javaExecutable().toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(String.join(File.pathSeparator, entries));
        command.add(ParentWatchdogMain.class.getName());
        command.add(mainClass);
        command.addAll(args);
        return command;
    }

    /**
     * {@code $java.home/bin/java}: the same JDK as this JVM. Preferred over
     * {@code ProcessHandle.current().info().command()}, which is a native launcher (not {@code java}) when
     * Sextant runs as a packaged application.
     */
    static Path javaExecutable() {
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        if (Files.isExecutable(java)) {
            return java;
        }
        return ProcessHandle.current().info().command().map(Paths::get)
                .orElseThrow(() -> new IllegalStateException("cannot find the java executable of this JVM"));
    }

    String name() {
        return name;
    }

    /** This JVM's classpath with absolute entries, for a child that runs the same code in another directory. */
    public static List<Path> thisClasspath() {
        List<Path> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                entries.add(Paths.get(entry).toAbsolutePath());
            }
        }
        return entries;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    Path outputFile() {
        return outputFile;
    }

    /** Waits for the child to exit by itself; returns its exit code, or -1 if it was still running and got killed. */
    int awaitExit(Duration timeout) {
        try {
            if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return process.exitValue();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stop(Duration.ZERO);
        return -1;
    }

    /** SIGKILL at once, as {@code kill -9}: no shutdown hook runs. Returns when the process is gone. */
    public void kill() {
        try {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeQuietly();
        }
    }

    /**
     * SIGTERM, so the child's shutdown hooks run; after {@code grace} SIGKILL. Returns when the process is gone.
     * Idempotent.
     */
    public void stop(Duration grace) {
        try {
            if (process.isAlive()) {
                process.destroy();
                if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(10, TimeUnit.SECONDS);
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            closeQuietly();
        }
    }

    /**
     * Closes our end of the child's stdin pipe, exactly what the kernel does when this JVM dies; the watchdog in
     * the child then exits it. For tests of the orphan protection.
     */
    void closeStdin() {
        closeQuietly();
    }

    private void closeQuietly() {
        try {
            process.getOutputStream().close();
        } catch (IOException ignored) {
            // the child is gone; nothing is lost
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + pid() + (isAlive() ? "" : ", exited") + ")";
    }

    /**
     * {@code ParentWatchdogMain.class}, copied once per JVM from our own classpath into an owned temp directory, so
     * children can load it without seeing any other Sextant class.
     */
    private static final class WatchdogClasspath {
        private static final String PREFIX = "sextant-watchdog";
        static final Path DIRECTORY = extract();

        private static Path extract() {
            LocalFiles.deleteStaleTempDirs(PREFIX);
            Path dir = LocalFiles.createOwnedTempDir(PREFIX);
            String resource = ParentWatchdogMain.class.getName().replace('.', '/') + ".class";
            Path target = dir.resolve(resource);
            try (InputStream in = ParentWatchdogMain.class.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException(resource + " is not on the classpath");
                }
                Files.createDirectories(target.getParent());
                Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot extract " + resource + " into " + dir, e);
            }
            // deleteOnExit runs in reverse registration order, so register parents before children
            Path p = dir;
            p.toFile().deleteOnExit();
            for (Path part : dir.relativize(target)) {
                p = p.resolve(part);
                p.toFile().deleteOnExit();
            }
            return dir;
        }
    }
}
