package dev.sextant.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.sextant.acl.RequiredAcl;
import dev.sextant.acl.RequiredAcls;
import dev.sextant.acl.SourceTopicReads;
import dev.sextant.config.SextantConfig;
import dev.sextant.config.SextantConfigLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code config acls --format strimzi}: Strimzi KafkaUsers carrying exactly the ACLs of {@link RequiredAcls}, and the
 * checked-in {@code deploy/strimzi/kafkausers.yaml} is what the command its kustomization names prints.
 */
class ConfigAclsStrimziTest {

    private static final Path ROOT = Path.of(System.getProperty("basedir", "."), "..").normalize();
    private static final Path STRIMZI = ROOT.resolve("deploy/strimzi");
    private static final ObjectMapper YAML = new YAMLMapper();
    /** What {@code --mirrored-topics orders} chooses: Read on that source topic alone. */
    private static final SourceTopicReads ORDERS = SourceTopicReadOptions.named(
            List.of(SourceTopicReads.literal("orders")));

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @TempDir
    Path dir;

    private int run(String... args) {
        CommandLine cli = SextantCommand.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    /** The command in deploy/strimzi/kustomization.yaml's comment, continued lines joined, as arguments. */
    private static List<String> documentedCommand() throws IOException {
        String kustomization = Files.readString(STRIMZI.resolve("kustomization.yaml"));
        Matcher command = Pattern.compile("#\\s+bin/sextant (config acls (?:[^\\n]*\\\\\\n#)*[^\\n]*)")
                .matcher(kustomization);
        assertTrue(command.find(), "no 'bin/sextant config acls' in deploy/strimzi/kustomization.yaml");
        String joined = command.group(1).replaceAll("\\\\\\n#\\s*", " ").trim();
        return Arrays.asList(joined.split("\\s+"));
    }

    @Test
    void deployStrimziKafkaUsersAreWhatTheCommandPrintsForItsConfiguration() throws Exception {
        List<String> args = documentedCommand();
        assertTrue(args.containsAll(List.of("--format", "strimzi", "-c", "deploy/strimzi/sextant.properties",
                "--mirrored-topics", "orders,payments")), args.toString());
        SourceTopicReads reads = SourceTopicReadOptions.named(List.of(SourceTopicReads.literal("orders"),
                SourceTopicReads.literal("payments")));
        List<String> resolved = new ArrayList<>(args);
        resolved.set(resolved.indexOf("-c") + 1, ROOT.resolve("deploy/strimzi/sextant.properties").toString());
        assertEquals(0, run(resolved.toArray(String[]::new)), err.toString());
        assertEquals("", err.toString());
        assertEquals(out.toString(), Files.readString(STRIMZI.resolve("kafkausers.yaml")),
                "deploy/strimzi/kafkausers.yaml is stale: run the command in deploy/strimzi/kustomization.yaml");

        // the references to Strimzi's Secrets in the example need not resolve: they exist once these are applied
        SextantConfig example = SextantConfigLoader.loadWithoutSecrets(STRIMZI.resolve("sextant.properties"),
                Map.of());
        List<JsonNode> users = documents(out.toString());
        assertEquals(2, users.size(), out.toString());
        assertKafkaUser(users.get(0), "sextant-east", "east", "scram-sha-512",
                RequiredAcls.of(example, reads, RequiredAcl.Cluster.SOURCE));
        assertKafkaUser(users.get(1), "sextant-west", "west", "tls",
                RequiredAcls.of(example, reads, RequiredAcl.Cluster.DESTINATION));
    }

    @Test
    void theDefaultsComeFromTheConfigurationAndAreSaidInTheComments() throws Exception {
        String example = ROOT.resolve("config/sextant.properties").toString();
        assertEquals(0, run("config", "acls", "-c", example, "--format", "STRIMZI", "--mirrored-topics", "orders"),
                err.toString());
        List<JsonNode> users = documents(out.toString());
        SextantConfig config = SextantConfigLoader.load(Path.of(example), Map.of());
        // a plaintext configuration says nothing: scram-sha-512; the Kafka resource is the alias, flagged to check
        assertKafkaUser(users.get(0), "sextant", "source", "scram-sha-512",
                RequiredAcls.of(config, ORDERS, RequiredAcl.Cluster.SOURCE));
        assertKafkaUser(users.get(1), "sextant", "destination", "scram-sha-512",
                RequiredAcls.of(config, ORDERS, RequiredAcl.Cluster.DESTINATION));
        assertTrue(out.toString().contains("# Kafka resource: source (source.alias, as no --source-strimzi-cluster "
                + "was given"), out.toString());
        assertTrue(out.toString().contains("# authentication: scram-sha-512 (the default"), out.toString());
        assertTrue(out.toString().startsWith("# ") && out.toString().contains("\n---\n# source cluster"));
        // every ACL's reason is in the comment above its KafkaUser
        for (RequiredAcl acl : RequiredAcls.of(config, ORDERS)) {
            assertTrue(out.toString().contains("#   " + acl.describe() + ": " + acl.why() + "\n"), acl.why());
        }

        out.getBuffer().setLength(0);
        assertEquals(0, run("config", "acls", "-c", example, "--format", "strimzi", "--authentication", "tls",
                "--destination-principal", "User:CN=sextant-dr", "--destination-strimzi-cluster", "west",
                "--mirrored-topics", "orders"), err.toString());
        users = documents(out.toString());
        assertKafkaUser(users.get(1), "sextant-dr", "west", "tls",
                RequiredAcls.of(config, ORDERS, RequiredAcl.Cluster.DESTINATION));
        assertTrue(out.toString().contains("# user: sextant-dr, principal User:CN=sextant-dr\n"), out.toString());
    }

    /** Strimzi 1.0 serves KafkaUser as v1 only: the same spec, under the other API version. */
    @Test
    void v1IsTheSameKafkaUsersUnderTheOtherApiVersion() throws Exception {
        String example = ROOT.resolve("deploy/strimzi/sextant.properties").toString();
        assertEquals(0, run("config", "acls", "-c", example, "--format", "strimzi", "--strimzi-api-version", "v1",
                "--mirrored-topics", "orders"), err.toString());
        String v1 = out.toString();
        out.getBuffer().setLength(0);
        assertEquals(0, run("config", "acls", "-c", example, "--format", "strimzi", "--mirrored-topics", "orders"),
                err.toString());
        assertEquals(2, v1.split("\napiVersion: kafka.strimzi.io/v1\n", -1).length - 1, v1);
        assertEquals(out.toString().replace("apiVersion: kafka.strimzi.io/v1beta2\n",
                "apiVersion: kafka.strimzi.io/v1\n"), v1);
    }

    @Test
    void exactlyOnceAddsTheTransactionalIdPrefixAndNumericNamesStayStrings() throws Exception {
        Path file = dir.resolve("eos.properties");
        Files.writeString(file, """
                source.bootstrap.servers=a:9093
                destination.bootstrap.servers=b:9093
                application.id=2024
                streams.processing.guarantee=exactly_once_v2
                destination.security.protocol=SSL
                destination.ssl.keystore.location=/etc/sextant/user.p12
                """);
        assertEquals(0, run("config", "acls", "-c", file.toString(), "--format", "strimzi", "--mirrored-topics",
                "orders"), err.toString());
        SextantConfig config = SextantConfigLoader.load(file, Map.of());
        List<JsonNode> users = documents(out.toString());
        assertKafkaUser(users.get(0), "sextant", "source", "scram-sha-512",
                RequiredAcls.of(config, ORDERS, RequiredAcl.Cluster.SOURCE));
        assertKafkaUser(users.get(1), "sextant", "destination", "tls",
                RequiredAcls.of(config, ORDERS, RequiredAcl.Cluster.DESTINATION));
        JsonNode transactional = null;
        for (JsonNode acl : users.get(0).at("/spec/authorization/acls")) {
            if (acl.at("/resource/type").asText().equals("transactionalId")) {
                transactional = acl;
            }
        }
        assertEquals("2024-", transactional.at("/resource/name").textValue(), String.valueOf(transactional));
        assertEquals("prefix", transactional.at("/resource/patternType").asText());
        // the group named 2024 is the string "2024", not the number
        assertTrue(out.toString().contains("name: \"2024\"") || out.toString().contains("name: '2024'"),
                out.toString());
    }

    @Test
    void aClusterSecuredAsNoKafkaUserCanBeIsWarnedAbout() throws Exception {
        Path file = dir.resolve("plain.properties");
        Files.writeString(file, """
                source.bootstrap.servers=a:9093
                destination.bootstrap.servers=b:9093
                source.security.protocol=SASL_SSL
                source.sasl.mechanism=PLAIN
                """);
        assertEquals(0, run("config", "acls", "-c", file.toString(), "--format", "strimzi", "--mirrored-topics",
                "orders"));
        assertTrue(err.toString().contains("warning: source.security.protocol SASL_SSL with sasl.mechanism PLAIN"),
                err.toString());
        assertFalse(err.toString().contains("destination"), "plaintext is said nothing about: " + err);
        assertEquals("scram-sha-512", documents(out.toString()).get(0).at("/spec/authentication/type").asText());
    }

    @Test
    void badValuesAreBadUsageNamingTheOption() {
        String example = ROOT.resolve("config/sextant.properties").toString();
        assertBadUsage("'xml' is not one of text, json, yaml, strimzi", "config", "acls", "-c", example, "--format",
                "xml");
        assertBadUsage("'plain' is not one of scram-sha-512, tls", "config", "acls", "-c", example, "--format",
                "strimzi", "--authentication", "plain");
        assertBadUsage("work with --format strimzi only", "config", "acls", "-c", example, "--authentication", "tls");
        assertBadUsage("work with --format strimzi only", "config", "acls", "-c", example, "--json",
                "--source-strimzi-cluster", "east");
        assertBadUsage("'v2' is not one of v1beta2, v1", "config", "acls", "-c", example, "--format", "strimzi",
                "--strimzi-api-version", "v2");
        assertBadUsage("work with --format strimzi only", "config", "acls", "-c", example, "--strimzi-api-version",
                "v1");
        assertBadUsage("--json is -o json", "config", "acls", "-c", example, "--json", "--format", "strimzi");
        assertBadUsage("--source-principal: 'User:Sextant' gives no KafkaUser name", "config", "acls", "-c", example,
                "--format", "strimzi", "--source-principal", "User:Sextant");
        assertBadUsage("--destination-strimzi-cluster 'a/b' is no Kubernetes label value", "config", "acls", "-c",
                example, "--format", "strimzi", "--destination-strimzi-cluster", "a/b");
    }

    @Test
    void theOtherFormatsAreUnchangedAndTheHelpNamesEveryFormat() {
        String example = ROOT.resolve("config/sextant.properties").toString();
        assertEquals(0, run("config", "acls", "-c", example, "--mirrored-topics", "orders"));
        String text = out.toString();
        out.getBuffer().setLength(0);
        assertEquals(0, run("config", "acls", "-c", example, "--format", "text", "--mirrored-topics", "orders"));
        assertEquals(text, out.toString());
        out.getBuffer().setLength(0);
        assertEquals(0, run("config", "acls", "-c", example, "--json", "--mirrored-topics", "orders"));
        String json = out.toString();
        out.getBuffer().setLength(0);
        assertEquals(0, run("config", "acls", "-c", example, "--format", "json", "--mirrored-topics", "orders"));
        assertEquals(json, out.toString());

        out.getBuffer().setLength(0);
        assertEquals(0, run("config", "acls", "--help"));
        for (String expected : List.of("--format", "text", "json", "strimzi", "--authentication", "scram-sha-512",
                "--source-strimzi-cluster", "--destination-strimzi-cluster", "--strimzi-api-version", "v1beta2",
                "KafkaUser", "--all-topics-read", "--mirrored-topics", "--source-admin-config",
                "--destination-admin-config", "Exit codes:")) {
            assertTrue(out.toString().contains(expected), expected + " in\n" + out);
        }
        assertTrue(out.toString().contains("(${dir:...}, ${file:...} in JAAS"), "picocli left them: " + out);
    }

    private void assertBadUsage(String message, String... args) {
        err.getBuffer().setLength(0);
        out.getBuffer().setLength(0);
        assertEquals(2, run(args), err.toString());
        assertTrue(err.toString().contains(message), message + " in\n" + err);
        if (ErrorDocument.asked(args).isPresent()) {
            // a document was asked for: the error is one (issue 50), the usage line stays on stderr
            assertTrue(out.toString().startsWith("{\"error\":") && out.toString().contains("\"kind\":\"usage\""),
                    out.toString());
        } else {
            assertEquals("", out.toString(), "nothing on stdout");
        }
    }

    /** The KafkaUser as Strimzi reads it, its ACLs exactly {@code expected}, translated here independently. */
    private static void assertKafkaUser(JsonNode user, String name, String kafka, String authentication,
                                        List<RequiredAcl> expected) {
        assertEquals("kafka.strimzi.io/v1beta2", user.path("apiVersion").asText(), user.toString());
        assertEquals("KafkaUser", user.path("kind").asText());
        assertEquals(name, user.at("/metadata/name").asText());
        assertEquals(kafka, user.at("/metadata/labels/strimzi.io~1cluster").asText(), user.toString());
        assertEquals(authentication, user.at("/spec/authentication/type").asText());
        assertEquals("simple", user.at("/spec/authorization/type").asText());
        JsonNode acls = user.at("/spec/authorization/acls");
        assertEquals(expected.size(), acls.size(), acls.toString());
        for (int i = 0; i < expected.size(); i++) {
            RequiredAcl want = expected.get(i);
            JsonNode acl = acls.get(i);
            String type = switch (want.resourceType()) {
                case TOPIC -> "topic";
                case GROUP -> "group";
                case CLUSTER -> "cluster";
                case TRANSACTIONAL_ID -> "transactionalId";
                default -> throw new AssertionError(want.resourceType().toString());
            };
            assertEquals(type, acl.at("/resource/type").asText(), acl.toString());
            assertEquals(want.name(), acl.at("/resource/name").textValue(), acl.toString());
            assertEquals(want.patternType() == PatternType.PREFIXED ? "prefix" : "literal",
                    acl.at("/resource/patternType").asText(), acl.toString());
            List<String> operations = new ArrayList<>();
            acl.path("operations").forEach(op -> operations.add(op.asText()));
            assertEquals(want.operations().stream().map(ConfigAclsStrimziTest::strimziOperation).toList(), operations);
            assertEquals("*", acl.path("host").asText());
            assertEquals(List.of("resource", "operations", "host"), fieldNames(acl), "no other field");
        }
    }

    /** DESCRIBE_CONFIGS as Strimzi spells it: DescribeConfigs. */
    private static String strimziOperation(AclOperation operation) {
        StringBuilder name = new StringBuilder();
        for (String word : operation.name().split("_")) {
            name.append(word.charAt(0)).append(word.substring(1).toLowerCase(Locale.ROOT));
        }
        return name.toString();
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static List<JsonNode> documents(String yaml) throws IOException {
        List<JsonNode> documents = new ArrayList<>();
        try (var parser = new YAMLFactory().createParser(yaml)) {
            YAML.readValues(parser, JsonNode.class).forEachRemaining(documents::add);
        }
        return documents;
    }
}
