package dev.sextant.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.MetricsReporter;

/**
 * A Kafka {@link MetricsReporter} the benchmark installs on MirrorMaker's Admin clients for the destination
 * ({@code destination.admin.metric.reporters}): it keeps every client's {@code request-total} (Kafka's count of
 * requests sent), also after the client is closed, and writes the totals per client id every 500 ms to the file in
 * system property {@value #FILE_PROPERTY}. JMX cannot be used for this: MirrorMaker's checkpoint task opens a second
 * Admin client with the same client id, whose metrics replace the first one's MBean and vanish when it closes.
 *
 * <p>Invariant: one class file that needs only kafka-clients (it runs on MirrorMaker's 4.3.1 classpath; see
 * {@link Mm2CheckpointProcess}).
 */
public class RequestCountingReporter implements MetricsReporter {

    static final String FILE_PROPERTY = "sextant.bench.requests.file";

    private static final Map<KafkaMetric, String> LIVE = new ConcurrentHashMap<>();
    private static final Map<String, Double> CLOSED = new ConcurrentHashMap<>();
    private static final AtomicBoolean WRITER = new AtomicBoolean();

    @Override
    public void configure(Map<String, ?> configs) {
        // nothing to configure: the output file is a system property of the JVM
    }

    @Override
    public void init(List<KafkaMetric> metrics) {
        metrics.forEach(this::metricChange);
        String file = System.getProperty(FILE_PROPERTY);
        if (file != null && WRITER.compareAndSet(false, true)) {
            Thread writer = new Thread(() -> writeLoop(Paths.get(file)), "bench-request-counter");
            writer.setDaemon(true);
            writer.start();
        }
    }

    @Override
    public void metricChange(KafkaMetric metric) {
        if (metric.metricName().name().equals("request-total")
                && metric.metricName().group().equals("admin-client-metrics")) {
            LIVE.put(metric, String.valueOf(metric.metricName().tags().get("client-id")));
        }
    }

    @Override
    public void metricRemoval(KafkaMetric metric) {
        String clientId = LIVE.remove(metric);
        if (clientId != null) {
            CLOSED.merge(clientId, value(metric), Double::sum);
        }
    }

    @Override
    public void close() {
        // the totals stay: other clients in this JVM keep reporting
    }

    private static double value(KafkaMetric metric) {
        Object v = metric.metricValue();
        return v instanceof Number n ? n.doubleValue() : 0;
    }

    /** Totals per client id, closed clients included. */
    static Map<String, Double> totals() {
        Map<String, Double> out = new TreeMap<>(CLOSED);
        LIVE.forEach((metric, id) -> out.merge(id, value(metric), Double::sum));
        return out;
    }

    private static void writeLoop(Path file) {
        while (true) {
            try {
                StringBuilder text = new StringBuilder();
                totals().forEach((id, total) -> text.append(id).append('\t').append(total.longValue()).append('\n'));
                Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
                Files.writeString(tmp, text, StandardCharsets.UTF_8);
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                Thread.sleep(500);
            } catch (IOException e) {
                // try again at the next tick
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Sum of the totals in a file this reporter wrote, over client ids containing {@code match}; -1 if absent. */
    static double read(Path file, String match) {
        try {
            double sum = 0;
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                int tab = line.lastIndexOf('\t');
                if (tab > 0 && line.substring(0, tab).contains(match)) {
                    sum += Double.parseDouble(line.substring(tab + 1));
                }
            }
            return sum;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
