package dev.sextant.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.sextant.deploy.DeployTools.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Kubernetes manifests under {@code deploy/kubernetes/} and {@code deploy/strimzi/}, as Kustomize renders them
 * ({@code kubectl kustomize}, offline): every overlay and the failover and cutover Jobs render; the objects pass the
 * Kubernetes schemas (and Strimzi's, for the KafkaUsers) and have no unknown field
 * ({@code deploy/checks/schema.mjs}); a policy scan finds nothing that is not suppressed with a reason
 * ({@code deploy/checks/policy.mjs}, Monokle's rules);
 * production has what it promises (replicas, standby, static membership, disruption budget, spreading, the alert
 * rules and dashboard of {@code deploy/}); and the Strimzi overlay mounts exactly the Secret files its configuration
 * reads, from the Secrets Strimzi writes for its KafkaUsers. Needs
 * kubectl (with Kustomize 5) and Node.js with {@code npm ci --prefix deploy/checks}; skipped without them, except
 * when {@code SEXTANT_REQUIRE_TOOLS=1} ({@code .ci/run} installs them).
 */
class KubernetesManifestsTest {

    private static final Path KUBERNETES = DeployTools.DEPLOY.resolve("kubernetes");
    private static final Path CHECKS = DeployTools.DEPLOY.resolve("checks");
    private static final ObjectMapper YAML = new YAMLMapper();
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path temp;

    @ParameterizedTest
    @ValueSource(strings = {"overlays/production", "overlays/dev", "failover", "cutover", "../strimzi",
            "overlays/failback", "overlays/failback/cutover", "overlays/failback/failover", "../strimzi/failback"})
    void eachKustomizationRendersAndPassesTheKubernetesSchemas(String kustomization) throws Exception {
        Path rendered = render(kustomization);
        Result schema = node("schema.mjs", rendered);
        assertEquals(0, schema.exit(), schema.output());
        assertTrue(schema.output().contains(" 0 problems"), schema.output());
    }

    @Test
    void theSchemaCheckRejectsUnknownFieldsAndWrongTypes() throws Exception {
        requireNodeChecks();
        // what the check is for: a misspelt field (the API server would drop it silently) and a wrong type
        Path bad = temp.resolve("bad.yaml");
        Files.writeString(bad, """
                apiVersion: apps/v1
                kind: StatefulSet
                metadata:
                  name: bad
                spec:
                  replicas: three
                  serviceName: bad
                  selector:
                    matchLabels: {app: bad}
                  template:
                    metadata:
                      labels: {app: bad}
                    spec:
                      containers:
                        - name: bad
                          image: bad:1
                          securityContext:
                            readOnlyRootFilesytem: true
                """);
        Result schema = node("schema.mjs", bad);
        assertEquals(1, schema.exit(), schema.output());
        assertTrue(schema.output().contains("/spec/replicas must be integer"), schema.output());
        assertTrue(schema.output().contains("unknown field .spec.template.spec.containers[0].securityContext"
                + ".readOnlyRootFilesytem"), schema.output());
    }

    @ParameterizedTest
    @ValueSource(strings = {"overlays/production", "overlays/dev", "../strimzi", "overlays/failback",
            "../strimzi/failback"})
    void thePolicyScanFindsNothingUnjustified(String overlay) throws Exception {
        // the failover and cutover Jobs are applied next to the production instances (their namespace): scanned
        // with them, their references to the instances' ConfigMap, Secret and ServiceAccount resolve
        Path rendered = render(overlay);
        if (overlay.endsWith("production")) {
            Files.writeString(rendered, Files.readString(rendered) + "---\n" + Files.readString(render("failover"))
                    + "---\n" + Files.readString(render("cutover")));
        }
        Result policy = node("policy.mjs", rendered);
        assertEquals(0, policy.exit(), policy.output());
        assertTrue(policy.output().contains(" 0 findings"), policy.output());
        // every suppression is printed with its reason; none may be bare
        for (String line : policy.output().split("\n")) {
            if (line.startsWith("SUPPRESSED")) {
                assertTrue(line.matches(".* -- suppressed: .{40,}"), line);
            }
        }
    }

    @Test
    void theSchemaCheckKnowsStrimzisKafkaUserAndItsFields() throws Exception {
        requireNodeChecks();
        // the custom resources' unknown fields too: a misspelt host would be dropped, the ACL granted from anywhere
        Path bad = temp.resolve("bad-kafkauser.yaml");
        Files.writeString(bad, """
                apiVersion: kafka.strimzi.io/v1beta2
                kind: KafkaUser
                metadata:
                  name: misspelt
                spec:
                  authentication:
                    type: scram-sha-512
                  authorization:
                    type: simple
                    acls:
                      - resource: {type: topic, name: a, patternType: literal}
                        operations: [Read]
                        hots: "*"
                ---
                apiVersion: kafka.strimzi.io/v1beta2
                kind: KafkaUser
                metadata:
                  name: wrong-values
                spec:
                  authentication:
                    type: scram-sha-256
                  authorization:
                    type: simple
                    acls:
                      - resource: {type: topic, name: a, patternType: prefixed}
                        operations: [Read]
                """);
        Result schema = node("schema.mjs", bad);
        assertEquals(1, schema.exit(), schema.output());
        assertTrue(schema.output().contains("KafkaUser/misspelt (kafka.strimzi.io/v1beta2): unknown field "
                + ".spec.authorization.acls[0].hots"), schema.output());
        assertTrue(schema.output().contains("/spec/authentication/type must be equal to one of the allowed values"),
                schema.output());
        assertTrue(schema.output().contains("/spec/authorization/acls/0/resource/patternType must be equal"),
                schema.output());
        assertTrue(schema.output().contains("2 objects, 2 problems"), schema.output());
    }

    /**
     * Strimzi 0.49 serves KafkaUser as kafka.strimzi.io/v1 too, and 1.0 only that: the generated spec is valid
     * there as well (v1 requires operations, which the generated ACLs always have), so that moving on is changing
     * apiVersion.
     */
    @Test
    void theStrimziKafkaUsersAreValidAsV1Too() throws Exception {
        String users = Files.readString(DeployTools.DEPLOY.resolve("strimzi/kafkausers.yaml"));
        Path v1 = temp.resolve("kafkausers-v1.yaml");
        Files.writeString(v1, users.replace("apiVersion: kafka.strimzi.io/v1beta2", "apiVersion: kafka.strimzi.io/v1"));
        Result schema = node("schema.mjs", v1);
        assertEquals(0, schema.exit(), schema.output());
        assertTrue(schema.output().contains("checked KafkaUser/sextant-west (kafka.strimzi.io/v1)"), schema.output());
        assertTrue(schema.output().contains("2 objects, 0 problems"), schema.output());
    }

    /** The forward Strimzi overlay and the failback one (its own KafkaUsers, their Secrets, its configuration). */
    @ParameterizedTest
    @CsvSource({"../strimzi, strimzi, sextant.properties, sextant",
            "../strimzi/failback, strimzi/failback, failback.properties, sextant-failback"})
    void strimziCarriesTheKafkaUsersAndMountsTheSecretFilesItsConfigurationReads(String overlay, String directory,
            String configuration, String configMapName) throws Exception {
        List<JsonNode> objects = objects(render(overlay));
        Path strimzi = DeployTools.DEPLOY.resolve(directory);
        String properties = Files.readString(strimzi.resolve(configuration));
        String namespace = only(objects, "StatefulSet").at("/metadata/namespace").asText();
        // the KafkaUsers as generated, in the namespace of the overlay
        List<JsonNode> users = objects.stream().filter(o -> o.path("kind").asText().equals("KafkaUser")).toList();
        List<JsonNode> generated = new ArrayList<>(objects(strimzi.resolve("kafkausers.yaml")));
        generated.forEach(u -> ((ObjectNode) u.path("metadata")).put("namespace", namespace));
        generated.sort(Comparator.comparing(u -> u.at("/metadata/name").asText())); // Kustomize's order
        assertEquals(generated, users);
        // the configuration is the file, and the Secret no longer overrides its clusters' settings
        JsonNode configMap = only(objects, "ConfigMap", configMapName);
        assertEquals(properties, configMap.at("/data/sextant.properties").asText());
        assertEquals(List.of("SEXTANT_QUERY_AUTH_TOKEN"), fieldNames(only(objects, "Secret").path("stringData")));

        // every /etc/strimzi/<Secret>/<file> the configuration reads (${dir:<folder>:<file>} or a location) is that
        // Secret's key, mounted there; nothing else is mounted from them
        Set<String> read = new TreeSet<>();
        Matcher file = Pattern.compile("/etc/strimzi/([a-z0-9.-]+)[/:]([A-Za-z0-9._-]+)").matcher(properties);
        while (file.find()) {
            read.add(file.group(1) + "/" + file.group(2));
        }
        JsonNode pod = only(objects, "StatefulSet").at("/spec/template/spec");
        Set<String> mounted = new TreeSet<>();
        for (JsonNode mount : pod.at("/containers/0/volumeMounts")) {
            if (!mount.path("mountPath").asText().startsWith("/etc/strimzi/")) {
                continue;
            }
            assertTrue(mount.path("readOnly").asBoolean(), mount.toString());
            JsonNode secret = volume(pod, mount.path("name").asText()).path("secret");
            String folder = mount.path("mountPath").asText().substring("/etc/strimzi/".length());
            assertEquals(folder, secret.path("secretName").asText(), "mounted under its Secret's name");
            for (JsonNode item : secret.path("items")) {
                assertEquals(item.path("key").asText(), item.path("path").asText(), item.toString());
                mounted.add(folder + "/" + item.path("key").asText());
            }
        }
        assertEquals(read, mounted);

        // the Secrets are those Strimzi writes for these KafkaUsers and their Kafka clusters, whose bootstrap
        // services the configuration names
        Set<String> expected = new TreeSet<>();
        for (JsonNode user : users) {
            String kafka = user.at("/metadata/labels/strimzi.io~1cluster").asText();
            boolean tls = user.at("/spec/authentication/type").asText().equals("tls");
            expected.add(user.at("/metadata/name").asText() + (tls ? "/user.p12" : "/sasl.jaas.config"));
            if (tls) {
                expected.add(user.at("/metadata/name").asText() + "/user.password");
            }
            expected.add(kafka + "-cluster-ca-cert/ca.crt");
            assertTrue(properties.contains(".bootstrap.servers=" + kafka + "-kafka-bootstrap." + namespace
                    + ".svc:9093\n"), kafka);
        }
        assertEquals(expected, mounted);
    }

    @Test
    void thePolicyScanFlagsAnInsecurePod() throws Exception {
        requireNodeChecks();
        Path bad = temp.resolve("insecure.yaml");
        Files.writeString(bad, """
                apiVersion: apps/v1
                kind: StatefulSet
                metadata:
                  name: insecure
                spec:
                  serviceName: insecure
                  selector:
                    matchLabels: {app: insecure}
                  template:
                    metadata:
                      labels: {app: insecure}
                    spec:
                      containers:
                        - name: insecure
                          image: insecure:latest
                          securityContext:
                            privileged: true
                          volumeMounts:
                            - {name: host, mountPath: /host}
                      volumes:
                        - name: host
                          hostPath: {path: /}
                """);
        Result policy = node("policy.mjs", bad);
        assertEquals(1, policy.exit(), policy.output());
        for (String expected : List.of("PSS103 privileged-containers", "PSS105 host-path-volumes",
                "KBP001 no-latest-image", "KBP102 no-writable-fs", "KBP106 no-automount-service-account-token",
                "no PodDisruptionBudget selects its pods", "no NetworkPolicy selects its pods",
                "memory request must equal the memory limit")) {
            assertTrue(policy.output().contains(expected), expected + " in\n" + policy.output());
        }
    }

    @Test
    void productionRunsThreeSpreadInstancesWithAStandbyAndStaticMembership() throws Exception {
        List<JsonNode> objects = objects(render("overlays/production"));
        JsonNode statefulSet = only(objects, "StatefulSet");
        assertEquals(3, statefulSet.at("/spec/replicas").asInt());
        JsonNode pod = statefulSet.at("/spec/template/spec");
        JsonNode container = pod.at("/containers/0");
        assertEquals("1", env(container, "SEXTANT_STREAMS_NUM_STANDBY_REPLICAS").path("value").asText());
        // group.instance.id from the pod's name, which the downward API gives POD_NAME
        assertEquals("$(POD_NAME)", env(container, "SEXTANT_STREAMS_GROUP_INSTANCE_ID").path("value").asText());
        assertEquals("metadata.name", env(container, "POD_NAME").at("/valueFrom/fieldRef/fieldPath").asText());
        assertEquals(container.at("/resources/requests/memory"), container.at("/resources/limits/memory"));
        assertTrue(env(container, "SEXTANT_JAVA_OPTS").path("value").asText().contains("-XX:MaxRAMPercentage="));
        assertEquals("kubernetes.io/hostname", pod.at("/affinity/podAntiAffinity"
                + "/preferredDuringSchedulingIgnoredDuringExecution/0/podAffinityTerm/topologyKey").asText());
        assertEquals("topology.kubernetes.io/zone", pod.at("/topologySpreadConstraints/0/topologyKey").asText());
        assertEquals(1, only(objects, "PodDisruptionBudget").at("/spec/maxUnavailable").asInt());
        assertEquals(false, only(objects, "ServiceAccount").path("automountServiceAccountToken").asBoolean(true));
        assertEquals(Set.of(8080), Set.of(only(objects, "NetworkPolicy").at("/spec/ingress/0/ports/0/port").asInt()));
        only(objects, "PodMonitor");
    }

    @Test
    void productionCarriesTheAlertRulesAndTheDashboardOfDeploy() throws Exception {
        List<JsonNode> objects = objects(render("overlays/production"));
        JsonNode rules = YAML.readTree(DeployTools.DEPLOY.resolve("prometheus/sextant-rules.yaml").toFile());
        assertEquals(rules, only(objects, "PrometheusRule").path("spec"),
                "the PrometheusRule is not sextant-rules.yaml: run deploy/prometheus/generate-prometheusrule");
        JsonNode dashboard = objects.stream().filter(o -> o.path("kind").asText().equals("ConfigMap")
                && o.at("/metadata/labels/grafana_dashboard").asText().equals("1")).findFirst().orElseThrow();
        assertEquals(JSON.readTree(DeployTools.DEPLOY.resolve("grafana/sextant.json").toFile()),
                JSON.readTree(dashboard.at("/data/sextant.json").asText()));
    }

    @Test
    void everyAlertHasARunbookSectionAndNoAlertNamesTheJob() throws IOException {
        JsonNode rules = YAML.readTree(DeployTools.DEPLOY.resolve("prometheus/sextant-rules.yaml").toFile());
        String runbook = Files.readString(DeployTools.ROOT.resolve("docs/runbook.md"));
        TreeSet<String> sections = new TreeSet<>();
        Matcher heading = Pattern.compile("(?m)^## (\\S+)$").matcher(runbook);
        while (heading.find()) {
            sections.add(heading.group(1).toLowerCase());
        }
        List<String> alerts = new ArrayList<>();
        for (JsonNode rule : rules.at("/groups/0/rules")) {
            if (rule.has("record")) {
                continue;
            }
            String alert = rule.path("alert").asText();
            alerts.add(alert);
            assertTrue(rule.at("/annotations/runbook_url").asText().endsWith("docs/runbook.md#"
                    + alert.toLowerCase()), alert); // absolute, on the project's URL: DeployFilesTest
            assertTrue(sections.contains(alert.toLowerCase()), "docs/runbook.md has no section ## " + alert);
            // the scrape job is chosen once, in the recording rule sextant:up, so an operator changes one line
            assertTrue(!rule.path("expr").asText().contains("job="), alert + ": " + rule.path("expr"));
        }
        assertTrue(alerts.containsAll(List.of("SextantAbsent", "SextantOffsetSyncsStale",
                "SextantOffsetSyncsRejected")), alerts.toString());
        assertEquals(new TreeSet<>(alerts.stream().map(String::toLowerCase).toList()), sections,
                "one runbook section per alert");
    }

    /** {@code kubectl kustomize} of a directory under deploy/kubernetes, into a file. */
    private Path render(String kustomization) throws Exception {
        DeployTools.requireTool("kubectl", "kubectl 1.27 or newer, whose kustomize is version 5");
        Result version = DeployTools.run(KUBERNETES, "kubectl", "version", "--client");
        Matcher kustomize = Pattern.compile("Kustomize Version: v(\\d+)").matcher(version.output());
        assertTrue(kustomize.find() && Integer.parseInt(kustomize.group(1)) >= 5,
                "kubectl's Kustomize must be version 5 or newer (Debian's kubernetes-client 1.20 is not): "
                        + version.output());
        Result rendered = DeployTools.run(KUBERNETES, "kubectl", "kustomize", kustomization);
        assertEquals(0, rendered.exit(), rendered.output());
        assertNotEquals("", rendered.output().strip());
        Path file = temp.resolve(kustomization.replace('/', '-') + ".yaml");
        Files.writeString(file, rendered.output());
        return file;
    }

    static void requireNodeChecks() throws Exception {
        DeployTools.requireTool("node", "Node.js 20 or newer");
        DeployTools.require(Files.isDirectory(CHECKS.resolve("node_modules/@monokle/validation")),
                "deploy/checks has no node_modules (npm ci --prefix deploy/checks)");
    }

    static Result node(String script, Path file) throws Exception {
        requireNodeChecks();
        return DeployTools.run(CHECKS, "node", script, file.toString());
    }

    static List<JsonNode> objects(Path rendered) throws IOException {
        List<JsonNode> objects = new ArrayList<>();
        try (var parser = new YAMLFactory().createParser(rendered.toFile())) {
            YAML.readValues(parser, JsonNode.class).forEachRemaining(objects::add);
        }
        return objects;
    }

    static JsonNode only(List<JsonNode> objects, String kind) {
        List<JsonNode> found = objects.stream().filter(o -> o.path("kind").asText().equals(kind)).toList();
        assertEquals(1, found.size(), kind + " objects: " + found.size());
        return found.get(0);
    }

    static JsonNode only(List<JsonNode> objects, String kind, String name) {
        List<JsonNode> found = objects.stream().filter(o -> o.path("kind").asText().equals(kind)
                && o.at("/metadata/name").asText().equals(name)).toList();
        assertEquals(1, found.size(), kind + "/" + name + " objects: " + found.size());
        return found.get(0);
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    static JsonNode volume(JsonNode pod, String name) {
        for (JsonNode volume : pod.path("volumes")) {
            if (volume.path("name").asText().equals(name)) {
                return volume;
            }
        }
        throw new AssertionError("no volume " + name + " in " + pod.path("volumes"));
    }

    private static JsonNode env(JsonNode container, String name) {
        for (JsonNode variable : container.path("env")) {
            if (variable.path("name").asText().equals(name)) {
                return variable;
            }
        }
        throw new AssertionError("no " + name + " in " + container.path("env"));
    }
}
