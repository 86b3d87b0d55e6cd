package dev.sextant.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * One vocabulary across the commands (issue 50, item 6): one duration type for every --timeout and --fence-check,
 * --group repeated and --all-groups wherever groups are selected, an error document on stdout under -o json, a
 * refused connection that fails at once, completion for zsh and fish, and help text without "null".
 */
class CliVocabularyTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        CommandLine cli = SextantCommand.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    @Test
    void aDurationIsABareNumberOfSecondsOrAUnitOrIso() {
        DurationConverter converter = new DurationConverter();
        assertEquals(Duration.ofSeconds(30), converter.convert("30"), "a bare number: seconds, as before");
        assertEquals(Duration.ofMillis(500), converter.convert("500ms"));
        assertEquals(Duration.ofSeconds(5), converter.convert("5s"));
        assertEquals(Duration.ofMinutes(2), converter.convert("2m"));
        assertEquals(Duration.ofHours(1), converter.convert("1h"));
        assertEquals(Duration.ofSeconds(5), converter.convert("PT5S"));
        assertEquals(Duration.ofSeconds(5), converter.convert("pt5s"));
        assertThrows(CommandLine.TypeConversionException.class, () -> converter.convert("5 parsecs"));
        assertThrows(CommandLine.TypeConversionException.class, () -> converter.convert("PT-5S"));
        assertThrows(CommandLine.TypeConversionException.class, () -> converter.convert("99999999999999999999"));
    }

    /** Every --timeout and --fence-check takes the same values; a bare number is seconds everywhere. */
    @Test
    void everyTimeoutTakesTheSameDurations() {
        List<List<String>> commands = List.of(List.of("failover", "-c", "f.properties", "--all"),
                List.of("cutover", "-c", "f.properties", "--all"), List.of("adopt", "-c", "f.properties", "--all"),
                List.of("rebaseline", "-c", "f.properties"), List.of("status"), List.of("offsets", "--group", "g"),
                List.of("translate", "--topic", "t", "--partition", "0", "--offset", "1"),
                List.of("conflicts", "-c", "f.properties"));
        for (List<String> command : commands) {
            for (String value : List.of("45", "45s", "PT45S")) {
                assertEquals(Duration.ofSeconds(45), parsed(command, "--timeout", value), command + " " + value);
            }
        }
        assertEquals(Duration.ofMillis(1500), parsed(List.of("cutover", "-c", "f.properties", "--all"),
                "--fence-check", "1500ms"));
        assertEquals(Duration.ofSeconds(2), parsed(List.of("cutover", "-c", "f.properties", "--all"),
                "--fence-check", "2"));
    }

    private static Object parsed(List<String> command, String option, String value) {
        String[] args = Stream.concat(command.stream(), Stream.of(option, value))
                .toArray(String[]::new);
        CommandLine.ParseResult result = SextantCommand.commandLine().parseArgs(args);
        return result.subcommand().commandSpec().findOption(option).getValue();
    }

    @Test
    void aBadDurationNamesTheOption() {
        assertEquals(2, run("status", "--timeout", "soon"));
        assertTrue(err.toString().startsWith("sextant status: invalid value for option '--timeout': 'soon' is not a "
                + "duration: 500ms, 30s, 2m, 1h or ISO-8601 PT30S; a bare number is seconds"), err.toString());
    }

    /** As kafka-consumer-groups: --group more than once, and --all-groups for --all. */
    @Test
    void groupsAreSelectedAsKafkaSelectsThem() {
        for (String command : List.of("failover", "cutover", "adopt")) {
            CommandLine.ParseResult twice = SextantCommand.commandLine().parseArgs(command, "-c", "f.properties",
                    "--group", "billing", "--group", "orders");
            assertEquals(List.of("billing", "orders"),
                    twice.subcommand().commandSpec().findOption("--group").getValue(), command);
            CommandLine.ParseResult all = SextantCommand.commandLine().parseArgs(command, "-c", "f.properties",
                    "--all-groups");
            assertEquals(true, all.subcommand().commandSpec().findOption("--all").getValue(), command);
        }
        assertEquals(2, run("failover", "-c", "f.properties", "--group", "a", "--all-groups"));
        assertTrue(err.toString().contains("mutually exclusive"), err.toString());
    }

    @Test
    void aSelectionOfNamedGroupsIsThoseGroups() {
        GroupSelection selection = new GroupSelection();
        selection.group = List.of("billing", "orders", "billing");
        CommandLine command = SextantCommand.commandLine();
        assertTrue(selection.predicate(command).test("orders"));
        assertFalse(selection.predicate(command).test("payments"));
        assertNull(selection.single(), "two groups: not one");
        selection.group = List.of("billing");
        assertEquals("billing", selection.single());
    }

    /** failover -o json used to print nothing when it failed: a script reading stdout saw an empty document. */
    @Test
    void aFailureUnderJsonIsAnErrorDocumentOnStdout(@TempDir Path dir) throws Exception {
        Path config = Files.writeString(dir.resolve("dead.properties"),
                "source.bootstrap.servers=127.0.0.1:1\ndestination.bootstrap.servers=127.0.0.1:1\n");
        int exit = run("failover", "-c", config.toString(), "--all", "--no-instance", "--timeout", "1", "-o", "json");
        assertEquals(1, exit, err.toString());
        JsonNode error = new ObjectMapper().readTree(out.toString());
        assertFalse(error.path("error").asText().isEmpty(), out.toString());
        assertEquals("sextant failover", error.path("command").asText());
        assertEquals(1, error.path("exitCode").asInt());
        assertEquals("failure", error.path("kind").asText());
        assertFalse(err.toString().isBlank(), "stderr still says it");

        assertEquals(2, run("failover", "-c", dir.resolve("missing.properties").toString(), "--all", "--json"));
        JsonNode configuration = new ObjectMapper().readTree(out.toString());
        assertEquals("configuration", configuration.path("kind").asText(), out.toString());
        assertTrue(configuration.path("error").asText().contains("missing.properties"), out.toString());

        assertEquals(2, run("failover", "-c", config.toString(), "--all", "--timeout", "0", "-o", "yaml"));
        JsonNode usage = new YAMLMapper().readTree(out.toString());
        assertEquals("usage", usage.path("kind").asText(), out.toString());
        assertEquals("--timeout must be at least 1 second", usage.path("error").asText());

        assertEquals(2, run("failover", "-c", config.toString(), "--all", "--timeout", "0"));
        assertEquals("", out.toString(), "text: nothing on stdout, as before");
    }

    @Test
    void theDocumentAskedForIsReadFromTheArguments() {
        assertEquals(Optional.of(OutputFormat.JSON), ErrorDocument.asked(new String[] {"status", "--json"}));
        assertEquals(Optional.of(OutputFormat.JSON), ErrorDocument.asked(new String[] {"status", "-ojson"}));
        assertEquals(Optional.of(OutputFormat.YAML), ErrorDocument.asked(new String[] {"status", "--output=yaml"}));
        assertEquals(Optional.of(OutputFormat.JSON), ErrorDocument.asked(new String[] {"failover", "--format",
                "JSON"}));
        assertEquals(Optional.empty(), ErrorDocument.asked(new String[] {"failover", "--format", "csv"}));
        assertEquals(Optional.empty(), ErrorDocument.asked(new String[] {"status", "--json", "-o", "yaml"}),
                "two formats: which is meant is not known");
        assertEquals(Optional.empty(), ErrorDocument.asked(new String[] {"status"}));
    }

    /** It retried a refused connection for the whole --timeout (30 s) without a word. */
    @Test
    void aRefusedConnectionFailsAtOnce() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        long started = System.nanoTime();
        assertEquals(1, run("status", "--url", "http://127.0.0.1:" + port));
        long tookMs = (System.nanoTime() - started) / 1_000_000;
        assertTrue(tookMs < 5_000, "took " + tookMs + " ms with --timeout 30s");
        assertTrue(err.toString().contains("connection refused") && err.toString().contains("--url"),
                err.toString());
    }

    @Test
    void completionForZshAndFish() {
        assertEquals(0, run("completion", "zsh"));
        assertTrue(out.toString().contains("bashcompinit"), "zsh reads bash's script through bashcompinit");
        assertEquals(0, run("completion", "fish"));
        String fish = out.toString();
        assertTrue(fish.contains("complete -c sextant -n '__fish_use_subcommand' -a 'failover'"), fish);
        assertTrue(fish.contains("complete -c sextant -n '__fish_seen_subcommand_from failover' -l all -l all-groups"),
                fish);
        assertTrue(fish.contains("-n '__fish_seen_subcommand_from config; and __fish_seen_subcommand_from check' "
                + "-l offline"), fish);
        assertTrue(fish.contains("-s c -l config -r -F"), "a file for -c: " + fish);
        assertTrue(fish.contains("-n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'"), fish);
        assertFalse(fish.contains("null"), fish);
    }

    /** picocli read ${provider:...} as a variable, and printed null. */
    @Test
    void helpTextShowsProviderReferencesAsWritten() {
        for (List<String> command : List.of(List.of("failback-config"), List.of("config", "acls"),
                List.of("config", "check"))) {
            CommandLine sub = SextantCommand.commandLine();
            for (String name : command) {
                sub = sub.getSubcommands().get(name);
            }
            String help = sub.getUsageMessage();
            assertFalse(help.contains("null"), command + ": " + help);
            assertTrue(help.contains("${"), command + ": " + help);
        }
    }
}
