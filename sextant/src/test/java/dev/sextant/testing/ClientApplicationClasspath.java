package dev.sextant.testing;

import dev.sextant.client.SextantClient;
import dev.sextant.testkit.KafkaDistribution;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.aether.RepositorySystem;
import org.eclipse.aether.RepositorySystemSession.CloseableSession;
import org.eclipse.aether.artifact.Artifact;
import org.eclipse.aether.artifact.DefaultArtifact;
import org.eclipse.aether.collection.CollectRequest;
import org.eclipse.aether.graph.Dependency;
import org.eclipse.aether.repository.RemoteRepository;
import org.eclipse.aether.repository.WorkspaceReader;
import org.eclipse.aether.repository.WorkspaceRepository;
import org.eclipse.aether.resolution.ArtifactResult;
import org.eclipse.aether.resolution.DependencyRequest;
import org.eclipse.aether.resolution.DependencyResolutionException;
import org.eclipse.aether.supplier.RepositorySystemSupplier;
import org.eclipse.aether.supplier.SessionBuilderSupplier;
import org.eclipse.aether.util.artifact.JavaScopes;
import org.eclipse.aether.util.filter.DependencyFilterUtils;

/**
 * The runtime classpath Maven gives an application that declares {@code dev.sextant:sextant-client} and the given
 * other dependencies (its own {@code kafka-clients}): resolved by Maven Resolver from this build's own POMs (the
 * reactor's {@code pom.xml} files and the client's classes, not an installed copy), the rest from the local
 * repository or Maven Central. What the client's POM brings is exactly what an application gets.
 */
public final class ClientApplicationClasspath {

    private static final String GROUP = "dev.sextant";
    private static final String CENTRAL_URL = "https://repo.maven.apache.org/maven2/";

    private ClientApplicationClasspath() {
    }

    /** The resolved jars (and the client's classes directory), in Maven's order. */
    public static List<Path> resolve(List<String> applicationDependencies) {
        Path root = reactorRoot();
        String version = projectVersion(root);
        List<Dependency> dependencies = new ArrayList<>();
        dependencies.add(new Dependency(new DefaultArtifact(GROUP + ":sextant-client:" + version), JavaScopes.COMPILE));
        for (String coordinate : applicationDependencies) {
            dependencies.add(new Dependency(new DefaultArtifact(coordinate), JavaScopes.COMPILE));
        }
        RemoteRepository central = new RemoteRepository.Builder("central", "default", CENTRAL_URL).build();
        CollectRequest collect = new CollectRequest(dependencies, List.of(), List.of(central));
        DependencyRequest request = new DependencyRequest(collect,
                DependencyFilterUtils.classpathFilter(JavaScopes.RUNTIME));
        RepositorySystem system = new RepositorySystemSupplier().get();
        try (CloseableSession session = new SessionBuilderSupplier(system).get()
                .withLocalRepositoryBaseDirectories(KafkaDistribution.localRepository())
                .setWorkspaceReader(new Reactor(root, version))
                .build()) {
            List<Path> classpath = new ArrayList<>();
            for (ArtifactResult result : system.resolveDependencies(session, request).getArtifactResults()) {
                classpath.add(result.getArtifact().getPath());
            }
            return List.copyOf(classpath);
        } catch (DependencyResolutionException e) {
            throw new IllegalStateException("cannot resolve an application of sextant-client with "
                    + applicationDependencies + ": " + e.getMessage(), e);
        } finally {
            system.shutdown();
        }
    }

    /** The build's root directory: the parent of the module the tests run in ({@code basedir}). */
    private static Path reactorRoot() {
        Path module = Paths.get(System.getProperty("basedir", ".")).toAbsolutePath().normalize();
        Path root = module.getParent();
        if (root == null || !Files.isRegularFile(root.resolve("sextant-client").resolve("pom.xml"))) {
            throw new IllegalStateException("not inside the Sextant build: " + module);
        }
        return root;
    }

    private static String projectVersion(Path root) {
        try {
            String pom = Files.readString(root.resolve("pom.xml"));
            int artifact = pom.indexOf("<artifactId>sextant-parent</artifactId>");
            int start = pom.indexOf("<version>", artifact) + "<version>".length();
            return pom.substring(start, pom.indexOf("</version>", start)).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** This build's modules as Maven's reactor offers them: each POM from its directory, the client's classes. */
    private static final class Reactor implements WorkspaceReader {
        private final WorkspaceRepository repository = new WorkspaceRepository("sextant-reactor");
        private final Map<String, Path> poms;
        private final String version;

        Reactor(Path root, String version) {
            this.version = version;
            this.poms = Map.of("sextant-parent", root.resolve("pom.xml"),
                    "sextant-client", root.resolve("sextant-client").resolve("pom.xml"));
        }

        @Override
        public WorkspaceRepository getRepository() {
            return repository;
        }

        @Override
        public File findArtifact(Artifact artifact) {
            if (!GROUP.equals(artifact.getGroupId()) || !version.equals(artifact.getVersion())
                    || !poms.containsKey(artifact.getArtifactId())) {
                return null;
            }
            if ("pom".equals(artifact.getExtension())) {
                return poms.get(artifact.getArtifactId()).toFile();
            }
            if ("sextant-client".equals(artifact.getArtifactId()) && "jar".equals(artifact.getExtension())
                    && artifact.getClassifier().isEmpty()) {
                return clientClasses().toFile();
            }
            return null;
        }

        @Override
        public List<String> findVersions(Artifact artifact) {
            return findArtifact(artifact) == null ? List.of() : List.of(version);
        }

        /** Where this JVM loads the client from: its classes directory or its jar, as the build made them. */
        private static Path clientClasses() {
            try {
                return Paths.get(SextantClient.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            } catch (URISyntaxException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
