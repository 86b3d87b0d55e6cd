package dev.sextant.deploy;

import static dev.sextant.deploy.KubernetesManifestsTest.node;
import static dev.sextant.deploy.KubernetesManifestsTest.objects;
import static dev.sextant.deploy.KubernetesManifestsTest.only;
import static dev.sextant.deploy.KubernetesManifestsTest.requireNodeChecks;
import static dev.sextant.deploy.KubernetesManifestsTest.volume;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sextant.config.SextantConfig;
import dev.sextant.config.SextantConfigLoader;
import dev.sextant.deploy.DeployTools.Result;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.connect.mirror.DefaultReplicationPolicy;
import org.apache.kafka.connect.mirror.ReplicationPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the parts of each Kubernetes overlay must agree on, as Kustomize renders them (the tools as for
 * {@link KubernetesManifestsTest}): the failover Job with the StatefulSet (the same files mounted and variables set
 * for the configuration they both read, the same namespace and image), the Stakater Reloader annotations with what
 * the pods read (Kafka clients read their credentials at start: a renewed one needs a roll), and the example
 * {@code KafkaMirrorMaker2} with the Strimzi overlay's configuration.
 */
class KubernetesOverlaysTest {

    private static final Path KUBERNETES = DeployTools.DEPLOY.resolve("kubernetes");
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{([^}:]+):(?:([^}:]*):)?([^}]*)}");
    /** Keys only an instance reads (where it listens, its state, Kafka Streams): the failover Job runs none of it. */
    private static final Set<String> INSTANCE_KEYS = Set.of("query.listen", "query.advertised", "state.dir");

    @TempDir
    Path temp;

    /**
     * The failover Job of each overlay (a Kustomization of its own, so that deploying never runs it) runs beside that
     * overlay's instances with the same image, passes the schemas and, scanned with them, the policy scan.
     */
    @ParameterizedTest
    @CsvSource({"overlays/production, failover", "overlays/dev, overlays/dev/failover",
            "../strimzi, ../strimzi/failover", "overlays/production, cutover", "overlays/dev, overlays/dev/cutover",
            "../strimzi, ../strimzi/cutover", "overlays/failback, overlays/failback/cutover",
            "overlays/failback, overlays/failback/failover", "../strimzi/failback, ../strimzi/failback/cutover",
            "../strimzi/failback, ../strimzi/failback/failover"})
    void eachOverlaysFailoverJobRunsBesideItsInstancesAndPassesTheChecks(String overlay, String failover)
            throws Exception {
        Path instances = render(overlay);
        Path job = render(failover);
        Result schema = node("schema.mjs", job);
        assertEquals(0, schema.exit(), schema.output());
        Path both = temp.resolve("with-failover.yaml");
        Files.writeString(both, Files.readString(instances) + "---\n" + Files.readString(job));
        Result policy = node("policy.mjs", both);
        assertEquals(0, policy.exit(), policy.output());
        assertTrue(policy.output().contains(" 0 findings"), policy.output());
        JsonNode statefulSet = only(objects(instances), "StatefulSet");
        JsonNode failoverJob = only(objects(job), "Job");
        assertEquals(statefulSet.at("/metadata/namespace").asText(), failoverJob.at("/metadata/namespace").asText(),
                "the Job runs in the instances' namespace (their ConfigMap, Secrets and Service)");
        assertEquals(statefulSet.at("/spec/template/spec/containers/0/image").asText(),
                failoverJob.at("/spec/template/spec/containers/0/image").asText());
    }

    /**
     * Per overlay, every file and variable the rendered configuration reads (the file itself, {@code *.location}
     * values, {@code ${dir:...}}, {@code ${file:...}} and {@code ${env:...}} references) is mounted or set in the
     * StatefulSet and in that overlay's failover Job, and both set the same {@code SEXTANT_*} configuration: the Job
     * reads the same configuration, and with a file missing it could not authenticate.
     */
    @ParameterizedTest
    @CsvSource({"overlays/production, failover", "overlays/dev, overlays/dev/failover",
            "../strimzi, ../strimzi/failover", "overlays/production, cutover", "overlays/dev, overlays/dev/cutover",
            "../strimzi, ../strimzi/cutover", "overlays/failback, overlays/failback/cutover",
            "overlays/failback, overlays/failback/failover", "../strimzi/failback, ../strimzi/failback/cutover",
            "../strimzi/failback, ../strimzi/failback/failover"})
    void eachOverlaysFailoverJobMountsAndSetsWhatItsConfigurationReads(String overlay, String failover)
            throws Exception {
        List<JsonNode> instances = objects(render(overlay));
        JsonNode statefulSet = only(instances, "StatefulSet");
        JsonNode job = only(objects(render(failover)), "Job");
        String configMap = volume(statefulSet.at("/spec/template/spec"), "config").at("/configMap/name").asText();
        assertEquals(configMap, volume(job.at("/spec/template/spec"), "config").at("/configMap/name").asText());
        String properties = only(instances, "ConfigMap", configMap).at("/data/sextant.properties").asText();
        assertEquals(List.of(), notReadable(properties, statefulSet, instances), "the StatefulSet");
        assertEquals(List.of(), notReadable(properties, job, instances), "the failover Job of " + overlay);
        assertEquals(configurationVariables(statefulSet), configurationVariables(job),
                "the SEXTANT_* variables that change the configuration the Job reads");
        assertEquals(statefulSet.at("/spec/template/spec/containers/0/envFrom"),
                job.at("/spec/template/spec/containers/0/envFrom"));
    }

    /** The check above finds what the failover Job lacked on the Strimzi overlay: the Secrets' files. */
    @Test
    void theConfigurationCheckFindsTheStrimziFilesAJobWithoutThemLacks() throws Exception {
        List<JsonNode> instances = objects(render("../strimzi"));
        String properties = only(instances, "ConfigMap", "sextant").at("/data/sextant.properties").asText();
        JsonNode plainJob = only(objects(render("failover")), "Job");
        assertEquals(List.of("/etc/strimzi/east-cluster-ca-cert/ca.crt not mounted",
                "/etc/strimzi/sextant-east/sasl.jaas.config not mounted",
                "/etc/strimzi/sextant-west/user.p12 not mounted",
                "/etc/strimzi/sextant-west/user.password not mounted",
                "/etc/strimzi/west-cluster-ca-cert/ca.crt not mounted"),
                notReadable(properties, plainJob, instances));
        assertEquals(List.of("$SEXTANT_TEST_PASSWORD not set"), notReadable("config.providers=env\n"
                + "config.providers.env.class=org.apache.kafka.common.config.provider.EnvVarConfigProvider\n"
                + "source.sasl.jaas.config=${env:SEXTANT_TEST_PASSWORD}\n", plainJob, instances));
    }

    /**
     * Kafka clients read their credentials and Sextant its configuration when they start: each overlay's
     * StatefulSet asks Stakater Reloader to roll the pods when any Secret or ConfigMap its pods read changes
     * (mounted or as variables), and docs/security.md says which credentials need a roll and which do not.
     */
    @ParameterizedTest
    @ValueSource(strings = {"overlays/production", "overlays/dev", "../strimzi", "overlays/failback",
            "../strimzi/failback"})
    void reloaderRollsThePodsWhenTheConfigurationOrAKafkaCredentialChanges(String overlay) throws Exception {
        JsonNode statefulSet = only(objects(render(overlay)), "StatefulSet");
        JsonNode pod = statefulSet.at("/spec/template/spec");
        Set<String> secrets = new TreeSet<>();
        Set<String> configMaps = new TreeSet<>();
        for (JsonNode volume : pod.path("volumes")) {
            addIfPresent(secrets, volume.at("/secret/secretName"));
            addIfPresent(configMaps, volume.at("/configMap/name"));
        }
        for (JsonNode container : pod.path("containers")) {
            for (JsonNode from : container.path("envFrom")) {
                addIfPresent(secrets, from.at("/secretRef/name"));
                addIfPresent(configMaps, from.at("/configMapRef/name"));
            }
            for (JsonNode variable : container.path("env")) {
                addIfPresent(secrets, variable.at("/valueFrom/secretKeyRef/name"));
                addIfPresent(configMaps, variable.at("/valueFrom/configMapKeyRef/name"));
            }
        }
        assertEquals(secrets, names(statefulSet.at("/metadata/annotations/secret.reloader.stakater.com~1reload")));
        assertEquals(configMaps,
                names(statefulSet.at("/metadata/annotations/configmap.reloader.stakater.com~1reload")));
    }

    @Test
    void theSecurityDocSaysWhichCredentialsNeedARoll() throws IOException {
        String security = Files.readString(DeployTools.ROOT.resolve("docs/security.md"));
        for (String expected : List.of("## Which credentials need a roll", "secret.reloader.stakater.com/reload",
                "kubectl rollout restart statefulset/sextant", "query.tls.keystore.location")) {
            assertTrue(security.contains(expected), expected);
        }
        // the advice this replaces: a restart after every renewal, the HTTP API's certificate included
        assertTrue(!security.replaceAll("\\s+", " ").contains("renews a certificate or password, restart the pods"),
                "docs/security.md still says to restart after every renewal");
    }

    /**
     * The example KafkaMirrorMaker2 passes Strimzi's schema (no unknown field but the Kafka settings of its
     * {@code config} maps) and is the MirrorMaker 2 that deploy/strimzi/sextant.properties expects: the same
     * aliases, bootstrap servers and cluster CAs, a replication policy that names the offset-syncs topic and the
     * mirrored topics as Sextant does, offset syncs on the source, the mirrored topics the KafkaUsers name, and no
     * group sync of its own.
     */
    @Test
    void theKafkaMirrorMaker2ExampleMatchesTheStrimziConfiguration() throws Exception {
        Path strimzi = DeployTools.DEPLOY.resolve("strimzi");
        assertMirrorMaker2Matches(strimzi.resolve("kafkamirrormaker2.yaml"), strimzi.resolve("sextant.properties"),
                strimzi.resolve("kustomization.yaml"));
    }

    /**
     * {@code example}, a KafkaMirrorMaker2, passes Strimzi's schema and is the flow the configuration
     * {@code configuration} expects; every topic of the {@code --mirrored-topics} that {@code kustomization}'s
     * command names is mirrored by it, but those that are themselves mirrors of the destination's topics (which a
     * failback Sextant translates home, and MirrorMaker 2 never sends back).
     */
    static void assertMirrorMaker2Matches(Path example, Path configuration, Path kustomization) throws Exception {
        Result schema = node("schema.mjs", example);
        assertEquals(0, schema.exit(), schema.output());
        assertTrue(schema.output().contains("1 objects, 0 problems"), schema.output());

        SextantConfig config = SextantConfigLoader.loadWithoutSecrets(configuration, Map.of());
        Properties properties = properties(Files.readString(configuration));
        JsonNode spec = only(objects(example), "KafkaMirrorMaker2").path("spec");
        assertEquals(1, spec.path("mirrors").size());
        JsonNode mirror = spec.at("/mirrors/0");
        assertEquals(config.sourceAlias(), mirror.path("sourceCluster").asText());
        assertEquals(config.destinationAlias(), mirror.path("targetCluster").asText());
        assertEquals(config.destinationAlias(), spec.path("connectCluster").asText(), "it runs on the destination");
        for (String side : List.of("source", "destination")) {
            String alias = side.equals("source") ? config.sourceAlias() : config.destinationAlias();
            JsonNode cluster = null;
            for (JsonNode c : spec.path("clusters")) {
                cluster = c.path("alias").asText().equals(alias) ? c : cluster;
            }
            assertTrue(cluster != null, "no cluster " + alias);
            assertEquals(properties.getProperty(side + ".bootstrap.servers"),
                    cluster.path("bootstrapServers").asText());
            // the CA Sextant trusts, /etc/strimzi/<Secret>/ca.crt, from the same Secret
            String truststore = properties.getProperty(side + ".ssl.truststore.location");
            assertEquals(truststore, "/etc/strimzi/" + cluster.at("/tls/trustedCertificates/0/secretName").asText()
                    + "/" + cluster.at("/tls/trustedCertificates/0/certificate").asText());
        }

        Map<String, String> connector = new TreeMap<>();
        mirror.at("/sourceConnector/config").fields().forEachRemaining(e -> connector.put(e.getKey(),
                e.getValue().asText()));
        ReplicationPolicy policy = (ReplicationPolicy) Class.forName(connector.getOrDefault(
                "replication.policy.class", DefaultReplicationPolicy.class.getName())).getDeclaredConstructor()
                .newInstance();
        if (policy instanceof Configurable configurable) {
            configurable.configure(connector);
        }
        assertEquals(config.replicationPolicy().getClass(), policy.getClass());
        assertEquals(config.offsetSyncsTopic(), policy.offsetSyncsTopic(config.destinationAlias()));
        assertEquals("source", connector.getOrDefault("offset-syncs.topic.location", "source"),
                "Sextant reads the offset syncs on the source");
        assertEquals("true", connector.getOrDefault("emit.offset-syncs.enabled", "true"));

        Matcher mirrored = Pattern.compile("--mirrored-topics (\\S+)").matcher(Files.readString(kustomization));
        assertTrue(mirrored.find());
        Pattern topics = Pattern.compile(mirror.path("topicsPattern").asText());
        for (String topic : mirrored.group(1).split(",")) {
            if (config.destinationAlias().equals(policy.topicSource(topic.replace("*", "x")))) {
                continue; // a mirror of the destination's topic: translated home, not mirrored back
            }
            assertTrue(topics.matcher(topic).matches(), topic + " is mirrored");
            assertEquals(config.replicationPolicy().formatRemoteTopic(config.sourceAlias(), topic),
                    policy.formatRemoteTopic(config.sourceAlias(), topic));
        }
        // Sextant syncs the groups: MirrorMaker 2 does not (no checkpoint connector, or one without group sync)
        assertTrue(!mirror.at("/checkpointConnector/config/sync.group.offsets.enabled").asBoolean(false));
    }

    @Test
    void theSchemaCheckLetsStrimzisConfigMapsThroughButNotAMisspeltField() throws Exception {
        requireNodeChecks();
        Path bad = temp.resolve("bad-mirrormaker2.yaml");
        Files.writeString(bad, Files.readString(DeployTools.DEPLOY.resolve("strimzi/kafkamirrormaker2.yaml"))
                .replace("topicsPattern:", "topicsPatern:"));
        Result schema = node("schema.mjs", bad);
        assertEquals(1, schema.exit(), schema.output());
        assertTrue(schema.output().contains("unknown field .spec.mirrors[0].topicsPatern"), schema.output());
        assertTrue(schema.output().contains("1 objects, 1 problems"), schema.output());
    }

    /**
     * What {@code properties} reads that the workload's first container is not given: the configuration file
     * ({@code -c}), files ({@code *.location}, {@code ${dir:...}}, {@code ${file:...}}) under no mount of a volume
     * that holds them, and {@code ${env:...}} variables neither set nor in a rendered Secret or ConfigMap of
     * {@code envFrom}.
     */
    private static List<String> notReadable(String properties, JsonNode workload, List<JsonNode> rendered)
            throws IOException {
        JsonNode pod = workload.at("/spec/template/spec");
        JsonNode container = pod.at("/containers/0");
        Properties props = properties(properties);
        Set<String> files = new TreeSet<>();
        Set<String> variables = new TreeSet<>();
        List<String> args = new ArrayList<>();
        container.path("args").forEach(a -> args.add(a.asText()));
        files.add(args.get(args.indexOf("-c") + 1));
        List<String> problems = new ArrayList<>();
        for (String key : new TreeSet<>(props.stringPropertyNames())) {
            String value = props.getProperty(key);
            if (key.endsWith(".location") && !value.isBlank() && !value.contains("${")) {
                files.add(value.strip());
            }
            Matcher reference = REFERENCE.matcher(value);
            while (reference.find()) {
                String provider = props.getProperty("config.providers." + reference.group(1) + ".class", "");
                if (provider.endsWith(".DirectoryConfigProvider")) {
                    files.add(reference.group(2) + "/" + reference.group(3));
                } else if (provider.endsWith(".FileConfigProvider")) {
                    files.add(reference.group(2));
                } else if (provider.endsWith(".EnvVarConfigProvider")) {
                    variables.add(reference.group(3));
                } else {
                    problems.add(key + ": a reference this check cannot follow: " + reference.group());
                }
            }
        }
        for (String file : files) {
            if (!mounted(pod, container, file)) {
                problems.add(file + " not mounted");
            }
        }
        for (String variable : variables) {
            if (!set(container, variable, rendered)) {
                problems.add("$" + variable + " not set");
            }
        }
        return problems;
    }

    private static boolean mounted(JsonNode pod, JsonNode container, String file) {
        for (JsonNode mount : container.path("volumeMounts")) {
            String folder = mount.path("mountPath").asText();
            if (!file.startsWith(folder + "/") || mount.has("subPath")) {
                continue;
            }
            JsonNode volume = volume(pod, mount.path("name").asText());
            JsonNode source = volume.has("secret") ? volume.path("secret") : volume.path("configMap");
            if (source.isMissingNode()) {
                continue; // an emptyDir or a claim holds no configuration
            }
            String inside = file.substring(folder.length() + 1);
            if (!source.has("items")) {
                return true;
            }
            for (JsonNode item : source.path("items")) {
                if (item.path("path").asText().equals(inside)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean set(JsonNode container, String variable, List<JsonNode> rendered) {
        for (JsonNode env : container.path("env")) {
            if (env.path("name").asText().equals(variable)) {
                return true;
            }
        }
        for (JsonNode from : container.path("envFrom")) {
            String kind = from.has("secretRef") ? "Secret" : "ConfigMap";
            String name = from.path(from.has("secretRef") ? "secretRef" : "configMapRef").path("name").asText();
            for (JsonNode object : rendered) {
                if (object.path("kind").asText().equals(kind) && object.at("/metadata/name").asText().equals(name)
                        && (object.at("/data/" + variable).isTextual()
                        || object.at("/stringData/" + variable).isTextual())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The workload's SEXTANT_* variables that set a configuration key the failover reads too, with their values. */
    private static Map<String, JsonNode> configurationVariables(JsonNode workload) {
        Map<String, JsonNode> variables = new TreeMap<>();
        for (JsonNode env : workload.at("/spec/template/spec/containers/0/env")) {
            String name = env.path("name").asText();
            SextantConfigLoader.keyForEnvironmentVariable(name)
                    .filter(key -> SextantConfig.configDef().names().contains(key) || key.startsWith("source.")
                            || key.startsWith("destination."))
                    .filter(key -> !INSTANCE_KEYS.contains(key) && !key.startsWith("streams."))
                    .ifPresent(key -> variables.put(name, env));
        }
        return variables;
    }

    private static Properties properties(String text) throws IOException {
        Properties properties = new Properties();
        properties.load(new StringReader(text));
        return properties;
    }

    private static void addIfPresent(Set<String> names, JsonNode name) {
        if (name.isTextual()) {
            names.add(name.asText());
        }
    }

    private static Set<String> names(JsonNode commaSeparated) {
        Set<String> names = new TreeSet<>();
        for (String name : commaSeparated.asText("").split(",")) {
            if (!name.isBlank()) {
                names.add(name.strip());
            }
        }
        return names;
    }

    /** {@code kubectl kustomize} of a directory under deploy/kubernetes, into a file. */
    private Path render(String kustomization) throws Exception {
        return DeployTools.kustomize(kustomization, temp);
    }
}
