package dev.sextant.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code cutover} against a source that does not answer (issue 50, item 3): the error names the cluster, its
 * bootstrap and the step, where it used to be Kafka's "Timeout expired while fetching topic metadata" alone.
 */
class CutoverErrorsTest {

    @Test
    void aSourceThatDoesNotAnswerIsNamedWithTheStep(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("sextant.properties");
        // port 1 on loopback: nothing listens, every connection is refused
        Files.writeString(config, "source.bootstrap.servers=127.0.0.1:1\ndestination.bootstrap.servers=127.0.0.1:2\n"
                + "application.id=sextant-dead-source\n");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = SextantCommand.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));

        int exit = cli.execute("cutover", "-c", config.toString(), "--group", "billing", "--timeout", "1s",
                "--url", "http://127.0.0.1:1");

        assertEquals(ExitCodes.FAILURE, exit, err.toString());
        assertTrue(err.toString().startsWith("sextant: reading the source cluster (bootstrap 127.0.0.1:1) to read the "
                + "groups cut over so far (sextant-dead-source-cutovers): "), err.toString());
        assertTrue(err.toString().contains("Timeout expired"), "the client's own words follow: " + err);
    }
}
