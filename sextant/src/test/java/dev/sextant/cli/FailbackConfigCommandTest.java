package dev.sextant.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.config.SextantConfig;
import dev.sextant.config.SextantConfigLoader;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** sextant failback-config with the forward Sextant's environment, and under identity names (issue 50, 2 and 4). */
class FailbackConfigCommandTest {

    private static final String FORWARD = "source.bootstrap.servers=a:9093\ndestination.bootstrap.servers=b:9093\n"
            + "source.alias=east\ndestination.alias=west\napplication.id=sextant\n";

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int derive(Path file, Map<String, String> environment) throws Exception {
        CommandLine cli = SextantCommand.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        CommandLine.ParseResult parsed = cli.parseArgs("failback-config", "-c", file.toString());
        return ((FailbackConfigCommand) parsed.subcommand().commandSpec().userObject()).derive(environment);
    }

    /** It used to drop every SEXTANT_* variable without a word: the base keeps the Kafka credentials there. */
    @Test
    void theEnvironmentIsCarriedOverSwappedAndSecretsAreNamed(@TempDir Path dir) throws Exception {
        Path forward = Files.writeString(dir.resolve("forward.properties"), FORWARD);
        Map<String, String> environment = Map.of(
                "SEXTANT_SOURCE_SECURITY_PROTOCOL", "SASL_SSL",
                "SEXTANT_SOURCE_SASL_MECHANISM", "SCRAM-SHA-512",
                "SEXTANT_SOURCE_SASL_JAAS_CONFIG", "org.apache.kafka.common.security.scram.ScramLoginModule required "
                        + "username=\"sextant\" password=\"s3cret\";",
                "SEXTANT_DESTINATION_SECURITY_PROTOCOL", "SSL",
                "SEXTANT_GROUPS_INCLUDE", "billing-.*");
        assertEquals(0, derive(forward, environment), err.toString());

        Properties reverse = new Properties();
        reverse.load(new StringReader(out.toString()));
        assertEquals("SASL_SSL", reverse.getProperty("destination.security.protocol"), out.toString());
        assertEquals("SCRAM-SHA-512", reverse.getProperty("destination.sasl.mechanism"));
        assertEquals("SSL", reverse.getProperty("source.security.protocol"));
        assertEquals("billing-.*", reverse.getProperty("groups.include"));
        assertEquals("west", reverse.getProperty("source.alias"));
        assertTrue(out.toString().contains("# from the environment: SEXTANT_SOURCE_SECURITY_PROTOCOL as "
                + "destination.security.protocol"), out.toString());
        assertFalse(out.toString().contains("s3cret"), "a secret from the environment is never written");
        assertFalse(reverse.containsKey("destination.sasl.jaas.config"));
        assertTrue(err.toString().contains("not carried: SEXTANT_SOURCE_SASL_JAAS_CONFIG: a secret")
                && err.toString().contains("SEXTANT_DESTINATION_SASL_JAAS_CONFIG"), err.toString());
        assertTrue(err.toString().contains("without the forward Sextant's SEXTANT_* variables"), err.toString());

        Path written = Files.writeString(dir.resolve("failback.properties"), out.toString());
        SextantConfig loaded = SextantConfigLoader.load(written, Map.of());
        assertEquals("sextant-failback", loaded.applicationId());
    }

    @Test
    void withoutSextantVariablesStderrStaysEmpty(@TempDir Path dir) throws Exception {
        Path forward = Files.writeString(dir.resolve("forward.properties"), FORWARD);
        assertEquals(0, derive(forward, Map.of("PATH", "/usr/bin", "SEXTANT_JAVA_OPTS", "-Xmx1g")));
        assertEquals("", err.toString());
        assertFalse(out.toString().contains("from the environment"), out.toString());
    }

    @Test
    void identityNamesWithOffsetSyncsExitTwoSayingWhy(@TempDir Path dir) throws Exception {
        Path forward = Files.writeString(dir.resolve("forward.properties"), FORWARD + "replication.policy=identity\n");
        CommandLine cli = SextantCommand.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        assertEquals(2, cli.execute("failback-config", "-c", forward.toString()));
        assertEquals("", out.toString(), "no configuration printed");
        assertTrue(err.toString().startsWith("Invalid configuration: failback-config cannot derive a failback from "
                + "replication.policy=identity"), err.toString());

        Path offsetsKept = Files.writeString(dir.resolve("identity.properties"), FORWARD
                + "replication.policy=identity\ntranslation=identity\n");
        assertEquals(0, cli.execute("failback-config", "-c", offsetsKept.toString()), err.toString());
        assertTrue(out.toString().contains("translation=identity"), out.toString());
    }
}
