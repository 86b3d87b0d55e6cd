package dev.sextant.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The script {@code config acls} prints (issue 50, item 5): run as printed, with a variable missing it used to run
 * every kafka-acls command with an empty --bootstrap-server; now it stops first, naming the variable.
 */
class AclScriptTest {

    private static final Path ROOT = Path.of(System.getProperty("basedir", "."), "..").normalize();

    private String script() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = SextantCommand.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        assertEquals(0, cli.execute("config", "acls", "-c", ROOT.resolve("config/sextant.properties").toString(),
                "--mirrored-topics", "orders"), err.toString());
        return out.toString();
    }

    @Test
    void theScriptStartsWithSetEuAndAGuardPerVariable() {
        List<String> lines = script().lines().toList();
        assertEquals(List.of("#!/bin/sh",
                "# The ACLs Sextant needs, from 'sextant config acls': set the variables below, then run it.",
                "set -eu",
                ": \"${SOURCE_BOOTSTRAP:?set SOURCE_BOOTSTRAP to the bootstrap servers of the source cluster}\"",
                ": \"${SOURCE_ADMIN_CONFIG:?set SOURCE_ADMIN_CONFIG to a file of admin client settings for the "
                        + "source cluster}\"",
                ": \"${DESTINATION_BOOTSTRAP:?set DESTINATION_BOOTSTRAP to the bootstrap servers of the destination "
                        + "cluster}\"",
                ": \"${DESTINATION_ADMIN_CONFIG:?set DESTINATION_ADMIN_CONFIG to a file of admin client settings for "
                        + "the destination cluster}\""), lines.subList(0, 7));
    }

    @Test
    void runWithAVariableMissingItStopsBeforeAnyCommand(@TempDir Path dir) throws Exception {
        Path script = Files.writeString(dir.resolve("acls.sh"), script());
        Path log = dir.resolve("calls.log");
        Path fake = Files.writeString(dir.resolve("kafka-acls.sh"), "#!/bin/sh\necho \"$@\" >> '" + log + "'\n");
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        Map<String, String> env = Map.of("PATH", dir + ":/usr/bin:/bin", "SOURCE_BOOTSTRAP", "a:9092",
                "SOURCE_ADMIN_CONFIG", "admin.properties", "DESTINATION_BOOTSTRAP", "b:9092");
        Result missing = sh(script, env);
        assertNotEquals(0, missing.exit());
        assertTrue(missing.stderr().contains("DESTINATION_ADMIN_CONFIG"), missing.stderr());
        assertFalse(Files.exists(log), "no kafka-acls command ran");

        Map<String, String> all = new HashMap<>(env);
        all.put("DESTINATION_ADMIN_CONFIG", "admin.properties");
        Result ran = sh(script, all);
        assertEquals(0, ran.exit(), ran.stderr());
        long commands = script().lines().filter(l -> l.startsWith("kafka-acls.sh ")).count();
        assertEquals(commands, Files.readAllLines(log).size(), "every command ran");
    }

    private record Result(int exit, String stderr) {
    }

    private static Result sh(Path script, Map<String, String> env) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("sh", script.toString());
        builder.environment().clear();
        builder.environment().putAll(env);
        builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process process = builder.start();
        String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "sh ended");
        return new Result(process.exitValue(), stderr);
    }
}
