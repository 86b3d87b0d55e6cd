package dev.sextant.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ConfigCommandTest {

    private static final Path ROOT = Path.of(System.getProperty("basedir", "."), "..").normalize();

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = SextantCommand.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    @Test
    void docsConfigurationMdIsWhatConfigDocsPrints() throws Exception {
        assertEquals(0, run("config", "docs"));
        assertEquals(out.toString(), Files.readString(ROOT.resolve("docs/configuration.md")),
                "docs/configuration.md is stale: run bin/sextant config docs > docs/configuration.md");
        assertTrue(out.toString().contains("`sync.foreign.offsets`"));
    }

    @Test
    void checkAcceptsTheExampleAndRefusesWhatRunRefusesWithTheSameMessage(@TempDir Path dir) throws Exception {
        assertEquals(0, run("config", "check", "-c", ROOT.resolve("config/sextant.properties").toString()),
                err.toString());
        assertTrue(out.toString().contains("valid"), out.toString());

        Path broken = dir.resolve("broken.properties");
        Files.writeString(broken, "source.bootstrap.servers=127.0.0.1:9092\ndestination.bootstrap.servers=x:1\n"
                + "sync.rewnd=never\n");
        assertEquals(2, run("config", "check", "-c", broken.toString()));
        String checkMessage = err.toString();
        assertTrue(checkMessage.contains("sync.rewnd") && checkMessage.contains("sync.rewind"), checkMessage);
        err.getBuffer().setLength(0);
        assertEquals(2, run("run", "-c", broken.toString()));
        assertEquals(checkMessage, err.toString(), "the same message as run");
    }

    @Test
    void everyCommandsHelpStatesItsExitCodes() {
        CommandLine root = SextantCommand.commandLine();
        List<String> missing = new ArrayList<>();
        collect(root, missing);
        assertEquals(List.of(), missing, "--help without 'Exit codes'");
    }

    private static void collect(CommandLine command, List<String> missing) {
        for (Map.Entry<String, CommandLine> sub : command.getSubcommands().entrySet()) {
            if (sub.getValue().getCommand() instanceof CommandLine.HelpCommand) {
                continue;
            }
            if (!sub.getValue().getUsageMessage().contains("Exit codes")) {
                missing.add(sub.getValue().getCommandSpec().qualifiedName());
            }
            collect(sub.getValue(), missing);
        }
    }

    @Test
    void completionPrintsABashScriptThatKnowsTheCommands() {
        assertEquals(0, run("completion", "bash"));
        assertTrue(out.toString().contains("complete -F"), out.toString().substring(0, 200));
        assertTrue(out.toString().contains("failover"), "knows the subcommands");
        assertEquals(2, run("completion", "fish"));
    }
}
