package dev.sextant.bench;

import dev.sextant.testkit.LocalMirrorMaker;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * MirrorMaker 2's MirrorCheckpointConnector with {@code sync.group.offsets.enabled=true}, alone in a dedicated
 * MirrorMaker process: it reads the offset syncs the data-mirroring MirrorMaker writes, and mirrors no data itself
 * ({@link CheckpointsOnlyPolicy}), so its CPU and memory are its own. Each process has its own Connect group and
 * internal topics, so it never joins the data-mirroring MirrorMaker or another checkpoint process.
 */
final class Mm2CheckpointProcess implements Syncer {

    private final String system;
    private final String groupPrefix;
    private final LocalMirrorMaker mirrorMaker;
    private final Path requestsFile;

    private Mm2CheckpointProcess(String system, String groupPrefix, LocalMirrorMaker mirrorMaker, Path requestsFile) {
        this.system = system;
        this.groupPrefix = groupPrefix;
        this.mirrorMaker = mirrorMaker;
        this.requestsFile = requestsFile;
    }

    /**
     * @param intervalSeconds {@code emit.checkpoints.interval.seconds} and {@code sync.group.offsets.interval.seconds}
     * @param topics          regex of the source topics whose groups it checkpoints (MirrorMaker's topic filter)
     * @param readyTimeout    how long MirrorMaker may take to log that it started
     * @throws IllegalStateException when it exits during startup or does not start in time (the message's first
     *                               line says which, the rest quotes its logs)
     */
    static Mm2CheckpointProcess start(String system, String groupPrefix, int intervalSeconds, String topics,
                                      String sourceBootstrap, String destinationBootstrap, Path dir,
                                      List<String> jvmOptions, Duration readyTimeout) {
        String id = "bench-" + system + "-" + groupPrefix.replaceAll("[^A-Za-z0-9]+", "-");
        Path requests = dir.toAbsolutePath().resolve("admin-requests.tsv");
        List<String> jvm = new ArrayList<>(jvmOptions);
        jvm.add("-D" + RequestCountingReporter.FILE_PROPERTY + "=" + requests);
        LocalMirrorMaker.Options options = LocalMirrorMaker.Options.builder()
                .topics(topics)
                .groups(Pattern.quote(groupPrefix) + ".*")
                .syncGroupOffsetsEnabled(true)
                .syncGroupOffsetsIntervalSeconds(intervalSeconds)
                .emitCheckpointsEnabled(true)
                .emitCheckpointsIntervalSeconds(intervalSeconds)
                // MirrorMaker's defaults (600 s): the groups exist before it starts
                .refreshIntervalSeconds(600)
                .property("replication.policy.class", CheckpointsOnlyPolicy.class.getName())
                .property("emit.heartbeats.enabled", "false")
                // its own Connect cluster: never joins the data-mirroring MirrorMaker's group or topics
                .property(LocalMirrorMaker.DESTINATION_ALIAS + ".group.id", id)
                .property("offset.storage.topic", id + "-offsets")
                .property("config.storage.topic", id + "-configs")
                .property("status.storage.topic", id + "-status")
                // counts the requests of every Admin client to the destination (see RequestCountingReporter)
                .property(LocalMirrorMaker.DESTINATION_ALIAS + ".admin.metric.reporters",
                        RequestCountingReporter.class.getName())
                .jvmOptions(jvm)
                .extraClasspath(classDirectory(dir))
                .readyTimeout(readyTimeout)
                .build();
        try {
            LocalMirrorMaker mm = LocalMirrorMaker.start(sourceBootstrap, destinationBootstrap, options, dir);
            return new Mm2CheckpointProcess(system, groupPrefix, mm, requests);
        } catch (IllegalStateException e) {
            // LocalMirrorMaker deleted its directory: its message (the logs' last lines) is all that is left
            String text = String.valueOf(e.getMessage());
            String what = text.startsWith("MirrorMaker exited during startup") ? "MirrorMaker 2 exited during startup"
                    : text.startsWith("MirrorMaker did not log") ? String.format(Locale.ROOT,
                    "MirrorMaker 2 not started after %d s", readyTimeout.toSeconds())
                    : "MirrorMaker 2 did not start: " + text.lines().findFirst().orElse("");
            String complaint = jvmComplaint(text);
            throw new IllegalStateException(what + (complaint == null ? "" : " (" + complaint + ")")
                    + System.lineSeparator() + text, e);
        }
    }

    /**
     * What a JVM said when it gave up, from its output: the out-of-memory error, or the line after "Error occurred
     * during initialization of VM" (e.g. a heap too small to start); null when it said neither.
     */
    static String jvmComplaint(String output) {
        List<String> lines = output.lines().map(String::strip).toList();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int oom = line.indexOf("java.lang.OutOfMemoryError");
            if (oom >= 0) {
                return line.substring(oom);
            }
            if (line.contains("Error occurred during initialization of VM") && i + 1 < lines.size()) {
                return lines.get(i + 1);
            }
        }
        return null;
    }

    /**
     * Copies the class files MirrorMaker needs from the benchmark ({@link CheckpointsOnlyPolicy},
     * {@link RequestCountingReporter}) into {@code dir/classes}, a classpath directory.
     */
    private static Path classDirectory(Path dir) {
        Path root = dir.toAbsolutePath().resolve("classes");
        for (Class<?> type : List.of(CheckpointsOnlyPolicy.class, RequestCountingReporter.class)) {
            String resource = type.getName().replace('.', '/') + ".class";
            Path target = root.resolve(resource);
            try (InputStream in = type.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("cannot find " + resource + " on the classpath");
                }
                Files.createDirectories(target.getParent());
                Files.write(target, in.readAllBytes());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return root;
    }

    /**
     * Waits until the checkpoint task runs and has read the offset-syncs topic to its end: only syncs read after
     * that get MirrorMaker's full 64-slot treatment (at start it keeps the newest sync of each partition only).
     */
    void awaitCheckpointTask(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String log = read(logFile());
            int task = log.indexOf(" checkpointing ");
            if (task >= 0 && log.indexOf("Finished reading KafkaBasedLog for topic mm2-offset-syncs", task) >= 0) {
                return;
            }
            if (!mirrorMaker.isAlive()) {
                throw new IllegalStateException("MirrorMaker 2 " + (outOfMemory() ? "ran out of memory and exited"
                        : "exited") + " before its checkpoint task ran; see " + logFile());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(String.format(Locale.ROOT, "MirrorMaker 2's checkpoint task not "
                        + "running after %d s; see %s", timeout.toSeconds(), logFile()));
            }
            Bench.sleep(200);
        }
    }

    /** Whether its JVM ran out of memory: its output or its log names the error (the JVM then exits at once). */
    boolean outOfMemory() {
        return read(outputFile()).contains("OutOfMemoryError") || read(logFile()).contains("OutOfMemoryError");
    }

    /** The JVM's own output (stdout and stderr), next to the log. */
    Path outputFile() {
        String log = logFile().getFileName().toString();
        return logFile().resolveSibling(log.replaceFirst("\\.log$", "") + ".out");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public String system() {
        return system;
    }

    @Override
    public String groupPrefix() {
        return groupPrefix;
    }

    @Override
    public long pid() {
        return mirrorMaker.pid();
    }

    @Override
    public boolean isAlive() {
        return mirrorMaker.isAlive();
    }

    /**
     * Requests of MirrorMaker's Admin clients for the destination ("...-target-admin": the checkpoint connector's and
     * task's, and the idle source connector's), not the Connect worker's own start-up admin.
     */
    @Override
    public double destinationAdminRequests() {
        return RequestCountingReporter.read(requestsFile, "target-admin");
    }

    @Override
    public Path logFile() {
        return mirrorMaker.logFile();
    }

    @Override
    public synchronized void close() {
        mirrorMaker.close();
    }

    @Override
    public String toString() {
        return system + " (MirrorMaker checkpoints, pid " + pid() + ")";
    }
}
