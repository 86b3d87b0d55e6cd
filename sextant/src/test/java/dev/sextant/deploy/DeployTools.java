package dev.sextant.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** The repository's paths and the external tools the checks of {@code deploy/} run. */
final class DeployTools {

    static final Path ROOT = Path.of(System.getProperty("basedir", "."), "..").normalize();
    static final Path DEPLOY = ROOT.resolve("deploy");

    private DeployTools() {
    }

    /**
     * Skips the calling test when {@code tool} is not on the PATH, or fails it when {@code SEXTANT_REQUIRE_TOOLS=1}
     * ({@code .ci/run} sets it and installs the tools): CI must never pass by skipping.
     */
    static void requireTool(String tool, String install) throws Exception {
        boolean present = run(ROOT, "sh", "-c", "command -v " + tool).exit() == 0;
        require(present, tool + " is not installed (" + install + ")");
    }

    /** Like {@link #requireTool}, for any precondition a tool check has. */
    static void require(boolean present, String missing) {
        if (!present && "1".equals(System.getenv("SEXTANT_REQUIRE_TOOLS"))) {
            throw new AssertionError(missing + ", and SEXTANT_REQUIRE_TOOLS=1 (.ci/run installs it)");
        }
        Assumptions.assumeTrue(present, missing);
    }

    record Result(int exit, String output) {
    }

    /** Runs {@code command} in {@code dir}, standard error merged into the output; at most 120 s. */
    static Result run(Path dir, String... command) throws Exception {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        byte[] out = process.getInputStream().readAllBytes();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish in 120 s");
        }
        return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    /** {@code kubectl kustomize} of a directory under deploy/kubernetes (relative to it), into a file in dir. */
    static Path kustomize(String kustomization, Path dir) throws Exception {
        requireTool("kubectl", "kubectl 1.27 or newer, whose kustomize is version 5");
        Result rendered = run(DEPLOY.resolve("kubernetes"), "kubectl", "kustomize", kustomization);
        assertEquals(0, rendered.exit(), rendered.output());
        Path file = dir.resolve(kustomization.replace('/', '-').replace('.', '_') + ".yaml");
        Files.writeString(file, rendered.output());
        return file;
    }
}
