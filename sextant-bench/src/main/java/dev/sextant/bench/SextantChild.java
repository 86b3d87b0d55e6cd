package dev.sextant.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.testkit.ChildJvm;
import dev.sextant.testkit.ShutdownRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Sextant in a child JVM: {@code java <opts> -cp <this jar> ParentWatchdogMain SextantProbeMain -c FILE}, i.e.
 * {@code sextant run} plus a metrics file (see {@link SextantProbeMain}). The child dies with this JVM (its stdin
 * pipe closes) and is registered for the JVM's shutdown hook.
 */
final class SextantChild implements Syncer {

    static final String DESTINATION_CLIENT_ID = "sextant-bench-destination";

    private static final double MIB = 1024.0 * 1024.0;

    /**
     * The heap high-water marks of the latest snapshot, in MiB (see {@link HeapPeaks}); NaN when unknown.
     * {@code peakAfterGcMb} is NaN while the old generation was never collected.
     */
    record Heap(double peakUsedMb, double peakAfterGcMb, double peakAfterYoungGcMb, double maxMb) {

        static final Heap UNKNOWN = new Heap(Double.NaN, Double.NaN, Double.NaN, Double.NaN);

        static Heap of(JsonNode m) {
            if (m == null || !m.has("heapMaxBytes")) {
                return UNKNOWN;
            }
            double afterGc = m.path("peakHeapAfterGcBytes").asDouble(0);
            double max = m.path("heapMaxBytes").asDouble(-1);
            return new Heap(m.path("peakHeapUsedBytes").asDouble(Double.NaN) / MIB,
                    afterGc > 0 ? afterGc / MIB : Double.NaN,
                    m.path("peakHeapAfterYoungGcBytes").asDouble(Double.NaN) / MIB, max > 0 ? max / MIB : Double.NaN);
        }
    }

    private final String system;
    private final String groupPrefix;
    private final ChildJvm jvm;
    private final Path metricsFile;
    private final Path logFile;
    private final ObjectMapper json = new ObjectMapper();
    private boolean closed;

    private SextantChild(String system, String groupPrefix, ChildJvm jvm, Path metricsFile, Path logFile) {
        this.system = system;
        this.groupPrefix = groupPrefix;
        this.jvm = jvm;
        this.metricsFile = metricsFile;
        this.logFile = logFile;
    }

    /**
     * Starts Sextant with {@code config} (plus the destination client id the probe reads) in {@code dir}.
     *
     * @param jvmOptions heap and GC options, the same the MirrorMaker processes get
     */
    static SextantChild start(String system, String groupPrefix, Map<String, String> config, Path dir,
                              List<String> jvmOptions) {
        try {
            Files.createDirectories(dir);
            String stateDir = config.get("state.dir");
            if (stateDir != null) {
                Bench.deleteRecursively(Paths.get(stateDir)); // a fresh instance, never old state
            }
            Map<String, String> props = new LinkedHashMap<>(config);
            props.put("destination.client.id", DESTINATION_CLIENT_ID);
            Path configFile = dir.resolve("sextant.properties");
            StringBuilder text = new StringBuilder("# written by the Sextant benchmark\n");
            props.forEach((k, v) -> text.append(k).append('=').append(v.replace("\\", "\\\\")).append('\n'));
            Files.writeString(configFile, text);
            Path metrics = dir.resolve("metrics.json");
            Files.deleteIfExists(metrics);
            Path log = dir.resolve("sextant.log");
            ChildJvm jvm = ChildJvm.start("sextant " + system, jvmOptions, ChildJvm.thisClasspath(),
                    SextantProbeMain.class.getName(), List.of("-c", configFile.toString(), "--metrics",
                            metrics.toString(), "--destination-client-id", DESTINATION_CLIENT_ID),
                    log, Map.of("SEXTANT_KAFKA_LOG_LEVEL", "WARN")); // the benchmark itself runs quieter
            SextantChild child = new SextantChild(system, groupPrefix, jvm, metrics, log);
            ShutdownRegistry.register(child);
            return child;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Sextant in " + dir, e);
        }
    }

    /** The latest metrics snapshot, or null before the first one. */
    JsonNode metrics() {
        try {
            return json.readTree(Files.readAllBytes(metricsFile));
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            return null; // replaced while reading: the next call sees the new one
        }
    }

    /**
     * Re-planned writes and the oldest new commit's age over {@code (fromMs, toMs]}, from the timeline, and how long
     * the commits {@code made} (epoch ms, latency ms) in the seconds re-plans drained took.
     */
    ReplanDrain replanDrain(long fromMs, long toMs, List<long[]> made) {
        return ReplanDrain.read(metricsFile.resolveSibling(metricsFile.getFileName() + ".timeline.jsonl"), fromMs,
                toMs, made);
    }

    /** What the window asked of the write path over {@code [fromMs, toMs]}, from the timeline. */
    WindowLoad windowLoad(long fromMs, long toMs) {
        return WindowLoad.read(metricsFile.resolveSibling(metricsFile.getFileName() + ".timeline.jsonl"), fromMs,
                toMs);
    }

    /** Group writes sent so far (its own count of alter calls), from the latest snapshot; NaN before the first. */
    double groupWrites() {
        JsonNode m = metrics();
        if (m == null) {
            return Double.NaN;
        }
        JsonNode calls = m.path("adminRequests");
        return calls.path("alterConsumerGroupOffsets").asDouble(0) + calls.path("alterShareGroupOffsets").asDouble(0);
    }

    /** Heap figures of the latest snapshot (the last one before the JVM died, if it did). */
    Heap heap() {
        return Heap.of(metrics());
    }

    /**
     * Whether the JVM ran out of memory: with -XX:+ExitOnOutOfMemoryError it then exits at once and says so in its
     * output, which goes to the log.
     */
    boolean outOfMemory() {
        // ISO-8859-1 decodes any byte: a log line that is not UTF-8 cannot hide the message
        try (Stream<String> lines = Files.lines(logFile,
                StandardCharsets.ISO_8859_1)) {
            return lines.anyMatch(l -> l.contains("OutOfMemoryError"));
        } catch (IOException | UncheckedIOException e) {
            return false; // no log (yet): nothing was said
        }
    }

    double commitsRead() {
        JsonNode m = metrics();
        return m == null ? 0 : m.path("commitsRead").asDouble();
    }

    /** Waits until Kafka Streams reports RUNNING. */
    void awaitRunning(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            JsonNode m = metrics();
            if (m != null && "RUNNING".equals(m.path("state").asText())) {
                return;
            }
            if (!jvm.isAlive()) {
                throw new IllegalStateException((outOfMemory() ? "Sextant ran out of memory and exited"
                        : "Sextant exited") + " during startup; see " + logFile);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Sextant not RUNNING after " + timeout.toSeconds() + " s; see "
                        + logFile);
            }
            Bench.sleep(100);
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
        return jvm.pid();
    }

    @Override
    public boolean isAlive() {
        return jvm.isAlive();
    }

    @Override
    public double destinationAdminRequests() {
        JsonNode m = metrics();
        return m == null ? -1 : m.path("wireAdminRequests").asDouble(-1);
    }

    /**
     * The cost of proving intervals between offset syncs so far: {records read on both clusters, intervals proven,
     * CPU seconds of the thread that reads and compares them}; zeros before the first snapshot.
     */
    double[] intervalProofs() {
        JsonNode m = metrics();
        return m == null ? new double[3] : new double[] {m.path("intervalRecordsRead").asDouble(0),
                m.path("intervalsProven").asDouble(0), m.path("intervalProofCpuSeconds").asDouble(0)};
    }

    /** {@code sextant.admin.requests}: the Admin calls Sextant itself counts (list once per flush, alter per group). */
    double countedAdminRequests() {
        JsonNode m = metrics();
        return m == null ? -1 : m.path("adminRequestsTotal").asDouble(-1);
    }

    @Override
    public Path logFile() {
        return logFile;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        ShutdownRegistry.unregister(this);
        jvm.stop(Duration.ofSeconds(30)); // SIGTERM first: Sextant's shutdown hook closes Kafka Streams
    }

    @Override
    public String toString() {
        return system + " (Sextant, pid " + jvm.pid() + ")";
    }
}
