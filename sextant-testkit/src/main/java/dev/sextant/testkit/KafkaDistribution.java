package dev.sextant.testkit;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.aether.RepositorySystem;
import org.eclipse.aether.RepositorySystemSession.CloseableSession;
import org.eclipse.aether.artifact.DefaultArtifact;
import org.eclipse.aether.collection.CollectRequest;
import org.eclipse.aether.graph.Dependency;
import org.eclipse.aether.repository.RemoteRepository;
import org.eclipse.aether.resolution.ArtifactResult;
import org.eclipse.aether.resolution.DependencyRequest;
import org.eclipse.aether.resolution.DependencyResolutionException;
import org.eclipse.aether.supplier.RepositorySystemSupplier;
import org.eclipse.aether.supplier.SessionBuilderSupplier;
import org.eclipse.aether.util.artifact.JavaScopes;
import org.eclipse.aether.util.filter.DependencyFilterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A set of Maven coordinates whose transitive runtime closure is the classpath of a child JVM
 * (a Kafka broker or MirrorMaker 2).
 *
 * <p>Invariants:
 * <ul>
 *   <li>The jars are resolved with Maven Resolver into the same local repository Maven uses
 *       ({@code maven.repo.local} if set, else {@code ~/.m2/repository}), from Maven Central only.</li>
 *   <li>They are only ever put on a <em>child</em> JVM's classpath, never on Sextant's own: the broker
 *       brings Scala and server internals, and MirrorMaker 4.3.1 needs its own 4.3.1 clients
 *       (it fails with {@code NoClassDefFoundError} next to 4.4.0 jars).</li>
 *   <li>A distribution is resolved at most once per JVM (cached by its coordinates); later calls
 *       return the same immutable list.</li>
 * </ul>
 */
public final class KafkaDistribution {

    /** System property naming the broker version; the default is {@link #DEFAULT_BROKER_VERSION}. */
    public static final String BROKER_VERSION_PROPERTY = "sextant.local.kafka.version";
    /** System property naming the MirrorMaker 2 version; the default is {@link #DEFAULT_MIRROR_VERSION}. */
    public static final String MIRROR_VERSION_PROPERTY = "sextant.local.mirror.version";
    public static final String DEFAULT_BROKER_VERSION = "4.4.0";
    /** connect-mirror 4.4.0 is not published on Maven Central; 4.3.1 works against 4.4.0 brokers. */
    public static final String DEFAULT_MIRROR_VERSION = "4.3.1";
    /** The log4j2 version Kafka 4.x ships with; used for the SLF4J binding added to both distributions. */
    public static final String LOG4J_VERSION = "2.25.5";

    static final String CENTRAL_URL = "https://repo.maven.apache.org/maven2/";

    private static final Logger LOG = LoggerFactory.getLogger(KafkaDistribution.class);

    /** Per-JVM cache keyed by the coordinate list; each entry resolves once, even under concurrent callers. */
    private static final Map<List<String>, Resolution> CACHE = new ConcurrentHashMap<>();

    private final String name;
    private final String version;
    private final List<String> coordinates;

    private KafkaDistribution(String name, String version, List<String> coordinates) {
        this.name = Objects.requireNonNull(name, "name");
        this.version = Objects.requireNonNull(version, "version");
        if (coordinates.isEmpty()) {
            throw new IllegalArgumentException("a distribution needs at least one coordinate");
        }
        this.coordinates = List.copyOf(coordinates);
    }

    /**
     * The broker: {@code org.apache.kafka:kafka_2.13} in the version of system property
     * {@value #BROKER_VERSION_PROPERTY} (default {@value #DEFAULT_BROKER_VERSION}), plus
     * {@code log4j-slf4j-impl}, because kafka_2.13 declares slf4j-api 1.7 but no binding, and without one the
     * broker would log nothing.
     */
    public static KafkaDistribution broker() {
        return broker(System.getProperty(BROKER_VERSION_PROPERTY, DEFAULT_BROKER_VERSION));
    }

    /** The broker in an explicit version; see {@link #broker()}. */
    public static KafkaDistribution broker(String version) {
        return new KafkaDistribution("kafka", version, List.of(
                "org.apache.kafka:kafka_2.13:" + version,
                "org.apache.logging.log4j:log4j-slf4j-impl:" + LOG4J_VERSION));
    }

    /**
     * MirrorMaker 2: {@code org.apache.kafka:connect-mirror} in the version of system property
     * {@value #MIRROR_VERSION_PROPERTY} (default {@value #DEFAULT_MIRROR_VERSION}), resolved on its own so it gets
     * its own matching kafka-clients and connect-runtime. connect-mirror 4.3.1 brings slf4j-api 1.7 and log4j-core
     * but no binding either, hence {@code log4j-slf4j-impl} here too (its "started" log line is our readiness signal).
     */
    public static KafkaDistribution mirrorMaker() {
        return mirrorMaker(System.getProperty(MIRROR_VERSION_PROPERTY, DEFAULT_MIRROR_VERSION));
    }

    /** MirrorMaker 2 in an explicit version; see {@link #mirrorMaker()}. */
    public static KafkaDistribution mirrorMaker(String version) {
        return new KafkaDistribution("connect-mirror", version, List.of(
                "org.apache.kafka:connect-mirror:" + version,
                "org.apache.logging.log4j:log4j-slf4j-impl:" + LOG4J_VERSION));
    }

    /** Any other set of {@code groupId:artifactId[:extension[:classifier]]:version} coordinates. */
    public static KafkaDistribution of(String name, String version, List<String> coordinates) {
        return new KafkaDistribution(name, version, coordinates);
    }

    public String name() {
        return name;
    }

    /** The version of the main artifact (for display). */
    public String version() {
        return version;
    }

    public List<String> coordinates() {
        return coordinates;
    }

    /**
     * The resolved jars, in Maven's resolution order. The first call per JVM resolves (and on a cold local
     * repository downloads, ~40 MB per distribution); later calls return the cached list.
     *
     * @throws IllegalStateException if resolution fails (no network and not cached, unknown version, ...)
     */
    public List<Path> classpath() {
        return CACHE.computeIfAbsent(coordinates, Resolution::new).get();
    }

    @Override
    public String toString() {
        return name + " " + version;
    }

    /**
     * Maven's local repository: system property {@code maven.repo.local} if set (Maven passes it through to
     * surefire/failsafe only if configured, but a user may set it for the demo), else {@code ~/.m2/repository}.
     */
    public static Path localRepository() {
        String configured = System.getProperty("maven.repo.local");
        if (configured != null && !configured.isBlank()) {
            return Paths.get(configured).toAbsolutePath();
        }
        return Paths.get(System.getProperty("user.home"), ".m2", "repository");
    }

    /** One memoised resolution; {@code synchronized} so concurrent callers wait for the first one. */
    private static final class Resolution {
        private final List<String> coordinates;
        private List<Path> jars;

        Resolution(List<String> coordinates) {
            this.coordinates = coordinates;
        }

        synchronized List<Path> get() {
            if (jars == null) {
                jars = resolve(coordinates);
            }
            return jars;
        }
    }

    private static List<Path> resolve(List<String> coordinates) {
        long started = System.nanoTime();
        Path localRepo = localRepository();
        // "central" must be the id: Maven records it in _remote.repositories, and the enhanced local repository
        // manager only trusts cached jars that came from a repository with the same id (so we reuse Maven's cache).
        RemoteRepository central = new RemoteRepository.Builder("central", "default", CENTRAL_URL).build();
        List<Dependency> dependencies = new ArrayList<>();
        for (String coordinate : coordinates) {
            dependencies.add(new Dependency(new DefaultArtifact(coordinate), JavaScopes.RUNTIME));
        }
        CollectRequest collect = new CollectRequest(dependencies, List.of(), List.of(central));
        DependencyRequest request = new DependencyRequest(collect,
                DependencyFilterUtils.classpathFilter(JavaScopes.RUNTIME));

        RepositorySystem system = new RepositorySystemSupplier().get();
        try (CloseableSession session = new SessionBuilderSupplier(system).get()
                .withLocalRepositoryBaseDirectories(localRepo)
                .build()) {
            List<Path> jars = new ArrayList<>();
            for (ArtifactResult result : system.resolveDependencies(session, request).getArtifactResults()) {
                Path jar = result.getArtifact().getPath();
                if (jar != null && jar.getFileName().toString().endsWith(".jar")) {
                    jars.add(jar);
                }
            }
            LOG.info("Resolved {} ({} jars) from {} in {} ms", coordinates, jars.size(), localRepo,
                    Duration.ofNanos(System.nanoTime() - started).toMillis());
            return List.copyOf(jars);
        } catch (DependencyResolutionException e) {
            throw new IllegalStateException("Cannot resolve " + coordinates + " from " + CENTRAL_URL
                    + " into " + localRepo + ": " + e.getMessage(), e);
        } finally {
            system.shutdown();
        }
    }
}
