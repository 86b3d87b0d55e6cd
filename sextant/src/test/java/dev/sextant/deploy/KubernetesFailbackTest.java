package dev.sextant.deploy;

import static dev.sextant.deploy.KubernetesManifestsTest.node;
import static dev.sextant.deploy.KubernetesManifestsTest.objects;
import static dev.sextant.deploy.KubernetesManifestsTest.only;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sextant.cli.SextantCommand;
import dev.sextant.deploy.DeployTools.Result;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * The failback overlays ({@code deploy/kubernetes/overlays/failback}, {@code deploy/strimzi/failback}), a second
 * Sextant beside the forward one in the same namespace (the tools as for {@link KubernetesManifestsTest}): the two
 * share no object, each selects only its own pods and advertises its own Service, and both pass the policy scan
 * together; the failback one's credentials are its own, set explicitly; its configuration is
 * {@code sextant failback-config} of the forward one; on Strimzi its KafkaUsers are what {@code config acls} prints
 * for it and the reverse {@code KafkaMirrorMaker2} is the flow it reads.
 */
class KubernetesFailbackTest {

    private static final Path KUBERNETES = DeployTools.DEPLOY.resolve("kubernetes");
    private static final Path FAILBACK = KUBERNETES.resolve("overlays/failback");
    private static final Path STRIMZI = DeployTools.DEPLOY.resolve("strimzi");
    private static final String NAME = "app.kubernetes.io/name";

    @TempDir
    Path temp;

    @ParameterizedTest
    @CsvSource({"overlays/production, overlays/failback", "../strimzi, ../strimzi/failback"})
    void aFailbackSextantBesideTheForwardOneSharesNoObjectAndSelectsOnlyItsOwnPods(String forward, String failback)
            throws Exception {
        Path forwardFile = render(forward);
        Path failbackFile = render(failback);
        List<JsonNode> one = objects(forwardFile);
        List<JsonNode> other = objects(failbackFile);
        assertEquals(only(one, "StatefulSet").at("/metadata/namespace"), only(other, "StatefulSet")
                .at("/metadata/namespace"), "one namespace");
        Set<String> shared = new TreeSet<>(ids(one));
        shared.retainAll(ids(other));
        assertEquals(Set.of(), shared, "objects both would apply");
        for (List<List<JsonNode>> pair : List.of(List.of(one, other), List.of(other, one))) {
            JsonNode own = only(pair.get(0), "StatefulSet");
            JsonNode pods = own.at("/spec/template/metadata/labels");
            JsonNode strangers = only(pair.get(1), "StatefulSet").at("/spec/template/metadata/labels");
            JsonNode pod = own.at("/spec/template/spec");
            List<JsonNode> selectors = new ArrayList<>(List.of(own.at("/spec/selector/matchLabels"),
                    only(pair.get(0), "Service").at("/spec/selector"),
                    only(pair.get(0), "PodDisruptionBudget").at("/spec/selector/matchLabels"),
                    only(pair.get(0), "NetworkPolicy").at("/spec/podSelector/matchLabels"),
                    only(pair.get(0), "PodMonitor").at("/spec/selector/matchLabels")));
            pod.at("/affinity/podAntiAffinity/preferredDuringSchedulingIgnoredDuringExecution")
                    .forEach(t -> selectors.add(t.at("/podAffinityTerm/labelSelector/matchLabels")));
            pod.path("topologySpreadConstraints").forEach(c -> selectors.add(c.at("/labelSelector/matchLabels")));
            for (JsonNode selector : selectors) {
                assertTrue(selects(selector, pods), selector + " selects " + pods);
                assertTrue(!selects(selector, strangers), selector + " selects the other Sextant's pods too");
            }
            // <pod>.<its own headless Service>.<namespace>...
            String service = only(pair.get(0), "Service").at("/metadata/name").asText();
            assertEquals(service, own.at("/spec/serviceName").asText());
            String advertised = env(pod.at("/containers/0"), "SEXTANT_QUERY_ADVERTISED");
            assertEquals("$(POD_NAME)." + service + ".$(POD_NAMESPACE).svc.cluster.local:8080", advertised);
            // its scrape job is its pods' name label, and its sextant:up names that job
            assertEquals(NAME, only(pair.get(0), "PodMonitor").at("/spec/jobLabel").asText());
            JsonNode record = only(pair.get(0), "PrometheusRule").at("/spec/groups/0/rules/0");
            assertEquals("sextant:up", record.path("record").asText());
            assertEquals("up{job=\"" + pods.path(NAME).asText() + "\"}", record.path("expr").asText());
        }
        // the alerts and the dashboard once: the forward overlay's read every job
        JsonNode rule = only(other, "PrometheusRule");
        assertEquals(1, rule.at("/spec/groups").size());
        assertEquals(1, rule.at("/spec/groups/0/rules").size());
        assertTrue(other.stream().noneMatch(o -> o.at("/metadata/labels/grafana_dashboard").isTextual()));

        Path both = temp.resolve("both.yaml");
        Files.writeString(both, Files.readString(forwardFile) + "---\n" + Files.readString(failbackFile));
        Result policy = node("policy.mjs", both);
        assertEquals(0, policy.exit(), policy.output());
        assertTrue(policy.output().contains(" 0 findings"), policy.output());
    }

    /**
     * The failback Sextant's Secret is its own: none of the forward Secret's credentials (whose SEXTANT_SOURCE_* are
     * the forward source's, and would win over its file) nor its token; the settings beside them (protocol,
     * mechanism) may be alike.
     */
    @ParameterizedTest
    @CsvSource({"overlays/production, overlays/failback", "../strimzi, ../strimzi/failback"})
    void theFailbackSecretSetsItsOwnCredentialsInheritingNone(String forward, String failback) throws Exception {
        JsonNode mine = only(objects(render(failback)), "Secret").path("stringData");
        JsonNode theirs = only(objects(render(forward)), "Secret").path("stringData");
        List<String> keys = new ArrayList<>();
        mine.fieldNames().forEachRemaining(keys::add);
        assertTrue(keys.contains("SEXTANT_QUERY_AUTH_TOKEN"), keys.toString());
        for (String key : keys) {
            if (key.endsWith("_JAAS_CONFIG") || key.contains("PASSWORD") || key.endsWith("_TOKEN")) {
                assertNotEquals(theirs.path(key), mine.path(key), key + " is the forward Sextant's");
            }
        }
        if (forward.endsWith("production")) {
            assertTrue(keys.containsAll(List.of("SEXTANT_SOURCE_SASL_JAAS_CONFIG",
                    "SEXTANT_DESTINATION_SASL_JAAS_CONFIG")), keys.toString());
        }
    }

    /**
     * Each failback configuration is what {@code sextant failback-config} prints for its forward file, key by key;
     * on Strimzi with the credentials of its own KafkaUsers' Secrets in place of the forward users'.
     */
    @Test
    void theFailbackConfigurationsAreFailbackConfigOfTheForwardOnes() throws Exception {
        JsonNode baseConfigMap = only(objects(KUBERNETES.resolve("base/configmap.yaml")), "ConfigMap");
        Path forward = temp.resolve("sextant.properties");
        Files.writeString(forward, baseConfigMap.at("/data/sextant.properties").asText());
        assertEquals(failbackConfig(forward), read(Files.readString(FAILBACK.resolve("failback.properties"))));

        Map<String, String> derived = failbackConfig(STRIMZI.resolve("sextant.properties"));
        Map<String, String> expected = new TreeMap<>();
        int own = 0;
        for (Map.Entry<String, String> e : derived.entrySet()) {
            String value = e.getValue().replace("/etc/strimzi/sextant-east", "/etc/strimzi/sextant-failback-east")
                    .replace("/etc/strimzi/sextant-west", "/etc/strimzi/sextant-failback-west");
            own += value.equals(e.getValue()) ? 0 : 1;
            expected.put(e.getKey(), value);
        }
        assertEquals(3, own, "the JAAS config, keystore and its password are the failback users' " + derived);
        assertEquals(expected, read(Files.readString(STRIMZI.resolve("failback/failback.properties"))));
    }

    @Test
    void theFailbackKafkaUsersAreWhatConfigAclsPrintsForTheFailbackConfiguration() throws Exception {
        String kustomization = Files.readString(STRIMZI.resolve("failback/kustomization.yaml"));
        Matcher command = Pattern.compile("#\\s+bin/sextant (config acls (?:[^\\n]*\\\\\\n#)*[^\\n]*)")
                .matcher(kustomization);
        assertTrue(command.find(), "no 'bin/sextant config acls' in deploy/strimzi/failback/kustomization.yaml");
        List<String> args = new ArrayList<>(Arrays.asList(command.group(1).replaceAll("\\\\\\n#\\s*", " ").trim()
                .split("\\s+")));
        assertEquals("deploy/strimzi/failback/failback.properties", args.get(args.indexOf("-c") + 1));
        args.set(args.indexOf("-c") + 1, STRIMZI.resolve("failback/failback.properties").toString());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(0, cli(out, err).execute(args.toArray(String[]::new)), err.toString());
        assertEquals(out.toString(), Files.readString(STRIMZI.resolve("failback/kafkausers.yaml")),
                "deploy/strimzi/failback/kafkausers.yaml is stale: run the command in its kustomization.yaml");
        List<String> names = objects(STRIMZI.resolve("failback/kafkausers.yaml")).stream()
                .map(u -> u.at("/metadata/name").asText() + "@" + u.at("/metadata/labels/strimzi.io~1cluster")
                        .asText()).toList();
        assertEquals(List.of("sextant-failback-west@west", "sextant-failback-east@east"), names);
    }

    @Test
    void theReverseKafkaMirrorMaker2IsTheFlowTheFailbackSextantReads() throws Exception {
        Path failback = STRIMZI.resolve("failback");
        KubernetesOverlaysTest.assertMirrorMaker2Matches(failback.resolve("kafkamirrormaker2.yaml"),
                failback.resolve("failback.properties"), failback.resolve("kustomization.yaml"));
        JsonNode forward = only(objects(STRIMZI.resolve("kafkamirrormaker2.yaml")), "KafkaMirrorMaker2");
        JsonNode reverse = only(objects(failback.resolve("kafkamirrormaker2.yaml")), "KafkaMirrorMaker2");
        assertNotEquals(forward.at("/metadata/name"), reverse.at("/metadata/name"));
        assertEquals(forward.at("/spec/mirrors/0/sourceCluster"), reverse.at("/spec/mirrors/0/targetCluster"));
        assertEquals(forward.at("/spec/mirrors/0/targetCluster"), reverse.at("/spec/mirrors/0/sourceCluster"));
    }

    private static Map<String, String> failbackConfig(Path forward) throws IOException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = cli(out, err).execute("failback-config", "-c", forward.toString());
        assertEquals(0, exit, err.toString());
        return read(out.toString());
    }

    private static CommandLine cli(StringWriter out, StringWriter err) {
        CommandLine cli = SextantCommand.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli;
    }

    private static Map<String, String> read(String text) throws IOException {
        Properties properties = new Properties();
        properties.load(new StringReader(text));
        Map<String, String> map = new TreeMap<>();
        properties.stringPropertyNames().forEach(k -> map.put(k, properties.getProperty(k)));
        return map;
    }

    private static Set<String> ids(List<JsonNode> objects) {
        Set<String> ids = new TreeSet<>();
        objects.forEach(o -> ids.add(o.path("kind").asText() + "/" + o.at("/metadata/name").asText()));
        return ids;
    }

    private static boolean selects(JsonNode selector, JsonNode labels) {
        if (!selector.isObject() || selector.size() == 0) {
            return false;
        }
        boolean all = true;
        for (var entry : (Iterable<Map.Entry<String, JsonNode>>) selector::fields) {
            all &= entry.getValue().asText().equals(labels.path(entry.getKey()).asText(null));
        }
        return all;
    }

    private static String env(JsonNode container, String name) {
        for (JsonNode variable : container.path("env")) {
            if (variable.path("name").asText().equals(name)) {
                return variable.path("value").asText();
            }
        }
        throw new AssertionError("no " + name + " in " + container.path("env"));
    }

    /** {@code kubectl kustomize} of a directory under deploy/kubernetes, into a file. */
    private Path render(String kustomization) throws Exception {
        return DeployTools.kustomize(kustomization, temp);
    }
}
