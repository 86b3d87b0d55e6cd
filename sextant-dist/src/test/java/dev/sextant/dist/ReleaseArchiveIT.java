package dev.sextant.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive {@code mvn package} builds, unpacked as a user would: its layout, and its {@code bin/sextant}
 * running the jars in {@code lib/} with a PATH that has Java and nothing of Maven.
 */
class ReleaseArchiveIT {

    private static final Path TARGET = Path.of(System.getProperty("basedir", "."), "target");

    @Test
    void theArchiveRunsWithoutMavenFromItsOwnJars(@TempDir Path dir) throws Exception {
        Path archive;
        try (Stream<Path> files = Files.list(TARGET)) {
            archive = files.filter(p -> p.getFileName().toString().matches("sextant-.*\\.tar\\.gz")).findFirst()
                    .orElseThrow(() -> new AssertionError("no sextant-<version>.tar.gz in " + TARGET));
        }
        assertEquals(0, run(dir, Map.of(), "tar", "xzf", archive.toString()).exit());
        Path home;
        try (Stream<Path> unpacked = Files.list(dir)) {
            home = unpacked.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        for (String entry : List.of("bin/sextant", "lib", "config/sextant.properties", "plugins", "LICENSE",
                "README.md", "CHANGELOG.md", "docs/configuration.md")) {
            assertTrue(Files.exists(home.resolve(entry)), entry + " in the archive");
        }
        assertTrue(Files.isExecutable(home.resolve("bin/sextant")));
        try (Stream<Path> jars = Files.list(home.resolve("lib"))) {
            List<String> names = jars.map(p -> p.getFileName().toString()).toList();
            assertTrue(names.stream().anyMatch(n -> n.matches("sextant-0.*\\.jar")), names.toString());
            assertTrue(names.stream().anyMatch(n -> n.startsWith("kafka-streams-")), names.toString());
            assertTrue(names.stream().noneMatch(n -> n.contains("testkit") || n.contains("maven-resolver")
                    || n.contains("junit")), "no test tooling: " + names);
        }

        // a PATH with java and the few shell tools the launcher uses, and no Maven
        Path bin = Files.createDirectories(dir.resolve("path"));
        Files.createSymbolicLink(bin.resolve("java"), Path.of(System.getProperty("java.home"), "bin", "java"));
        for (String tool : List.of("bash", "sh", "env", "dirname")) {
            Path where = Stream.of("/usr/bin", "/bin").map(d -> Path.of(d, tool)).filter(Files::exists).findFirst()
                    .orElseThrow(() -> new AssertionError("no " + tool));
            Files.createSymbolicLink(bin.resolve(tool), where);
        }
        Map<String, String> env = Map.of("PATH", bin.toString());
        assertTrue(run(dir, env, bin.resolve("sh").toString(), "-c", "command -v mvn").exit() != 0,
                "mvn is not on this PATH");

        Run version = run(home, env, bin.resolve("bash").toString(), "bin/sextant", "version");
        assertEquals(0, version.exit(), version.output());
        assertTrue(version.output().contains("sextant 0.1.0"), version.output());
        Run check = run(home, env, bin.resolve("bash").toString(), "bin/sextant", "config", "check", "-c",
                "config/sextant.properties");
        assertEquals(0, check.exit(), check.output());
        Path broken = dir.resolve("broken.properties");
        Files.writeString(broken,
                "source.bootstrap.servers=a:1\ndestination.bootstrap.servers=b:1\nsync.intervall.ms=5\n");
        Run refused = run(home, env, bin.resolve("bash").toString(), "bin/sextant", "config", "check", "-c",
                broken.toString());
        assertEquals(2, refused.exit(), refused.output());
        assertTrue(refused.output().contains("sync.interval.ms"), refused.output());

        // a custom replication policy, compiled here, found only once its jar is in plugins/ or SEXTANT_CLASSPATH
        Path policyJar = customPolicyJar(dir, home.resolve("lib"));
        Path custom = dir.resolve("custom.properties");
        Files.writeString(custom, "source.bootstrap.servers=a:1\ndestination.bootstrap.servers=b:1\n"
                + "replication.policy=" + POLICY_CLASS + "\n");
        Run missing = run(home, env, bin.resolve("bash").toString(), "bin/sextant", "config", "check", "-c",
                custom.toString());
        assertEquals(2, missing.exit(), missing.output());
        assertTrue(missing.output().contains("replication.policy"), missing.output());
        Path plugin = home.resolve("plugins").resolve("custom-policy.jar");
        Files.copy(policyJar, plugin);
        Run found = run(home, env, bin.resolve("bash").toString(), "bin/sextant", "config", "check", "-c",
                custom.toString());
        assertEquals(0, found.exit(), found.output());
        Files.delete(plugin);
        Map<String, String> withClasspath = Map.of("PATH", bin.toString(), "SEXTANT_CLASSPATH", policyJar.toString());
        Run viaVariable = run(home, withClasspath, bin.resolve("bash").toString(), "bin/sextant", "config", "check",
                "-c", custom.toString());
        assertEquals(0, viaVariable.exit(), viaVariable.output());

        System.out.printf("release archive %s (%d MB) runs from its own lib/ without Maven%n",
                archive.getFileName(), Files.size(archive) >> 20);
    }

    private record Run(int exit, String output) {
    }

    private static final String POLICY_CLASS = "com.example.sextant.UnderscorePolicy";

    /** A jar with a {@code ReplicationPolicy} of our own, compiled against the archive's connect-mirror-client. */
    private static Path customPolicyJar(Path dir, Path lib) throws IOException {
        Path src = Files.createDirectories(dir.resolve("policy-src/com/example/sextant"));
        Files.writeString(src.resolve("UnderscorePolicy.java"), """
                package com.example.sextant;

                import java.util.HashMap;
                import java.util.Map;
                import org.apache.kafka.connect.mirror.DefaultReplicationPolicy;

                /** Names mirrored topics source_orders instead of source.orders. */
                public class UnderscorePolicy extends DefaultReplicationPolicy {
                    @Override
                    public void configure(Map<String, ?> props) {
                        Map<String, Object> p = new HashMap<>(props);
                        p.put(SEPARATOR_CONFIG, "_");
                        super.configure(p);
                    }
                }
                """);
        Path classes = Files.createDirectories(dir.resolve("policy-classes"));
        String classpath;
        try (Stream<Path> jars = Files.list(lib)) {
            classpath = jars.map(Path::toString).filter(n -> n.contains("connect-mirror-client")
                    || n.contains("kafka-clients")).collect(Collectors.joining(":"));
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        int compiled = compiler.run(null, null, null, "-classpath", classpath, "-d", classes.toString(),
                src.resolve("UnderscorePolicy.java").toString());
        assertEquals(0, compiled, "the custom policy compiles");
        Path jar = dir.resolve("custom-policy.jar");
        try (var out = new JarOutputStream(Files.newOutputStream(jar))) {
            Path cls = classes.resolve("com/example/sextant/UnderscorePolicy.class");
            out.putNextEntry(new JarEntry("com/example/sextant/UnderscorePolicy.class"));
            out.write(Files.readAllBytes(cls));
            out.closeEntry();
        }
        return jar;
    }

    private static Run run(Path dir, Map<String, String> env, String... command)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(command));
        ProcessBuilder builder = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        if (!env.isEmpty()) {
            builder.environment().clear();
            builder.environment().putAll(env);
        }
        Process process = builder.start();
        byte[] out = process.getInputStream().readAllBytes();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish");
        }
        return new Run(process.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}
