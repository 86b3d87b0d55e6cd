package dev.sextant.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.sextant.query.FakeBackend;
import dev.sextant.query.Views;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** offsets, translate and status against an HTTP API with faked stores; usage errors of every new command. */
class QueryCommandsTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private FakeBackend backend;

    @BeforeEach
    void start() {
        backend = new FakeBackend(new SimpleMeterRegistry());
        backend.groups.put("billing", new Views.GroupDetail("billing", "consumer", List.of(
                new Views.PartitionView("orders", 0, "source.orders", 1234, 1230L, "bounded", 3L, 1230L, 9L,
                        "APPLIED"))));
        backend.translations.put("orders-0@1234", new Views.TranslationView("orders", 0, 1234, "source.orders", 1230,
                "bounded", 3));
    }

    @AfterEach
    void stop() {
        backend.close();
    }

    private int run(String... args) {
        CommandLine cli = SextantCommand.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    @Test
    void offsetsAsATable() {
        assertEquals(0, run("offsets", "--group", "billing", "--url", backend.url()));
        assertTrue(out.toString().contains("source.orders") && out.toString().contains("1230"), out.toString());
    }

    @Test
    void offsetsAsJson() {
        assertEquals(0, run("offsets", "--group", "billing", "--url", backend.url(), "--json"));
        assertEquals("{\"group\":\"billing\",\"groupType\":\"consumer\",\"offsets\":[{\"topic\":\"source.orders\","
                + "\"partition\":0,\"offset\":1230}]}", out.toString().trim());
    }

    @Test
    void offsetsAsYaml() {
        assertEquals(0, run("offsets", "--group", "billing", "--url", backend.url(), "-o", "yaml"));
        assertEquals("""
                group: billing
                groupType: consumer
                offsets:
                  - topic: source.orders
                    partition: 0
                    offset: 1230
                """, out.toString());
    }

    /** --json is -o json, byte for byte; -o yaml is the same tree (docs/cli.md shows each shape once). */
    @Test
    void jsonIsOutputJsonAndYamlIsTheSameTree() throws Exception {
        for (List<String> command : List.of(List.of("offsets", "--group", "billing"),
                List.of("translate", "--topic", "orders", "--partition", "0", "--offset", "1234"))) {
            String json = printed(command, "--json");
            assertEquals(json, printed(command, "-o", "json"), command.toString());
            assertEquals(json, printed(command, "--output", "JSON"), command.toString());
            JsonNode tree = new ObjectMapper().readTree(json);
            assertEquals(tree, new YAMLMapper().readTree(printed(command, "-o", "yaml")), command.toString());
        }
    }

    @Test
    void statusAsYaml() throws Exception {
        assertEquals(0, run("status", "--url", backend.url(), "-o", "yaml"));
        JsonNode status = new YAMLMapper().readTree(out.toString());
        assertEquals(1, status.path("groups").asInt(), out.toString());
        assertEquals("billing", status.path("groupList").path(0).path("group").asText(), out.toString());
    }

    @Test
    void jsonAndAnotherOutputIsAUsageError() {
        assertEquals(2, run("offsets", "--group", "billing", "--url", backend.url(), "--json", "-o", "yaml"));
        assertTrue(err.toString().contains("--json is -o json: give one format"), err.toString());
        assertEquals("", out.toString());
    }

    private String printed(List<String> command, String... output) {
        List<String> args = new ArrayList<>(command);
        args.addAll(List.of("--url", backend.url()));
        args.addAll(List.of(output));
        out.getBuffer().setLength(0);
        assertEquals(0, run(args.toArray(String[]::new)), args + ": " + err);
        return out.toString();
    }

    @Test
    void offsetsOfAnUnknownGroupExitWithOne() {
        assertEquals(1, run("offsets", "--group", "nobody", "--url", backend.url()));
        assertTrue(err.toString().contains("404") && err.toString().contains("nobody"), err.toString());
    }

    @Test
    void translate() {
        assertEquals(0, run("translate", "--topic", "orders", "--partition", "0", "--offset", "1234", "--url",
                backend.url()));
        assertTrue(out.toString().contains("orders-0@1234 -> source.orders-0@1230 (bounded, replay bound 3)"),
                out.toString());
    }

    @Test
    void translateANegativeOffsetIsAUsageError() {
        assertEquals(2, run("translate", "--topic", "orders", "--partition", "0", "--offset", "-1", "--url",
                backend.url()));
    }

    @Test
    void translateANonNumericPartitionIsAUsageError() {
        assertEquals(2, run("translate", "--topic", "orders", "--partition", "x", "--offset", "1"));
    }

    @Test
    void aUrlThatIsNotHttpIsAUsageError() {
        assertEquals(2, run("offsets", "--group", "billing", "--url", "127.0.0.1:8080"));
    }

    @Test
    void theDefaultUrlComesFromTheConfiguration(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("sextant.properties");
        Files.writeString(config, "source.bootstrap.servers=127.0.0.1:9092\n"
                + "destination.bootstrap.servers=127.0.0.1:9093\n"
                + "query.listen=" + backend.url().substring("http://".length()) + "\n");
        assertEquals(0, run("offsets", "--group", "billing", "-c", config.toString()));
    }

    @Test
    void status() {
        assertEquals(0, run("status", "--url", backend.url()));
        assertTrue(out.toString().contains("Instances: 1") && out.toString().contains("billing"), out.toString());
        assertTrue(out.toString().contains("Conflicts in the last hour: 0"), out.toString());
    }

    @Test
    void statusSaysFirstWhatKeepsTheInstanceFromSyncing() {
        backend.readinessProblem = Optional.of("the destination is cluster B, not the cluster A Sextant wrote to");
        assertEquals(0, run("status", "--url", backend.url()));
        assertTrue(out.toString().startsWith("DEGRADED: the destination is cluster B"), out.toString());
        assertEquals(0, run("status", "--url", backend.url(), "--json"));
        assertTrue(out.toString().contains("\"readiness\":{\"status\":\"DEGRADED\""), out.toString());
    }

    @Test
    void statusAsJson() {
        assertEquals(0, run("status", "--url", backend.url(), "--json"));
        assertTrue(out.toString().contains("\"groups\":1"), out.toString());
    }

    @Test
    void noInstanceAnsweringExitsWithOne() {
        assertEquals(1, run("status", "--url", "http://127.0.0.1:1", "--timeout", "1"));
        assertTrue(err.toString().contains("no answer"), err.toString());
    }

    @Test
    void everyNewCommandHasHelp() {
        for (String command : new String[] {"offsets", "translate", "status", "failover"}) {
            assertEquals(0, run(command, "--help"), command);
            assertTrue(out.toString().contains("Usage: sextant " + command), out.toString());
        }
    }

    @Test
    void failoverWithoutAGroupIsAUsageError(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("sextant.properties");
        Files.writeString(config, "source.bootstrap.servers=127.0.0.1:9092\n"
                + "destination.bootstrap.servers=127.0.0.1:9093\n");
        assertEquals(2, run("failover", "-c", config.toString()));
    }

    @Test
    void failoverWithABrokenConfigurationExitsWithTwo(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("sextant.properties");
        Files.writeString(config, "source.bootstrap.servers=127.0.0.1:9092\ntranslation=magic\n");
        assertEquals(2, run("failover", "-c", config.toString(), "--group", "billing"));
        assertTrue(err.toString().contains("translation") || err.toString().contains("destination.bootstrap.servers"),
                err.toString());
    }
}
