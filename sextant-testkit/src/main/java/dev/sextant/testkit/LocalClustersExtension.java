package dev.sextant.testkit;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives integration tests one shared {@link LocalClusters} (source, destination and MirrorMaker 2 mirroring every
 * topic) for the whole test run: started by the first test class that uses this extension, closed when the run
 * ends (it lives in the root {@link ExtensionContext.Store}).
 *
 * <p>Use it with {@code @ExtendWith(LocalClustersExtension.class)} and either a {@code LocalClusters} parameter
 * (test, lifecycle or constructor) or {@link #clusters()}.
 *
 * <p>Invariants: at most one {@code LocalClusters} per test run; a failed start is not retried (the store
 * remembers the failure, so every later test fails fast with the same cause instead of waiting again). Tests share
 * the clusters, so each test must use its own topic and group names.
 */
public final class LocalClustersExtension implements BeforeAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(LocalClustersExtension.class);

    private static volatile LocalClusters current;

    /**
     * The shared clusters. Valid from the {@code @BeforeAll} phase of a class extended with this extension until the
     * end of the test run.
     */
    public static LocalClusters clusters() {
        LocalClusters clusters = current;
        if (clusters == null) {
            throw new IllegalStateException("no local clusters: annotate the test class with "
                    + "@ExtendWith(LocalClustersExtension.class)");
        }
        return clusters;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        clusters(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == LocalClusters.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return clusters(extensionContext);
    }

    private static LocalClusters clusters(ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent(SharedClusters.class, key -> new SharedClusters(), SharedClusters.class)
                .clusters;
    }

    /**
     * The store entry. JUnit closes it when the root context closes: through {@link AutoCloseable} (JUnit 5.13+)
     * or, if that is switched off, through the deprecated {@code CloseableResource}; {@link LocalClusters#close()}
     * is idempotent either way.
     */
    @SuppressWarnings("deprecation")
    private static final class SharedClusters implements AutoCloseable, ExtensionContext.Store.CloseableResource {
        final LocalClusters clusters;

        SharedClusters() {
            clusters = LocalClusters.builder()
                    // every topic (MirrorMaker's default exclusions still skip internal ones); no checkpoints or
                    // group-offset sync, so MirrorMaker never writes the groups Sextant syncs
                    .mirrorMaker(LocalMirrorMaker.Options.builder().topics(".*").build())
                    .start();
            current = clusters;
        }

        @Override
        public void close() {
            current = null;
            clusters.close();
        }
    }
}
