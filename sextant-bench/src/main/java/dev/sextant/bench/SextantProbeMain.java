package dev.sextant.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sextant.SextantApplication;
import dev.sextant.config.SextantConfig;
import dev.sextant.config.SextantConfigLoader;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * What the benchmark runs as "Sextant" in a child JVM: exactly {@code sextant run -c FILE} (the same
 * {@link SextantApplication} with a Prometheus registry), plus a daemon thread that writes Sextant's counters to a
 * small JSON file every {@code --every-ms}, because the HTTP {@code /metrics} endpoint is not part of this build
 * yet. Usage: {@code SextantProbeMain -c FILE --metrics FILE [--every-ms 100]}.
 *
 * <p>The file is replaced atomically, so the benchmark never reads half a snapshot. Besides Sextant's own meters it
 * carries {@code wireAdminRequests}: the Kafka client metric {@code request-total} of the Admin client whose
 * {@code client.id} is {@code --destination-client-id}, i.e. every request on the wire to the destination,
 * including those Sextant does not count ({@code listGroups}, {@code describeTopics}, metadata). And the heap's
 * high-water marks ({@link HeapPeaks}, sampled at every snapshot): {@code peakHeapUsedBytes},
 * {@code peakHeapAfterGcBytes} (old generation after GC, about the live set), {@code peakHeapAfterYoungGcBytes},
 * {@code heapMaxBytes}.
 */
public final class SextantProbeMain {

    private static final HeapPeaks HEAP = new HeapPeaks();

    private SextantProbeMain() {
    }

    public static void main(String[] args) throws Exception {
        Path config = null;
        Path metricsFile = null;
        long everyMs = 100;
        String destinationClientId = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-c" -> config = Paths.get(args[++i]);
                case "--metrics" -> metricsFile = Paths.get(args[++i]);
                case "--every-ms" -> everyMs = Long.parseLong(args[++i]);
                case "--destination-client-id" -> destinationClientId = args[++i];
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (config == null || metricsFile == null) {
            throw new IllegalArgumentException("usage: SextantProbeMain -c FILE --metrics FILE [--every-ms N]");
        }
        SextantConfig loaded = SextantConfigLoader.load(config, System.getenv());
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        SextantApplication app = new SextantApplication(loaded, registry);
        Runtime.getRuntime().addShutdownHook(new Thread(app::close, "sextant-shutdown"));

        Path target = metricsFile;
        String clientId = destinationClientId;
        ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "bench-metrics-writer");
            t.setDaemon(true);
            return t;
        });
        ObjectMapper json = new ObjectMapper();
        Lookups lookups = new Lookups(registry, clientId);
        writer.scheduleAtFixedRate(() -> write(json, app, lookups, false, target), 0, everyMs,
                TimeUnit.MILLISECONDS);
        app.start();
        Throwable failure = app.awaitStop();
        write(json, app, lookups, true, target);
        app.close();
        if (failure != null) {
            System.err.println("sextant: " + failure.getMessage());
            System.exit(1);
        }
    }

    /**
     * The meters and MBeans a snapshot reads, looked up again every {@link #REFRESH_MS}: finding a meter by name
     * scans the whole registry (Kafka's client metrics make it thousands of meters), and doing that four times every
     * 100 ms cost the Sextant JVM a tenth of its samples, time taken from what is measured. Used by the snapshot
     * thread and, once at the end, by the main thread.
     */
    /** The thread that reads and compares the records of intervals between offset syncs. */
    private static final String PROOF_THREAD = "sextant-interval-proofs";

    /** The id of the live thread named {@code name}, or -1. */
    private static long threadId(String name) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().equals(name)) {
                return info.getThreadId();
            }
        }
        return -1;
    }

    /** CPU time of a thread in seconds (0 when there is none). */
    private static double threadCpuSeconds(long id) {
        return id < 0 ? 0 : Math.max(0, ManagementFactory.getThreadMXBean().getThreadCpuTime(id)) / 1e9;
    }

    private static final class Lookups {
        private static final long REFRESH_MS = 2_000;
        private final MeterRegistry registry;
        private final String clientId;
        private long refreshedAt = -1; // never
        long lastTimelineSecond = -1;
        private static final List<String> TIMELINE_GAUGES = List.of("sextant.destination.write.limit",
                "sextant.destination.writes.in.flight", "sextant.destination.writes.queued",
                "sextant.positions.pending", "sextant.sync.oldest.pending.age");
        Map<String, List<Gauge>> gauges = Map.of();
        List<Counter> commitsRead = List.of();
        List<Counter> positionsApplied = List.of();
        List<Counter> adminRequests = List.of();
        List<Counter> intervalRecordsRead = List.of();
        List<Counter> intervalsProven = List.of();
        List<Counter> intervalVerdicts = List.of();
        List<Counter> replanned = List.of();
        /** The oldest unwritten commit's age, highest of the snapshots since the last timeline line (s). */
        double oldestPeak;
        List<Meter> streamThread = List.of();
        long proofThread = -1;
        List<ObjectName> adminClients = List.of();

        Lookups(MeterRegistry registry, String clientId) {
            this.registry = registry;
            this.clientId = clientId;
        }

        synchronized Lookups refreshIfDue(boolean force) {
            long now = System.currentTimeMillis();
            if (!force && refreshedAt >= 0 && now - refreshedAt < REFRESH_MS) {
                return this;
            }
            refreshedAt = now;
            commitsRead = List.copyOf(registry.find("sextant.commits.read").counters());
            positionsApplied = List.copyOf(registry.find("sextant.positions.applied").counters());
            adminRequests = List.copyOf(registry.find("sextant.admin.requests").counters());
            intervalRecordsRead = List.copyOf(registry.find("sextant.offset.sync.interval.records.read").counters());
            intervalsProven = List.copyOf(registry.find("sextant.offset.sync.intervals").tag("verdict", "proven")
                    .counters());
            intervalVerdicts = List.copyOf(registry.find("sextant.offset.sync.intervals").counters());
            replanned = List.copyOf(registry.find("sextant.writes.replanned").counters());
            List<Meter> thread = new ArrayList<>();
            registry.getMeters().forEach(meter -> {
                String name = meter.getId().getName();
                if (name.startsWith("kafka.stream.thread.") && (name.contains("punctuate")
                        || name.contains("process") || name.contains("poll") || name.contains("commit"))) {
                    thread.add(meter);
                }
            });
            streamThread = thread;
            Map<String, List<Gauge>> byName = new LinkedHashMap<>();
            for (String gauge : TIMELINE_GAUGES) {
                byName.put(gauge, List.copyOf(registry.find(gauge).gauges()));
            }
            gauges = byName;
            adminClients = clientId == null ? List.of() : adminClientMBeans(clientId);
            proofThread = threadId(PROOF_THREAD);
            return this;
        }
    }

    // synchronized: the snapshot thread and the main thread's last write share the timeline file
    private static synchronized void write(ObjectMapper json, SextantApplication app, Lookups lookups, boolean last,
                              Path target) {
        try {
            Lookups found = lookups.refreshIfDue(last);
            ObjectNode node = json.createObjectNode();
            node.put("t", System.currentTimeMillis());
            node.put("state", app.streams() == null ? "CREATED" : app.streams().state().toString());
            node.put("commitsRead", sum(found.commitsRead));
            node.put("positionsApplied", sum(found.positionsApplied));
            ObjectNode calls = node.putObject("adminRequests");
            double total = 0;
            for (Counter c : found.adminRequests) {
                calls.put(c.getId().getTag("call"), c.count());
                total += c.count();
            }
            node.put("adminRequestsTotal", total);
            node.put("wireAdminRequests", found.clientId == null ? -1 : wireRequests(found.adminClients));
            // the cost of proving intervals between offset syncs (translation.interpolation=verified): the records
            // read on both clusters, and the CPU time of the thread that reads and compares them
            node.put("intervalRecordsRead", sum(found.intervalRecordsRead));
            node.put("intervalsProven", sum(found.intervalsProven));
            node.put("intervalProofCpuSeconds", threadCpuSeconds(found.proofThread));
            ObjectNode verdicts = node.putObject("intervalVerdicts");
            found.intervalVerdicts.forEach(c -> verdicts.put(c.getId().getTag("verdict"),
                    verdicts.path(c.getId().getTag("verdict")).asDouble() + c.count()));
            HEAP.sample();
            node.put("heapUsedBytes", HEAP.used());
            node.put("peakHeapUsedBytes", HEAP.peakUsed());
            node.put("peakHeapAfterGcBytes", HEAP.peakAfterGc());
            node.put("peakHeapAfterYoungGcBytes", HEAP.peakAfterYoungGc());
            node.put("heapMaxBytes", HEAP.max());
            // the write path's gauges, for the timeline: how many writes the destination was allowed, had, and queued
            ObjectNode writes = node.putObject("writes");
            found.gauges.forEach((name, gauges) -> writes.put(name.substring("sextant.".length()),
                    gauges.stream().mapToDouble(Gauge::value).sum()));
            // group writes with no new commit behind them, and the oldest new commit's age at its highest in the
            // snapshots (every 100 ms) since the last timeline line: how long new commits waited while they drained
            node.put("replannedWrites", sum(found.replanned));
            found.oldestPeak = Math.max(found.oldestPeak, writes.path("sync.oldest.pending.age").asDouble(0));
            node.put("oldestPendingAgePeak", found.oldestPeak);
            // Kafka Streams' own view of the stream thread: how long punctuations (Sextant's flushes) take
            ObjectNode streams = node.putObject("streamThread");
            for (Meter meter : found.streamThread) {
                String name = meter.getId().getName();
                meter.measure().forEach(m -> streams.put(name.substring("kafka.stream.thread.".length()),
                        m.getValue()));
            }
            if (last || node.get("t").asLong() / 1000 != lookups.lastTimelineSecond) {
                // one line a second: the run's course, for reading a latency tail against what Sextant was doing
                lookups.lastTimelineSecond = node.get("t").asLong() / 1000;
                found.oldestPeak = 0;
                Files.write(target.resolveSibling(target.getFileName() + ".timeline.jsonl"),
                        (json.writeValueAsString(node) + "\n").getBytes(StandardCharsets.UTF_8),
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
            Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
            Files.write(tmp, json.writeValueAsBytes(node));
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            // the next snapshot tries again; the benchmark notices a stale file by its timestamp
        }
    }

    private static double sum(List<Counter> counters) {
        return counters.stream().mapToDouble(Counter::count).sum();
    }

    /** The destination's Admin clients: the main client, its offset writers, its plan readers, the audit's reader. */
    static List<ObjectName> adminClientMBeans(String clientId) {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            List<ObjectName> out = new ArrayList<>();
            for (ObjectName name : server.queryNames(new ObjectName("kafka.admin.client:type=admin-client-metrics,*"),
                    null)) {
                String id = ObjectName.unquote(quoted(name.getKeyProperty("client-id")));
                // the main client, its offset writers ("<id>-writer-<n>"), the readers writes are planned on
                // ("<id>-reader-<n>") and the takeover audit's reader
                if (id.equals(clientId) || id.startsWith(clientId + "-writer-") || id.startsWith(clientId + "-reader-")
                        || id.equals(clientId + "-auditor")) {
                    out.add(name);
                }
            }
            return out;
        } catch (Exception e) {
            return List.of();
        }
    }

    /** {@code request-total} summed over these Admin clients' MBeans, from the platform MBean server. */
    static double wireRequests(List<ObjectName> names) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        double total = 0;
        for (ObjectName name : names) {
            try {
                total += ((Number) server.getAttribute(name, "request-total")).doubleValue();
            } catch (Exception e) {
                // a client closed since the last refresh (only at shutdown): its count is no longer readable
            }
        }
        return total;
    }

    private static String quoted(String value) {
        return value == null ? "\"\"" : value.startsWith("\"") ? value : ObjectName.quote(value);
    }
}
