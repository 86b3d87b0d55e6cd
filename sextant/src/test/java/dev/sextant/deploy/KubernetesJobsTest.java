package dev.sextant.deploy;

import static dev.sextant.deploy.KubernetesManifestsTest.objects;
import static dev.sextant.deploy.KubernetesManifestsTest.only;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The one-off Jobs of each overlay (failover, cutover), as Kustomize renders them (the tools as for
 * {@link KubernetesManifestsTest}): each runs its command against its own overlay's instances through their Service
 * ({@code --url}), with the API token from the instances' Secret ({@code envFrom}), admitted by their NetworkPolicy;
 * and {@code docs/failover.md} tells an operator to run these Jobs, never {@code kubectl exec} into an instance.
 */
class KubernetesJobsTest {

    private static final Path KUBERNETES = DeployTools.DEPLOY.resolve("kubernetes");

    /** Each Job's kustomization (as {@code kubectl kustomize} takes it, from deploy/kubernetes), by overlay. */
    private static final Map<String, List<String>> JOBS = Map.of(
            "overlays/production", List.of("failover", "cutover"),
            "overlays/dev", List.of("overlays/dev/failover", "overlays/dev/cutover"),
            "../strimzi", List.of("../strimzi/failover", "../strimzi/cutover"),
            "overlays/failback", List.of("overlays/failback/failover", "overlays/failback/cutover"),
            "../strimzi/failback", List.of("../strimzi/failback/failover", "../strimzi/failback/cutover"));

    @TempDir
    Path temp;

    @ParameterizedTest
    @CsvSource({"overlays/production, failover, failover", "overlays/production, cutover, cutover",
            "overlays/dev, overlays/dev/failover, failover", "overlays/dev, overlays/dev/cutover, cutover",
            "../strimzi, ../strimzi/failover, failover", "../strimzi, ../strimzi/cutover, cutover",
            "overlays/failback, overlays/failback/failover, failover",
            "overlays/failback, overlays/failback/cutover, cutover",
            "../strimzi/failback, ../strimzi/failback/failover, failover",
            "../strimzi/failback, ../strimzi/failback/cutover, cutover"})
    void eachJobAsksItsOwnInstancesThroughTheirServiceWithTheirToken(String overlay, String kustomization,
                                                                    String command) throws Exception {
        List<JsonNode> instances = objects(render(overlay));
        JsonNode job = only(objects(render(kustomization)), "Job");
        JsonNode statefulSet = only(instances, "StatefulSet");
        JsonNode service = only(instances, "Service");
        JsonNode container = job.at("/spec/template/spec/containers/0");
        List<String> args = new ArrayList<>();
        container.path("args").forEach(a -> args.add(a.asText()));
        assertEquals(command, args.get(0), args.toString());
        assertTrue(args.contains("--url"), args.toString());
        // the headless Service of these instances, on its port: any running instance answers
        assertEquals("http://" + service.at("/metadata/name").asText() + ":" + service.at("/spec/ports/0/port")
                .asInt(), args.get(args.indexOf("--url") + 1));
        assertEquals(statefulSet.at("/spec/serviceName").asText(), service.at("/metadata/name").asText());
        assertTrue(selects(service.at("/spec/selector"), statefulSet.at("/spec/template/metadata/labels")),
                "the Service selects the instances");
        assertTrue(!args.contains("--apply"), "shipped as a dry run: " + args);
        // the token the instances share, through envFrom of their Secret (never written into the Job)
        String secret = container.at("/envFrom/0/secretRef/name").asText();
        assertEquals(statefulSet.at("/spec/template/spec/containers/0/envFrom/0/secretRef/name").asText(), secret);
        assertTrue(only(instances, "Secret", secret).at("/stringData/SEXTANT_QUERY_AUTH_TOKEN").isTextual(),
                "the Secret " + secret + " holds SEXTANT_QUERY_AUTH_TOKEN");
        assertTrue(container.path("env").findValues("SEXTANT_QUERY_AUTH_TOKEN").isEmpty());
        // admitted to the instances' API port
        JsonNode from = only(instances, "NetworkPolicy").at("/spec/ingress/0/from");
        boolean admitted = false;
        for (JsonNode peer : from) {
            admitted |= !peer.has("namespaceSelector")
                    && selects(peer.at("/podSelector/matchLabels"), job.at("/spec/template/metadata/labels"));
        }
        assertTrue(admitted, "the NetworkPolicy admits the Job's pod: " + from);
        assertEquals(job.at("/metadata/namespace").asText(), statefulSet.at("/metadata/namespace").asText());
    }

    /**
     * docs/failover.md ends with what to run on Kubernetes: every Job's kustomization with the commands to apply, wait
     * for and read it, and the warning against a second JVM in an instance's pod.
     */
    @Test
    void theFailoverPageSaysToRunTheJobsNeverExecIntoAnInstance() throws Exception {
        String page = Files.readString(DeployTools.ROOT.resolve("docs/failover.md"));
        int section = page.indexOf("\n## On Kubernetes\n");
        assertTrue(section > 0, "docs/failover.md has a section ## On Kubernetes");
        String kubernetes = page.substring(section);
        assertTrue(!kubernetes.substring(1).contains("\n## "), "## On Kubernetes is the page's last section");
        String flat = kubernetes.replaceAll("\\s+", " ");
        for (String expected : List.of("kubectl apply -k", "kubectl wait --for=condition=complete", "kubectl logs",
                "kubectl delete job", "never `kubectl exec", "MaxRAMPercentage=50", "840 MiB", "--apply")) {
            assertTrue(flat.contains(expected), expected + " in ## On Kubernetes");
        }
        for (List<String> jobs : JOBS.values()) {
            for (String job : jobs) {
                String path = "deploy/" + Path.of("kubernetes", job).normalize();
                assertTrue(flat.contains(path), path + " in ## On Kubernetes");
            }
        }
    }

    private static boolean selects(JsonNode selector, JsonNode labels) {
        if (selector.size() == 0) {
            return false;
        }
        boolean all = true;
        for (var entry : (Iterable<Map.Entry<String, JsonNode>>) selector::fields) {
            all &= entry.getValue().asText().equals(labels.path(entry.getKey()).asText(null));
        }
        return all;
    }

    /** {@code kubectl kustomize} of a directory under deploy/kubernetes, into a file. */
    private Path render(String kustomization) throws Exception {
        return DeployTools.kustomize(kustomization, temp);
    }
}
