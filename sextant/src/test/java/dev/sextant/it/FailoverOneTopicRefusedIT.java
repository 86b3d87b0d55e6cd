package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.testing.Cli;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalKafkaBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code failover --from-source --apply} where the destination refuses one topic's offsets (issue 36, item 5): the
 * failover's principal may not Read that topic there, so the broker answers its partitions
 * {@code TOPIC_AUTHORIZATION_FAILED} and takes the other topic's. Both topics have partitions 0 and 1, so a report that
 * matched the answers by partition number alone would call the refused ones written with the other topic's offsets.
 * The command must say which partitions were not written, naming their topic, and exit 1; the written ones hold their
 * offsets.
 *
 * <p>Secured clusters of its own (SCRAM on the source, mutual TLS on the destination, a {@code StandardAuthorizer}):
 * the principal is allowed everything, and denied Read on one topic on the destination.
 */
class FailoverOneTopicRefusedIT {

    private static final String PRINCIPAL = "User:sextant";
    private static final String SCRAM_PASSWORD = "scram-Split-4242";
    private static final String WRITTEN = "split-orders";
    private static final String REFUSED = "split-payments";
    private static final String GROUP = "split-app";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    static LocalClusters clusters;

    @BeforeAll
    static void start() {
        clusters = LocalClusters.builder().secured().scramUser("sextant", SCRAM_PASSWORD).withoutMirrorMaker()
                .start();
    }

    @AfterAll
    static void stop() {
        if (clusters != null) {
            clusters.close();
        }
    }

    @Test
    void theRefusedTopicsPartitionsAreReportedNotWrittenAndTheCommandFails() throws Exception {
        for (String topic : List.of(WRITTEN, REFUSED)) {
            for (LocalKafkaBroker cluster : List.of(clusters.source(), clusters.destination())) {
                clusters.createTopic(cluster, topic, 2);
                Clients.produceNumbered(cluster, topic, 2, 100); // an offset-preserving mirror: the same offsets
            }
        }
        Map<TopicPartition, Long> committed = Map.of(new TopicPartition(WRITTEN, 0), 40L,
                new TopicPartition(WRITTEN, 1), 50L, new TopicPartition(REFUSED, 0), 60L,
                new TopicPartition(REFUSED, 1), 70L);
        Clients.commit(clusters.source(), GROUP, WRITTEN, Map.of(0, 40L, 1, 50L));
        Clients.commit(clusters.source(), GROUP, REFUSED, Map.of(0, 60L, 1, 70L));
        allowEverything(clusters.source());
        allowEverything(clusters.destination());
        deny(clusters.destination(), AclOperation.READ, REFUSED);

        Cli.Run run = Cli.run("failover", "-c", config().toString(), "--from-source", "--group", GROUP, "--apply",
                "--json");

        assertEquals(1, run.exit(), "not every partition written: " + run);
        Map<TopicPartition, Long> there = destinationOffsets();
        assertEquals(Map.of(new TopicPartition(WRITTEN, 0), 40L, new TopicPartition(WRITTEN, 1), 50L), there,
                "the allowed topic's partitions written, the refused topic's not");
        JsonNode report = JSON.readTree(run.out());
        assertEquals("FAILED", report.get("result").asText(), run.out());
        String message = report.get("message").asText();
        assertTrue(message.contains(REFUSED + "-0") && message.contains(REFUSED + "-1"), "names the refused "
                + "partitions with their topic: " + message);
        assertFalse(message.contains(WRITTEN + "-0") || message.contains(WRITTEN + "-1"), "and only those: "
                + message);
        for (JsonNode row : report.get("partitions")) {
            boolean written = row.get("topic").asText().equals(WRITTEN);
            assertEquals(written, "APPLIED".equals(row.get("status").asText()), "each row as the destination "
                    + "answered it: " + row);
        }
        System.out.printf("failover --apply with one topic refused: %s written (%s), %s reported not written, exit "
                + "%d; committed on the source %s%n", WRITTEN, there, REFUSED, run.exit(), committed);
    }

    private static void allowEverything(LocalKafkaBroker cluster) throws Exception {
        change(cluster, List.of(
                binding(ResourceType.TOPIC, "*", AclOperation.ALL, AclPermissionType.ALLOW),
                binding(ResourceType.GROUP, "*", AclOperation.ALL, AclPermissionType.ALLOW),
                binding(ResourceType.CLUSTER, "kafka-cluster", AclOperation.ALL, AclPermissionType.ALLOW)));
    }

    private static void deny(LocalKafkaBroker cluster, AclOperation operation, String topic) throws Exception {
        change(cluster, List.of(binding(ResourceType.TOPIC, topic, operation, AclPermissionType.DENY)));
    }

    private static AclBinding binding(ResourceType type, String name, AclOperation operation,
                                      AclPermissionType permission) {
        return new AclBinding(new ResourcePattern(type, name, PatternType.LITERAL),
                new AccessControlEntry(PRINCIPAL, "*", operation, permission));
    }

    private static void change(LocalKafkaBroker cluster, List<AclBinding> bindings) throws Exception {
        try (Admin admin = clusters.admin(cluster)) {
            admin.createAcls(bindings).all().get(30, TimeUnit.SECONDS);
            Await.until(Duration.ofSeconds(60), "granted " + bindings, () -> {
                try {
                    return admin.describeAcls(AclBindingFilter.ANY).values().get(10, TimeUnit.SECONDS)
                            .containsAll(bindings);
                } catch (Exception e) {
                    return false;
                }
            });
        }
    }

    /** The group's offsets on the destination, read as the admin. */
    private static Map<TopicPartition, Long> destinationOffsets() throws Exception {
        try (Admin admin = clusters.admin(clusters.destination())) {
            Map<TopicPartition, Long> out = new HashMap<>();
            admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS)
                    .forEach((tp, om) -> {
                        if (om != null) {
                            out.put(tp, om.offset());
                        }
                    });
            return out;
        }
    }

    /** The failover's settings: the principal on both clusters, an offset-preserving mirror. */
    private static Path config() throws IOException {
        Map<String, String> c = new LinkedHashMap<>();
        clusters.source().clientProperties("sextant").forEach((k, v) -> c.put("source." + k, v.toString()));
        clusters.destination().clientProperties("sextant").forEach((k, v) -> c.put("destination." + k,
                v.toString()));
        c.put("application.id", "sextant-it-split");
        c.put("translation", "identity");
        c.put("replication.policy", "identity");
        Properties properties = new Properties();
        properties.putAll(c);
        Path file = dir.resolve("split.properties");
        try (var writer = Files.newBufferedWriter(file)) {
            properties.store(writer, null);
        }
        return file;
    }
}
