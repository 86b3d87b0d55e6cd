package dev.sextant.testing;

import dev.sextant.testkit.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** {@code sextant run -c FILE} in a child JVM on this JVM's classpath, so a test can SIGKILL it. */
public final class SextantProcess {

    private SextantProcess() {
    }

    /** Writes {@code config} as a properties file. */
    public static Path writeConfig(Path file, Map<String, String> config) throws IOException {
        Files.writeString(file, config.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n", "", "\n")));
        return file;
    }

    public static ChildJvm start(Path config, Path log) {
        return start(config, log, Map.of());
    }

    /** @param environment extra environment variables, e.g. {@code SEXTANT_LOG_FORMAT=json} */
    public static ChildJvm start(Path config, Path log, Map<String, String> environment) {
        Map<String, String> env = new HashMap<>(Map.of("SEXTANT_KAFKA_LOG_LEVEL", "WARN"));
        env.putAll(environment);
        // this JVM's classpath has the tests' logback-test.xml, which logback prefers: use the application's own
        List<String> jvm = List.of("-Xmx384m", "-XX:TieredStopAtLevel=1", "-Dlogback.configurationFile=logback.xml");
        return ChildJvm.start("sextant", jvm, ChildJvm.thisClasspath(), "dev.sextant.cli.SextantCommand",
                List.of("run", "-c", config.toString()), log, env);
    }

    public static void deleteRecursively(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
