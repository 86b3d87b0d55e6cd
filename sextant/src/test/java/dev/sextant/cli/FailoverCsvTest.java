package dev.sextant.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.failover.FailoverReport.GroupResult;
import dev.sextant.failover.FailoverReport.GroupState;
import dev.sextant.failover.FailoverReport.PartitionState;
import dev.sextant.failover.FailoverReport.PartitionStatus;
import dev.sextant.failover.FailoverReport.Report;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code failover --format csv}: which command lines may ask for it (checked before any cluster is contacted), and
 * what it prints and exits with for a report: the plan on stdout, what is left out and why on stderr, the exit code
 * of the other formats.
 */
class FailoverCsvTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private Path config;

    @BeforeEach
    void writeConfig(@TempDir Path dir) throws Exception {
        config = dir.resolve("sextant.properties");
        // port 1: nothing listens; a usage error must stop the command before it tries
        Files.writeString(config, "source.bootstrap.servers=127.0.0.1:1\ndestination.bootstrap.servers=127.0.0.1:1\n");
    }

    private int run(String... args) {
        CommandLine cli = SextantCommand.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    private int print(String group, GroupState... groups) {
        PrintWriter o = new PrintWriter(out);
        PrintWriter e = new PrintWriter(err);
        int exit = ResetPlanOutput.printOne(group, new Report(List.of(groups), "asked", null, 5), o, e);
        o.flush();
        e.flush();
        return exit;
    }

    private static PartitionState inSync(String topic, int partition, long offset) {
        return new PartitionState(topic, partition, offset, "exact", 0L, 1_000L, null, PartitionStatus.IN_SYNC);
    }

    private int printBulk(GroupState... groups) {
        PrintWriter o = new PrintWriter(out);
        PrintWriter e = new PrintWriter(err);
        int exit = ResetPlanOutput.printBulk(new Report(List.of(groups), "asked", null, 5), o, e);
        o.flush();
        e.flush();
        return exit;
    }

    @Test
    void jsonIsASynonymThatCannotBeCombinedWithAnotherFormat() {
        assertEquals(2, run("failover", "-c", config.toString(), "--group", "billing", "--json", "--format", "csv"));
        assertTrue(err.toString().contains("--json is -o json: give one format"), err.toString());
        assertEquals(2, run("failover", "-c", config.toString(), "--group", "billing", "-o", "yaml", "--format",
                "csv"));
        assertTrue(err.toString().contains("--format and -o name the same choice"), err.toString());
    }

    @Test
    void csvIsAnOutputFormatOfFailoverOnly() {
        assertEquals(2, run("failover", "-c", config.toString(), "--group", "billing", "-o", "xml"));
        assertTrue(err.toString().contains("'xml' is not one of text, json, yaml, csv"), err.toString());
        assertEquals(2, run("status", "--url", "http://127.0.0.1:1", "-o", "csv"));
        assertTrue(err.toString().contains("'csv' is not one of text, json, yaml"), err.toString());
    }

    /**
     * Many groups, one file: Kafka's four columns, group first, by group, topic and partition; a group name with a
     * comma or a quote quoted as CSV quotes it (Kafka's tool reads each line with Jackson's CSV reader).
     */
    @Test
    void manyGroupsGiveOneFourColumnPlan() {
        GroupState billing = new GroupState("billing", "consumer", "Empty", GroupResult.READY, null,
                List.of(inSync("source.orders", 1, 7), inSync("source.orders", 0, 1230)));
        GroupState audit = new GroupState("audit", "consumer", "Empty", GroupResult.READY, null,
                List.of(inSync("source.audit", 0, 3)));
        GroupState odd = new GroupState("odd,\"name\"", "consumer", "Empty", GroupResult.READY, null,
                List.of(inSync("source.audit", 0, 4)));
        assertEquals(0, printBulk(billing, audit, odd));
        assertEquals("""
                audit,source.audit,0,3
                billing,source.orders,0,1230
                billing,source.orders,1,7
                "odd,""name""\",source.audit,0,4
                """, out.toString());
        assertEquals("", err.toString());
    }

    @Test
    void aBulkPlanNamesWhatItLeavesOutAndExitsWithOneWhenAGroupIsNotClean() {
        GroupState clean = new GroupState("billing", "consumer", "Empty", GroupResult.READY, null,
                List.of(inSync("source.orders", 0, 1230)));
        GroupState partial = new GroupState("audit", "consumer", "Empty", GroupResult.INCOMPLETE,
                "no translation for source.unmirrored-0", List.of(inSync("source.audit", 0, 3),
                new PartitionState("source.unmirrored", 0, null, null, null, null, null,
                        PartitionStatus.UNTRANSLATED)));
        GroupState share = new GroupState("queue", "share", "Empty", GroupResult.READY, null,
                List.of(inSync("source.orders", 0, 10)));
        GroupState lineBreak = new GroupState("two\nlines", "consumer", "Empty", GroupResult.READY, null,
                List.of(inSync("source.orders", 0, 10)));
        assertEquals(1, printBulk(clean, partial, share, lineBreak));
        assertEquals("audit,source.audit,0,3\nbilling,source.orders,0,1230\n", out.toString());
        assertTrue(err.toString().contains("share groups left out of the CSV") && err.toString().contains("queue"),
                err.toString());
        assertTrue(err.toString().contains("audit: source.unmirrored-0 (UNTRANSLATED)"), err.toString());
        assertTrue(err.toString().contains("a line break in the name"), err.toString());
        assertTrue(err.toString().contains("1 group(s) cannot be failed over cleanly: audit (INCOMPLETE"),
                err.toString());
    }

    @Test
    void csvDoesNotTakeFromSource() {
        assertEquals(2, run("failover", "-c", config.toString(), "--group", "billing", "--from-source", "--format",
                "CSV"));
        assertTrue(err.toString().contains("--from-source"), err.toString());
    }

    @Test
    void anUnknownFormatIsAUsageError() {
        assertEquals(2, run("failover", "-c", config.toString(), "--group", "billing", "--format", "xml"));
        assertTrue(err.toString().contains("not one of text, json, yaml, csv"), err.toString());
    }

    @Test
    void aCleanGroupPrintsOnlyThePlanAndExitsWithZero() {
        GroupState billing = new GroupState("billing", "consumer", "Empty", GroupResult.READY, null,
                List.of(inSync("source.orders", 0, 1230), inSync("source.orders", 1, 7)));
        GroupState other = new GroupState("other", "consumer", "Empty", GroupResult.READY, null,
                List.of(inSync("source.audit", 0, 3)));
        assertEquals(0, print("billing", billing, other));
        assertEquals("source.orders,0,1230\nsource.orders,1,7\n", out.toString());
        assertEquals("", err.toString());
    }

    @Test
    void anIncompleteGroupNamesWhatIsLeftOutAndExitsWithOne() {
        GroupState partial = new GroupState("billing", "consumer", "Empty", GroupResult.INCOMPLETE,
                "no translation for source.unmirrored-0", List.of(inSync("source.orders", 0, 1230),
                new PartitionState("source.unmirrored", 0, null, null, null, null, null,
                        PartitionStatus.UNTRANSLATED)));
        assertEquals(1, print("billing", partial));
        assertEquals("source.orders,0,1230\n", out.toString());
        assertTrue(err.toString().contains("left out of the CSV") && err.toString().contains(
                "source.unmirrored-0 (UNTRANSLATED)"), err.toString());
        assertTrue(err.toString().contains("cannot be failed over cleanly: INCOMPLETE"), err.toString());
    }

    @Test
    void aRefusedGroupExitsWithOneAndSaysWhy() {
        GroupState active = new GroupState("billing", "consumer", "Stable", GroupResult.REFUSED,
                "active on the destination (Stable)", List.of(new PartitionState("source.orders", 0, 100L, "exact",
                0L, 1_000L, 150L, PartitionStatus.PENDING)));
        assertEquals(1, print("billing", active));
        assertEquals("source.orders,0,150\n", out.toString());
        assertTrue(err.toString().contains("REFUSED: active on the destination"), err.toString());
    }

    @Test
    void aShareGroupHasNoPlanFile() {
        GroupState share = new GroupState("queue", "share", "Empty", GroupResult.READY, null,
                List.of(inSync("source.orders", 0, 10)));
        assertEquals(2, print("queue", share));
        assertEquals("", out.toString());
        assertTrue(err.toString().contains("share group"), err.toString());
    }

    @Test
    void aGroupNobodyKnowsGivesAnEmptyPlanAndSaysSo() {
        assertEquals(0, print("nobody"));
        assertEquals("", out.toString());
        assertTrue(err.toString().contains("the CSV is empty"), err.toString());
    }
}
