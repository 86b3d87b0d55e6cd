package dev.sextant.testkit;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives integration tests one shared {@link LocalClusters} (source, destination and MirrorMaker 2 mirroring every
 * topic) per test JVM: started by the first test class that uses this extension, closed when the JVM exits
 * ({@link ShutdownRegistry}).
 *
 * <p>Per JVM, not per JUnit run: with several test JVMs (failsafe's {@code forkCount}) each runs one test class per
 * JUnit request, so the run's root context closes after every class; clusters kept there were stopped and started
 * again for each class.
 *
 * <p>Use it with {@code @ExtendWith(LocalClustersExtension.class)} and either a {@code LocalClusters} parameter
 * (test, lifecycle or constructor) or {@link #clusters()}.
 *
 * <p>Invariants: at most one {@code LocalClusters} per JVM; a failed start is not retried (the failure is kept, so
 * every later test fails fast with the same cause instead of waiting again). Tests share the clusters, so each test
 * must use its own topic and group names.
 */
public final class LocalClustersExtension implements BeforeAllCallback, ParameterResolver {

    private static LocalClusters shared; // guarded by LocalClustersExtension.class
    private static RuntimeException failedStart; // guarded by LocalClustersExtension.class

    /**
     * The shared clusters, started now if no test class of this JVM started them yet.
     *
     * @throws IllegalStateException when they failed to start (now or before)
     */
    public static synchronized LocalClusters clusters() {
        if (failedStart != null) {
            throw new IllegalStateException("the shared local clusters failed to start: " + failedStart.getMessage(),
                    failedStart);
        }
        if (shared == null) {
            try {
                shared = LocalClusters.builder()
                        // every topic (MirrorMaker's default exclusions still skip internal ones); no checkpoints or
                        // group-offset sync, so MirrorMaker never writes the groups Sextant syncs
                        .mirrorMaker(LocalMirrorMaker.Options.builder().topics(".*").build())
                        .start(); // registered with ShutdownRegistry: closed when the JVM exits
            } catch (RuntimeException e) {
                failedStart = e;
                throw e;
            }
        }
        return shared;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        clusters();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == LocalClusters.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return clusters();
    }
}
