package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A consumer group rolled from the classic protocol to {@code group.protocol=consumer} one member at a time (the
 * broker migrates the group online: it writes the new type's records and tombstones the old type's, the offsets
 * stay), and rolled back again. Through every step the group keeps committing; Sextant keeps every partition's
 * position and syncs each new commit.
 */
@ExtendWith(LocalClustersExtension.class)
class ProtocolMigrationIT {

    private static final String TOPIC = "migrate-ledger";
    private static final String GROUP = "migrate-app";
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
    private static final TopicPartition P1 = new TopicPartition(TOPIC, 1);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aGroupRolledToTheConsumerProtocolAndBackKeepsItsPositions(LocalClusters clusters) throws Exception {
        clusters.createTopic(clusters.source(), TOPIC, 2);
        clusters.createTopic(clusters.destination(), TOPIC, 2);
        Clients.produceNumbered(clusters.source(), TOPIC, 2, 200);
        Clients.produceNumbered(clusters.destination(), TOPIC, 2, 200);
        Map<TopicPartition, Long> targets = new ConcurrentHashMap<>();
        try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-migration", Map.of(
                "translation", "identity", "replication.policy", "identity", "groups.include", "migrate-.*"))) {
            Member first = new Member(clusters, "classic", targets);
            Member second = new Member(clusters, "classic", targets);
            step(clusters, sextant, targets, 10, 20, GroupType.CLASSIC, "two classic members");

            second.close();
            second = new Member(clusters, "consumer", targets); // the group becomes a consumer group, online
            step(clusters, sextant, targets, 30, 40, GroupType.CONSUMER, "one classic, one consumer-protocol member");

            first.close();
            first = new Member(clusters, "consumer", targets);
            step(clusters, sextant, targets, 50, 60, GroupType.CONSUMER, "two consumer-protocol members");

            first.close();
            first = new Member(clusters, "classic", targets);
            second.close();
            second = new Member(clusters, "classic", targets); // the last one leaves: back to a classic group
            step(clusters, sextant, targets, 70, 80, GroupType.CLASSIC, "rolled back to two classic members");
            first.close();
            second.close();
        }
    }

    /** The members commit {@code p0} and {@code p1}; both arrive, and Sextant still knows both partitions. */
    private static void step(LocalClusters clusters, SextantInstance sextant, Map<TopicPartition, Long> targets,
                             long p0, long p1, GroupType protocol, String what) throws Exception {
        targets.put(P0, p0);
        targets.put(P1, p1);
        Map<Integer, Long> expected = Map.of(0, p0, 1, p1);
        Map<Integer, Long> seen = new HashMap<>();
        Await.until(Duration.ofSeconds(90), what + ": " + expected + " on the destination (seen " + seen + ")", () -> {
            seen.clear();
            Clients.committed(clusters, clusters.destination(), GROUP, TOPIC)
                    .forEach((p, om) -> seen.put(p, om.offset()));
            return seen.equals(expected);
        });
        // the destination answers first; Sextant settles the write at its next flush
        JsonNode[] group = {null};
        Await.until(Duration.ofSeconds(30), what + ": Sextant keeps both partitions, applied", () -> {
            group[0] = detail(sextant);
            Map<Integer, Long> applied = new HashMap<>();
            group[0].path("partitions").forEach(p -> {
                if (p.path("status").asText().equals("APPLIED")) {
                    applied.put(p.path("partition").asInt(), p.path("sourceOffset").asLong());
                }
            });
            return applied.equals(expected) && group[0].path("partitions").size() == 2;
        });
        assertEquals("consumer", group[0].path("groupType").asText(), "a consumer group whatever its protocol");
        try (Admin admin = clusters.admin(clusters.source())) {
            // the broker converts the group when the member joins, which can trail the commits applied above
            GroupType[] onSource = new GroupType[1];
            try {
                Await.until(Duration.ofSeconds(15), what + ": the broker migrated the group", () -> {
                    try {
                        onSource[0] = admin.listGroups().all().get(10, TimeUnit.SECONDS).stream()
                                .filter(g -> g.groupId().equals(GROUP)).findFirst().orElseThrow().type().orElseThrow();
                    } catch (Exception e) {
                        return false; // asked again until the deadline
                    }
                    return onSource[0] == protocol;
                });
            } catch (AssertionError e) {
                assertEquals(protocol, onSource[0], what + ": the broker migrated the group");
            }
        }
    }

    private static JsonNode detail(SextantInstance sextant) {
        try {
            return JSON.readTree(get(sextant, "/v1/groups/" + GROUP));
        } catch (Exception e) {
            throw new IllegalStateException("GET /v1/groups/" + GROUP, e);
        }
    }

    private static String get(SextantInstance sextant, String path) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                        URI.create("http://" + sextant.app().queryAddress() + path))
                        .timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), path + ": " + response.body());
        return response.body();
    }

    /**
     * A group member on its own thread: polls, and commits for the partitions it is assigned the offsets the test
     * asks for. A commit that meets a rebalance is tried again at the next poll.
     */
    private static final class Member implements AutoCloseable {

        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        Member(LocalClusters clusters, String protocol, Map<TopicPartition, Long> targets) {
            Map<String, Object> props = new HashMap<>(clusters.source().clientProperties());
            props.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP);
            props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, protocol);
            props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
            props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            thread = new Thread(() -> {
                Map<TopicPartition, Long> committed = new HashMap<>();
                try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                        new StringDeserializer())) {
                    consumer.subscribe(List.of(TOPIC));
                    while (running.get()) {
                        consumer.poll(Duration.ofMillis(100));
                        Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
                        for (TopicPartition tp : consumer.assignment()) {
                            Long target = targets.get(tp);
                            if (target != null && !target.equals(committed.get(tp))) {
                                commit.put(tp, new OffsetAndMetadata(target));
                            }
                        }
                        if (!commit.isEmpty()) {
                            try {
                                consumer.commitSync(commit, Duration.ofSeconds(10));
                                commit.forEach((tp, om) -> committed.put(tp, om.offset()));
                            } catch (KafkaException e) {
                                // a rebalance in the way: the next poll tries again
                            }
                        }
                    }
                }
            }, "member-" + protocol);
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join(30_000);
        }
    }
}
