package dev.sextant.testing;

import ch.qos.logback.classic.Level;
import dev.sextant.SextantApplication;
import dev.sextant.config.SextantConfig;
import dev.sextant.config.SextantConfigLoader;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.LocalClusters;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KafkaStreams;

/** A real Sextant instance in the test JVM, against the shared local clusters. */
public final class SextantInstance implements AutoCloseable {

    /** The Streams client's close (30 s) and the rest of the stop, each bounded: a stop that takes longer hangs. */
    private static final Duration STOP_BOUND = Duration.ofMinutes(2);

    private final SextantApplication app;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final Path stateDir;

    private SextantInstance(SextantConfig config, Path stateDir) {
        this.stateDir = stateDir;
        this.app = new SextantApplication(config, registry);
    }

    /** Settings every test needs; {@code overrides} adds or replaces keys. */
    public static Map<String, Object> config(LocalClusters clusters, String applicationId, Path stateDir,
                                             Map<String, Object> overrides) {
        Map<String, Object> props = new HashMap<>();
        props.put("source.bootstrap.servers", clusters.source().bootstrapServers());
        props.put("destination.bootstrap.servers", clusters.destination().bootstrapServers());
        props.put("application.id", applicationId);
        props.put("state.dir", stateDir.toString());
        props.put("query.listen", "127.0.0.1:0");
        props.put("sync.interval.ms", "100");
        props.put("sync.pending.timeout.ms", "3000");
        props.put("streams.num.stream.threads", "1");
        props.putAll(overrides);
        return props;
    }

    public static SextantInstance start(LocalClusters clusters, String applicationId, Map<String, Object> overrides) {
        try {
            Path stateDir = Files.createTempDirectory("sextant-it-" + applicationId);
            return start(clusters, applicationId, stateDir, overrides);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static SextantInstance start(LocalClusters clusters, String applicationId, Path stateDir,
                                        Map<String, Object> overrides) {
        SextantConfig config = SextantConfigLoader.load(config(clusters, applicationId, stateDir, overrides), Map.of());
        SextantInstance instance = new SextantInstance(config, stateDir);
        instance.app.start();
        Await.until(Duration.ofSeconds(60), applicationId + " running",
                () -> instance.app.streams().state() == KafkaStreams.State.RUNNING);
        return instance;
    }

    /** An instance of a whole configuration of the test's own (e.g. one {@code sextant failback-config} printed). */
    public static SextantInstance start(Map<String, Object> properties, Path stateDir) {
        SextantConfig config = SextantConfigLoader.load(properties, Map.of());
        SextantInstance instance = new SextantInstance(config, stateDir);
        instance.app.start();
        Await.until(Duration.ofSeconds(60), config.applicationId() + " running",
                () -> instance.app.streams().state() == KafkaStreams.State.RUNNING);
        return instance;
    }

    public SextantApplication app() {
        return app;
    }

    public SimpleMeterRegistry registry() {
        return registry;
    }

    public Path stateDir() {
        return stateDir;
    }

    /**
     * Stops the instance as {@code sextant run} does on SIGTERM, from its shutdown hook and its main thread at once,
     * and fails the test when either threw, or when Sextant's code logged a warning or an error with an exception
     * meanwhile, or anything logged a {@code ConcurrentModificationException} (on any thread: where a test runs
     * several instances, theirs too, named in the message).
     */
    @Override
    public void close() {
        try (LoggedExceptions logged = LoggedExceptions.record()) {
            List<Throwable> thrown = TwoStops.run(app::close, STOP_BOUND);
            List<String> loud = logged.fromStop(Level.WARN);
            if (!thrown.isEmpty() || !loud.isEmpty()) {
                AssertionError failed = new AssertionError("The stop of " + app.settings().applicationId()
                        + " was not quiet: threw " + thrown + "; logged with an exception:\n  "
                        + String.join("\n  ", loud));
                thrown.forEach(failed::addSuppressed);
                throw failed;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while stopping " + app.settings().applicationId(), e);
        }
    }
}
