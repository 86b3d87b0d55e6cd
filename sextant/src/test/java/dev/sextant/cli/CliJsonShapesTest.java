package dev.sextant.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.sextant.adopt.GroupAdoption;
import dev.sextant.client.SextantClient;
import dev.sextant.cutover.CutoverReport;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.Reason;
import dev.sextant.failover.FailoverReport;
import dev.sextant.rebaseline.SourceRebaseline;
import dev.sextant.state.CutoverRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/cli.md shows the JSON document of every command's {@code -o json}: each example (after a
 * {@code <!-- json: NAME -->} marker) has the fields, at every depth, of the document the command writes, so a field
 * added to or renamed in a record fails here until the page says so.
 */
class CliJsonShapesTest {

    private static final Path DOC = Path.of(System.getProperty("basedir", "."), "..", "docs", "cli.md").normalize();
    private static final Pattern EXAMPLE = Pattern.compile("<!-- json: ([a-z -]+) -->\\s*```json\\n(.*?)```",
            Pattern.DOTALL);
    private static final long AT = 1_764_900_000_000L;

    /** A document of each kind, as the commands write them, in the page's order. */
    static Map<String, Object> documents() {
        Map<String, Object> documents = new LinkedHashMap<>();
        Reports.add(documents);
        Changes.add(documents);
        Reports.addConfig(documents);
        return documents;
    }

    /** What the commands that only read print. */
    private static final class Reports {
        static void add(Map<String, Object> documents) {
            documents.put("version", new VersionCommand.VersionJson("0.1.0", "4.4.0"));
            documents.put("status", new StatusCommand.Status(List.of(new SextantClient.Instance("10.0.0.5:8080", true,
                    List.of(0, 1), List.of(2))), 1, 1, 3L, "billing", null, null, 0,
                    List.of(new SextantClient.GroupSummary("billing", "consumer", "IN_SYNC", 2, AT, AT + 400, 3L)),
                    new SextantClient.Readiness("UP", null), 0));
            documents.put("offsets", new SextantClient.GroupOffsets("billing", "consumer",
                    List.of(new SextantClient.Offset("source.orders", 0, 1230))));
            documents.put("translate", new SextantClient.Translation("orders", 0, 1234, "source.orders", 1230,
                    "bounded", 3));
            documents.put("conflicts", new DeadLetterRecord("billing", "consumer", Reason.GROUP_ACTIVE,
                    List.of(new DeadLetterRecord.PartitionDetail("orders", 0, 1234L, 1230L, 1100L)),
                    "2 members on the destination", AT, AT + 500, "10.0.0.5:8080"));
        }

        static void addConfig(Map<String, Object> documents) {
            documents.put("config check", new ConfigCommand.Check.VerdictJson(false, "sextant.properties", null,
                    null, null, null, "sync.interval.msec", "Unknown configuration key 'sync.interval.msec'",
                    List.of(new ConfigCommand.Check.ProblemJson("sync.interval.msec",
                            "Unknown configuration key 'sync.interval.msec'")), List.of()));
            documents.put("config acls", new ConfigCommand.Acls.AclsJson(List.of(new ConfigCommand.Acls.ClusterJson(
                    "source", "User:sextant", "SOURCE_BOOTSTRAP", "SOURCE_ADMIN_CONFIG", List.of(
                    new ConfigCommand.Acls.AclJson("GROUP", "*", "LITERAL", List.of("DESCRIBE"), "why",
                            "kafka-acls ...")), List.of()))));
            documents.put("error", new ErrorDocument("Cannot read configuration file 'sextant.properties'",
                    "sextant failover", 2, ErrorDocument.CONFIGURATION, null));
        }
    }

    /** What the commands that write with --apply print. */
    private static final class Changes {
        static void add(Map<String, Object> documents) {
            documents.put("failover", new FailoverCommand.ReportJson(false, true, 1, "http://10.0.0.5:8080", null, 412,
                    List.of(new FailoverReport.GroupState("billing", "consumer", "Empty",
                            FailoverReport.GroupResult.PENDING, null, List.of(new FailoverReport.PartitionState(
                            "source.orders", 0, 1230L, "exact", 0L, 5_000L, 1240L,
                            FailoverReport.PartitionStatus.PENDING))))));
            documents.put("failover from-source", new FailoverCommand.FailoverJson("billing", "consumer",
                    "offset-syncs", false, "DRY_RUN", null, null, List.of(new FailoverCommand.PartitionJson("orders",
                    0, 1234,
                    "source.orders", 1230L, "bounded", 3L, null)), List.of()));
            documents.put("cutover", new CutoverReport(true, false, 30_000, List.of(new CutoverReport.GroupResult(
                    "billing", "consumer", "CUT_OVER", true, "cut over", AT, 0L, List.of(new CutoverRecord.Partition(
                    "orders", 0, 1234, "source.orders", 1230, "exact", 0L)))), 31_200));
            documents.put("adopt", new AdoptCommand.AdoptJson(false, List.of(new GroupAdoption.Group("billing",
                    GroupAdoption.Verdict.ADOPTABLE, null, List.of(new GroupAdoption.Partition("source.orders", 0, 1200,
                    1230L))))));
            documents.put("rebaseline", new RebaselineCommand.RebaselineJson("Pn9CcvFKT9O489YwTgXn8A",
                    "Xk2bQ7cGS3m0aPv1yLr8Tw", true, false));
            documents.put("rebaseline source", new RebaselineCommand.SourceRebaselineJson("Qa1Zx9...", false, false,
                    List.of(new SourceRebaseline.GroupResult("billing", Set.of("Mw4Lp0..."), List.of("source.orders-0"),
                            SourceRebaseline.Status.FOUND, null))));
        }
    }

    @Test
    void theDocShowsEveryCommandsJsonWithItsFields() throws Exception {
        String doc = Files.readString(DOC);
        Map<String, JsonNode> examples = new LinkedHashMap<>();
        Matcher matcher = EXAMPLE.matcher(doc);
        ObjectMapper json = new ObjectMapper();
        while (matcher.find()) {
            examples.put(matcher.group(1), json.readTree(matcher.group(2)));
        }
        Map<String, Object> documents = documents();
        assertEquals(documents.keySet(), examples.keySet(), "one example per document, in this order");
        for (Map.Entry<String, Object> document : documents.entrySet()) {
            assertEquals(fields(json.readTree(Json.write(document.getValue())), ""),
                    fields(examples.get(document.getKey()), ""), document.getKey());
        }
    }

    @Test
    void yamlIsTheSameTree() throws Exception {
        ObjectMapper json = new ObjectMapper();
        for (Object document : documents().values()) {
            assertEquals(json.readTree(Json.write(document)),
                    new YAMLMapper().readTree(Json.yaml(document)));
            assertTrue(!Json.yaml(document).endsWith("\n"), "println ends it");
        }
    }

    /** Every field's path: {@code groups[].partitions[].offset}. */
    private static Set<String> fields(JsonNode node, String path) {
        Set<String> out = new TreeSet<>();
        if (node.isObject()) {
            node.fieldNames().forEachRemaining(name -> {
                out.add(path + name);
                out.addAll(fields(node.get(name), path + name + "."));
            });
        } else if (node.isArray()) {
            node.forEach(element -> out.addAll(fields(element, path.isEmpty() ? "[]." : path.substring(0,
                    path.length() - 1) + "[].")));
        }
        return out;
    }
}
