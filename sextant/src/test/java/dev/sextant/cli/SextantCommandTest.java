package dev.sextant.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.Version;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class SextantCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = SextantCommand.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    @Test
    void helpListsTheCommands() {
        assertEquals(0, run("--help"));
        for (String command : new String[] {"run", "demo", "conflicts", "version"}) {
            assertTrue(out.toString().contains(command), out.toString());
        }
    }

    @Test
    void versionPrintsTheKafkaClientVersion() {
        assertEquals(0, run("version"));
        assertTrue(out.toString().contains("Kafka clients 4.4.0"), out.toString());
    }

    @Test
    void versionAsJsonCarriesWhatTheLineSays() throws Exception {
        assertEquals(0, run("version", "--json"));
        JsonNode version = new ObjectMapper().readTree(out.toString());
        assertEquals("4.4.0", version.path("kafkaClients").asText(), out.toString());
        assertEquals(Version.current(), version.path("version").asText(), out.toString());
    }

    /** As Kafka's tools: a command line that does nothing is a mistake, and a script must see it. */
    @Test
    void noCommandPrintsTheUsageOnStderrAndExitsWithTwo() {
        assertEquals(2, run());
        assertEquals("", out.toString(), "nothing on stdout");
        assertTrue(err.toString().contains("Usage: sextant"), err.toString());
        assertTrue(err.toString().contains("failover"), "lists the commands: " + err);
    }

    @Test
    void configWithoutASubcommandIsBadUsageToo() {
        assertEquals(2, run("config"));
        assertEquals("", out.toString(), "nothing on stdout");
        assertTrue(err.toString().contains("Usage: sextant config"), err.toString());
    }

    @Test
    void helpStillGoesToStdoutAndExitsWithZero() {
        assertEquals(0, run("config", "--help"));
        assertTrue(out.toString().contains("Usage: sextant config"), out.toString());
        assertEquals("", err.toString());
    }

    @Test
    void aBrokenConfigurationExitsWithTwoAndNamesTheKey(@TempDir Path dir) throws Exception {
        Path broken = dir.resolve("broken.properties");
        Files.writeString(broken, """
                source.bootstrap.servers=127.0.0.1:9092
                destination.bootstrap.servers=127.0.0.1:9093
                sync.interval.msec=100
                """);
        assertEquals(2, run("run", "-c", broken.toString()));
        assertTrue(err.toString().contains("sync.interval.msec"), err.toString());
        assertTrue(err.toString().contains("sync.interval.ms"), "suggests the right key: " + err);
    }

    @Test
    void aBadValueExitsWithTwo(@TempDir Path dir) throws Exception {
        Path broken = dir.resolve("bad.properties");
        Files.writeString(broken, """
                source.bootstrap.servers=127.0.0.1:9092
                destination.bootstrap.servers=127.0.0.1:9093
                translation=magic
                """);
        assertEquals(2, run("run", "-c", broken.toString()));
        assertTrue(err.toString().contains("translation"), err.toString());
    }

    @Test
    void aMissingFileExitsWithTwo(@TempDir Path dir) {
        assertEquals(2, run("run", "-c", dir.resolve("nope.properties").toString()));
        assertTrue(err.toString().contains("nope.properties"), err.toString());
    }

    @Test
    void unknownOptionsAreAUsageError() {
        assertEquals(2, run("run", "--frobnicate"));
    }
}
