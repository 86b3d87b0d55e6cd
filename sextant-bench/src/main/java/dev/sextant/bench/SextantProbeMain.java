package dev.sextant.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sextant.SextantApplication;
import dev.sextant.config.SextantConfig;
import dev.sextant.config.SextantConfigLoader;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Set;
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
        writer.scheduleAtFixedRate(() -> write(json, app, registry, clientId, target), 0, everyMs,
                TimeUnit.MILLISECONDS);
        app.start();
        Throwable failure = app.awaitStop();
        write(json, app, registry, clientId, target);
        app.close();
        if (failure != null) {
            System.err.println("sextant: " + failure.getMessage());
            System.exit(1);
        }
    }

    private static void write(ObjectMapper json, SextantApplication app, MeterRegistry registry, String clientId,
                              Path target) {
        try {
            ObjectNode node = json.createObjectNode();
            node.put("t", System.currentTimeMillis());
            node.put("state", app.streams() == null ? "CREATED" : app.streams().state().toString());
            node.put("commitsRead", sum(registry, "sextant.commits.read"));
            node.put("positionsApplied", sum(registry, "sextant.positions.applied"));
            ObjectNode calls = node.putObject("adminRequests");
            double total = 0;
            for (Counter c : registry.find("sextant.admin.requests").counters()) {
                calls.put(c.getId().getTag("call"), c.count());
                total += c.count();
            }
            node.put("adminRequestsTotal", total);
            node.put("wireAdminRequests", clientId == null ? -1 : wireRequests(clientId));
            HEAP.sample();
            node.put("heapUsedBytes", HEAP.used());
            node.put("peakHeapUsedBytes", HEAP.peakUsed());
            node.put("peakHeapAfterGcBytes", HEAP.peakAfterGc());
            node.put("peakHeapAfterYoungGcBytes", HEAP.peakAfterYoungGc());
            node.put("heapMaxBytes", HEAP.max());
            // Kafka Streams' own view of the stream thread: how long punctuations (Sextant's flushes) take
            ObjectNode streams = node.putObject("streamThread");
            registry.getMeters().forEach(meter -> {
                String name = meter.getId().getName();
                if (name.startsWith("kafka.stream.thread.") && (name.contains("punctuate") || name.contains("process")
                        || name.contains("poll") || name.contains("commit"))) {
                    meter.measure().forEach(m -> streams.put(name.substring("kafka.stream.thread.".length()),
                            m.getValue()));
                }
            });
            Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
            Files.write(tmp, json.writeValueAsBytes(node));
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            // the next snapshot tries again; the benchmark notices a stale file by its timestamp
        }
    }

    private static double sum(MeterRegistry registry, String name) {
        return registry.find(name).counters().stream().mapToDouble(Counter::count).sum();
    }

    /** {@code request-total} of the Admin client(s) with this client id, from the platform MBean server. */
    static double wireRequests(String clientId) {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            Set<ObjectName> names = server.queryNames(new ObjectName(
                    "kafka.admin.client:type=admin-client-metrics,*"), null);
            double total = 0;
            for (ObjectName name : names) {
                String id = ObjectName.unquote(quoted(name.getKeyProperty("client-id")));
                // the main client and its offset writers (sync.write.parallelism), "<id>-writer-<n>"
                if (id.equals(clientId) || id.startsWith(clientId + "-writer-")) {
                    total += ((Number) server.getAttribute(name, "request-total")).doubleValue();
                }
            }
            return total;
        } catch (Exception e) {
            return -1;
        }
    }

    private static String quoted(String value) {
        return value == null ? "\"\"" : value.startsWith("\"") ? value : ObjectName.quote(value);
    }
}
