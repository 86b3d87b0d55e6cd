package dev.sextant.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code config acls}: Read on the source's topics (for {@code translation.interpolation=verified}) on the mirrored
 * topics only by default, on every topic with {@code --all-topics-read}. Reading the clusters is {@code ConfigAclsIT}.
 */
class ConfigAclsSourceReadsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String READ_EVERY_TOPIC = "--operation Read --operation Describe --topic '*'";
    private static final String DESCRIBE_EVERY_TOPIC = "--operation Describe --topic '*'";

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @TempDir
    Path dir;

    private int run(String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        CommandLine cli = SextantCommand.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    /** A configuration of clusters no name resolves: a read of them fails at once. */
    private String config(String... lines) throws IOException {
        Path file = dir.resolve("sextant.properties");
        StringBuilder text = new StringBuilder("source.bootstrap.servers=kafka-a.invalid:9092\n"
                + "destination.bootstrap.servers=kafka-b.invalid:9093\n");
        for (String line : lines) {
            text.append(line).append('\n');
        }
        Files.writeString(file, text);
        return file.toString();
    }

    /** The source cluster's part of the text output. */
    private String source() {
        return out.toString().substring(0, out.toString().indexOf("# destination cluster"));
    }

    @Test
    void allTopicsReadIsTheWiderGrantAndReadsNoCluster() throws Exception {
        assertEquals(0, run("config", "acls", "-c", config(), "--all-topics-read"), err.toString());
        assertTrue(source().contains(READ_EVERY_TOPIC), source());
        assertEquals(1, source().lines().filter(l -> l.contains("--operation Read --topic")
                || l.contains("--operation Read --operation Describe --topic '*'")).count(), source());
        assertEquals("", err.toString(), "no cluster read");
    }

    @Test
    void mirroredTopicsAreReadByNameOrPrefixAndEveryTopicDescribed() throws Exception {
        assertEquals(0, run("config", "acls", "-c", config(), "--mirrored-topics", "orders, payments.*"),
                err.toString());
        assertTrue(source().contains(DESCRIBE_EVERY_TOPIC), source());
        assertFalse(source().contains(READ_EVERY_TOPIC), source());
        assertTrue(source().contains("--operation Read --topic 'orders'\n"), source());
        assertTrue(source().contains("--operation Read --topic 'payments.' --resource-pattern-type prefixed\n"),
                source());
        assertEquals("", err.toString(), "no cluster read");
    }

    @Test
    void topicsIncludeOfNamesAndPrefixesIsTheGrantWithoutReadingACluster() throws Exception {
        assertEquals(0, run("config", "acls", "-c", config("topics.include=orders|payments\\\\..*")), err.toString());
        assertTrue(source().contains("--operation Read --topic 'orders'\n"), source());
        assertTrue(source().contains("--operation Read --topic 'payments.' --resource-pattern-type prefixed\n"),
                source());
        assertFalse(source().contains(READ_EVERY_TOPIC), source());
        assertTrue(source().contains("topics.include"), "says where the topics come from: " + source());
        assertEquals("", err.toString(), "no cluster read");
    }

    /**
     * By default the clusters are read for the mirrored topics; when they cannot be, no source topic is granted
     * Read, and the output and stderr say why and what to do, with a list Sextant still runs with.
     */
    @Test
    void clustersThatCannotBeReadGiveNoReadAndSayWhy() throws Exception {
        String file = config();
        assertEquals(0, run("config", "acls", "-c", file));
        assertTrue(source().contains(DESCRIBE_EVERY_TOPIC), source());
        assertFalse(source().contains(READ_EVERY_TOPIC), source());
        assertTrue(source().contains("# note: Read on no source topic: the mirrored topics could not be found"),
                source());
        assertTrue(source().contains("--all-topics-read"), source());
        assertTrue(err.toString().contains("warning: Read on no source topic"), err.toString());
        assertTrue(err.toString().contains("bootstrap"), "the clusters' own answer: " + err);

        assertEquals(0, run("config", "acls", "-c", file, "--json"));
        JsonNode clusters = JSON.readTree(out.toString()).path("clusters");
        assertTrue(clusters.path(0).path("notes").path(0).asText().startsWith("Read on no source topic"),
                clusters.toString());
        assertEquals(0, clusters.path(1).path("notes").size(), "nothing left out on the destination");

        assertEquals(0, run("config", "acls", "-c", file, "--format", "strimzi"));
        assertTrue(out.toString().contains("# note: Read on no source topic"), out.toString());
    }

    @Test
    void withoutVerifiedInterpolationNothingIsReadAndNothingSaid() throws Exception {
        for (String setting : List.of("translation.interpolation=off", "translation=identity")) {
            assertEquals(0, run("config", "acls", "-c", config(setting)), err.toString());
            assertTrue(source().contains(DESCRIBE_EVERY_TOPIC), source());
            assertFalse(source().contains("--operation Read --topic"), source());
            assertFalse(source().contains("# note:"), source());
            assertEquals("", err.toString(), "no cluster read: " + setting);
            assertEquals(0, run("config", "acls", "-c", config(setting), "--all-topics-read"), err.toString());
            assertFalse(source().contains(READ_EVERY_TOPIC), "no proofs, no Read: " + source());
        }
    }

    @Test
    void optionsThatDoNotGoTogetherOrBadNamesAreBadUsage() throws Exception {
        String file = config();
        assertBadUsage("give one", "config", "acls", "-c", file, "--all-topics-read", "--mirrored-topics", "orders");
        assertBadUsage("not with --all-topics-read or --mirrored-topics", "config", "acls", "-c", file,
                "--all-topics-read", "--source-admin-config", file);
        assertBadUsage("not with --all-topics-read or --mirrored-topics", "config", "acls", "-c", file,
                "--mirrored-topics", "orders", "--destination-admin-config", file);
        assertBadUsage("--mirrored-topics: 'a b' is no topic name", "config", "acls", "-c", file,
                "--mirrored-topics", "a b");
        assertBadUsage("--mirrored-topics: '*' is no topic name prefix", "config", "acls", "-c", file,
                "--mirrored-topics", "*");
        assertBadUsage("--source-admin-config: Cannot read configuration file", "config", "acls", "-c", file,
                "--source-admin-config", dir.resolve("missing.properties").toString());
    }

    private void assertBadUsage(String message, String... args) {
        assertEquals(2, run(args), err.toString());
        assertTrue(err.toString().contains(message), message + " in\n" + err);
        assertEquals("", out.toString(), "nothing on stdout");
    }
}
