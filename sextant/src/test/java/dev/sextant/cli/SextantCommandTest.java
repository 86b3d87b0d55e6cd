package dev.sextant.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.sextant.Version;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
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

    @Test
    void versionAsYamlIsTheTreeOfTheJson() throws Exception {
        assertEquals(0, run("version", "--json"));
        JsonNode json = new ObjectMapper().readTree(out.toString());
        out.getBuffer().setLength(0);
        assertEquals(0, run("version", "-o", "yaml"));
        assertTrue(out.toString().startsWith("version: ") && out.toString().contains("\nkafkaClients: "),
                out.toString());
        assertEquals(json, new YAMLMapper().readTree(out.toString()));
    }

    @Test
    void configCheckAndAclsAsYamlAreTheTreesOfTheirJson() throws Exception {
        String example = Path.of(System.getProperty("basedir", "."), "..", "config", "sextant.properties")
                .normalize().toString();
        for (List<String> command : List.of(List.of("config", "check", "-c", example),
                List.of("config", "acls", "-c", example, "--mirrored-topics", "orders"))) {
            out.getBuffer().setLength(0);
            List<String> json = new ArrayList<>(command);
            json.add("--json");
            assertEquals(0, run(json.toArray(String[]::new)), err.toString());
            JsonNode tree = new ObjectMapper().readTree(out.toString());
            out.getBuffer().setLength(0);
            List<String> yaml = new ArrayList<>(command);
            yaml.addAll(List.of("-o", "yaml"));
            assertEquals(0, run(yaml.toArray(String[]::new)), err.toString());
            assertEquals(tree, new YAMLMapper().readTree(out.toString()), command.toString());
        }
    }

    /** As git and kubectl: the one line that says what is wrong, and where to read more; not the whole usage. */
    @Test
    void aMistypedOptionIsOneLineWithTheOptionMeant(@TempDir Path dir) {
        assertEquals(2, run("failover", "-c", dir.resolve("any.properties").toString(), "--grup", "billing"));
        assertTrue(err.toString().startsWith("sextant failover: unknown option '--grup' (did you mean --group"),
                err.toString());
        assertTrue(err.toString().endsWith("See 'sextant failover --help'.\n".replace("\n",
                System.lineSeparator())), err.toString());
        assertEquals(1, err.toString().lines().count(), err.toString());
    }

    @Test
    void aMissingOptionIsOneLine() {
        assertEquals(2, run("offsets"));
        assertEquals("sextant offsets: missing required option: '--group=<group>'. See 'sextant offsets --help'.",
                err.toString().strip());
    }

    @Test
    void aBadValueIsOneLine() {
        assertEquals(2, run("translate", "--topic", "orders", "--partition", "x", "--offset", "1"));
        assertEquals(1, err.toString().lines().count(), err.toString());
        assertTrue(err.toString().startsWith("sextant translate: invalid value for option '--partition': 'x'"),
                err.toString());
    }

    @Test
    void aMistypedCommandIsOneLineWithTheCommandMeant() {
        assertEquals(2, run("faillover"));
        assertEquals("sextant: unknown command 'faillover' (did you mean failover?). See 'sextant --help'.",
                err.toString().strip());
    }

    @Test
    void aCheckOfTheCommandItselfIsOneLineToo(@TempDir Path dir) {
        assertEquals(2, run("failover", "-c", dir.resolve("any.properties").toString(), "--all", "--timeout", "0"));
        assertEquals("sextant failover: --timeout must be at least 1 second. See 'sextant failover --help'.",
                err.toString().strip());
    }

    /** Kafka's kafka-consumer-groups writes with --execute and says --dry-run; scripts written for it work here. */
    @Test
    void executeIsApplyAndDryRunIsTheDefault() {
        for (String command : new String[] {"failover", "cutover", "adopt", "rebaseline"}) {
            List<String> args = List.of(command, "-c", "f.properties");
            List<String> selection = command.equals("rebaseline") ? List.of()
                    : command.equals("adopt") ? List.of("--groups", "b.*") : List.of("--group", "billing");
            assertEquals(true, parsedApply(args, selection, "--execute"), command + " --execute");
            assertEquals(false, parsedApply(args, selection, "--dry-run"), command + " --dry-run");
            assertEquals(true, parsedApply(args, selection, "--apply"), command + " --apply");
        }
    }

    private static Object parsedApply(List<String> args, List<String> selection, String option) {
        CommandLine cli = SextantCommand.commandLine();
        List<String> all = new ArrayList<>(args);
        all.addAll(selection);
        all.add(option);
        CommandLine.ParseResult parsed = cli.parseArgs(all.toArray(String[]::new));
        return parsed.subcommand().commandSpec().findOption("--apply").getValue();
    }

    @Test
    void dryRunWithApplyIsAUsageError(@TempDir Path dir) {
        assertEquals(2, run("failover", "-c", dir.resolve("any.properties").toString(), "--all", "--dry-run",
                "--execute"));
        assertTrue(err.toString().contains("--dry-run and --apply (--execute) exclude each other"), err.toString());
        assertEquals(2, run("rebaseline", "-c", dir.resolve("any.properties").toString(), "--dry-run", "--apply"));
    }

    /** -o and its older --json on every command that reports; failback-config prints properties, not a report. */
    @Test
    void everyReportingCommandTakesOutputAndJson() {
        CommandLine cli = SextantCommand.commandLine();
        for (String[] command : new String[][] {{"status"}, {"offsets"}, {"translate"}, {"conflicts"},
                {"failover"}, {"cutover"}, {"adopt"}, {"rebaseline"}, {"config", "check"}, {"config", "acls"},
                {"version"}}) {
            CommandLine sub = cli;
            for (String name : command) {
                sub = sub.getSubcommands().get(name);
            }
            for (String option : new String[] {"-o", "--output", "--json"}) {
                assertTrue(sub.getCommandSpec().findOption(option) != null, String.join(" ", command) + " " + option);
            }
        }
    }

    /**
     * A one-off command against a cluster that does not answer prints its answer, not the Kafka clients' connection
     * warnings before it; --verbose gives them back (so the capture here does see them when they are logged).
     */
    @Test
    void kafkaClientsOnlyLogErrorsInACommandButRun(@TempDir Path dir) throws Exception {
        Path config = Files.writeString(dir.resolve("dead.properties"),
                "source.bootstrap.servers=127.0.0.1:1\ndestination.bootstrap.servers=127.0.0.1:1\n");
        ListAppender<ILoggingEvent> kafka = captureKafkaClients();
        try {
            assertEquals(1, run("failover", "-c", config.toString(), "--all", "--no-instance", "--timeout", "2"));
            assertFalse(err.toString().isBlank(), "the answer: " + err);
            assertEquals(List.of(), warnings(kafka));

            assertEquals(1, run("failover", "-c", config.toString(), "--all", "--no-instance", "--timeout", "2",
                    "--verbose"));
            assertFalse(warnings(kafka).isEmpty(), "--verbose: the clients' warnings");
        } finally {
            kafkaLogger().detachAppender(kafka);
        }
    }

    @Test
    void runKeepsTheKafkaClientsConfiguredLevel() {
        Level configured = kafkaLogger().getEffectiveLevel();
        CommandLine.ParseResult run = SextantCommand.commandLine().parseArgs("run", "-c", "f.properties");
        try (KafkaClientLogging.Restore ignored = KafkaClientLogging.forCommand(run, Map.of())) {
            assertEquals(configured, kafkaLogger().getEffectiveLevel());
        }
        CommandLine.ParseResult status = SextantCommand.commandLine().parseArgs("status");
        try (KafkaClientLogging.Restore ignored = KafkaClientLogging.forCommand(status, Map.of())) {
            assertEquals(Level.ERROR, kafkaLogger().getEffectiveLevel());
        }
        assertEquals(configured, kafkaLogger().getEffectiveLevel(), "restored after the command");
        try (KafkaClientLogging.Restore ignored = KafkaClientLogging.forCommand(status,
                Map.of("SEXTANT_KAFKA_LOG_LEVEL", "DEBUG"))) {
            assertEquals(configured, kafkaLogger().getEffectiveLevel(), "the operator's level stands");
        }
    }

    private static Logger kafkaLogger() {
        return ((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger("org.apache.kafka");
    }

    private static ListAppender<ILoggingEvent> captureKafkaClients() {
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        kafkaLogger().addAppender(appender);
        return appender;
    }

    private static List<String> warnings(ListAppender<ILoggingEvent> appender) {
        synchronized (appender.list) {
            return appender.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
                    .map(e -> e.getLoggerName() + ": " + e.getFormattedMessage()).toList();
        }
    }
}
