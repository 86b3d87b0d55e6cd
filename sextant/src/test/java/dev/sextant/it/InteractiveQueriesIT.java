package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.OrdersTopic;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Three Sextant instances with one application.id share __consumer_offsets' three partitions: every instance answers
 * for every group exactly as the group's owner does, and while one instance stops the others answer either right or
 * 503 (never wrong), and right again once the rebalance is over.
 */
@ExtendWith(LocalClustersExtension.class)
class InteractiveQueriesIT {

    private static final String APP = "sextant-it-query";
    private static final Duration SETTLED = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private record Answer(int status, String body) {
    }

    private Answer get(SextantInstance instance, String pathAndQuery) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                            URI.create("http://" + instance.app().queryAddress() + pathAndQuery))
                    .timeout(Duration.ofSeconds(20)).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 503) {
                assertEquals("1", r.headers().firstValue("Retry-After").orElse(""), "503 carries Retry-After");
            }
            return new Answer(r.statusCode(), r.body());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String groupPath(String group) {
        return "/v1/groups/" + URLEncoder.encode(group, StandardCharsets.UTF_8);
    }

    /** Two groups in each partition of __consumer_offsets (3 partitions in the local clusters). */
    private static List<String> groupsOnEveryPartition() {
        Map<Integer, List<String>> byPartition = new TreeMap<>();
        for (int i = 0; byPartition.values().stream().mapToInt(List::size).sum() < 6; i++) {
            String group = "query-" + i;
            List<String> groups = byPartition.computeIfAbsent(Utils.abs(group.hashCode()) % 3, p -> new ArrayList<>());
            if (groups.size() < 2) {
                groups.add(group);
            }
        }
        List<String> out = new ArrayList<>();
        byPartition.values().forEach(out::addAll);
        return out;
    }

    private static Set<Integer> consumerOffsetsPartitions(SextantInstance instance) {
        Set<Integer> out = new TreeSet<>();
        if (instance.app().streams().state() == KafkaStreams.State.RUNNING) {
            instance.app().streams().metadataForLocalThreads().forEach(t -> t.activeTasks().forEach(task ->
                    task.topicPartitions().stream().filter(tp -> tp.topic().equals("__consumer_offsets"))
                            .forEach(tp -> out.add(tp.partition()))));
        }
        return out;
    }

    /** The first answer that is not a 503 (a rebalance may still follow the last start). */
    private Answer settled(SextantInstance instance, String pathAndQuery) {
        return Await.value(SETTLED, pathAndQuery + " from " + instance.app().queryAddress(), () -> {
            Answer a = get(instance, pathAndQuery);
            return a.status() == 503 ? null : a;
        });
    }

    @Test
    void everyInstanceAnswersAsTheOwnerAndStaysRightWhileOneStops(LocalClusters clusters) throws Exception {
        OrdersTopic.ensure(clusters);
        List<String> groups = groupsOnEveryPartition();
        Map<String, Object> overrides = Map.of("groups.include", "query-.*");
        List<SextantInstance> instances = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                instances.add(SextantInstance.start(clusters, APP, overrides));
            }
            Await.until(SETTLED, "the three instances share the partitions of __consumer_offsets", () -> {
                List<Set<Integer>> owned = instances.stream()
                        .map(InteractiveQueriesIT::consumerOffsetsPartitions).toList();
                Set<Integer> all = new TreeSet<>();
                owned.forEach(all::addAll);
                return all.equals(Set.of(0, 1, 2)) && owned.stream().filter(o -> !o.isEmpty()).count() >= 2;
            });

            Map<String, Map<Integer, Long>> committed = new LinkedHashMap<>();
            for (int i = 0; i < groups.size(); i++) {
                committed.put(groups.get(i), Map.of(0, 1_000L + i, 1, 2_000L + i, 2, 3_000L + i));
                Clients.commit(clusters.source(), groups.get(i), "orders", committed.get(groups.get(i)));
            }
            Await.until(SETTLED, "every group applied on the destination", () -> committed.entrySet().stream()
                    .allMatch(e -> synced(clusters, e.getKey(), e.getValue())));

            // The owner's answer, once every partition is APPLIED; then every instance must give the same one.
            Map<String, String> expected = new HashMap<>();
            for (String group : groups) {
                expected.put(group, ownersAnswer(instances, group, committed.get(group)));
            }
            assertEveryInstanceAnswersTheSame(instances, groups, expected);

            // Stop the owner of the first group: its partitions move to the survivors.
            SextantInstance stopped = ownerOf(instances, groups.get(0));
            stopped.close();
            instances.remove(stopped);
            Map<String, Integer> unavailable = new TreeMap<>();
            for (SextantInstance survivor : instances) {
                assertAnswersAgain(survivor, groups, expected, unavailable);
            }
            System.out.println("503 answers while the stopped instance's partitions moved, per group: " + unavailable);
        } finally {
            instances.forEach(SextantInstance::close);
        }
    }

    /** The group's detail as its owner gives it once every partition is APPLIED, checked against the commits. */
    private String ownersAnswer(List<SextantInstance> instances, String group, Map<Integer, Long> committed)
            throws IOException {
        SextantInstance owner = ownerOf(instances, group);
        String body = Await.value(SETTLED, group + " applied, as its owner says", () -> {
            Answer a = get(owner, groupPath(group));
            return a.status() == 200 && allApplied(a.body()) ? a.body() : null;
        });
        JsonNode detail = JSON.readTree(body);
        assertEquals(3, detail.get("partitions").size(), body);
        for (JsonNode p : detail.get("partitions")) {
            long source = committed.get(p.get("partition").asInt());
            assertEquals(source, p.get("sourceOffset").asLong());
            assertEquals("source.orders", p.get("destinationTopic").asText());
            long translated = p.get("translatedOffset").asLong();
            assertTrue(translated <= source && source - translated <= p.get("bound").asLong() + 1, body);
        }
        return body;
    }

    /** Groups, their offsets, the group list, a translation and the health: every instance answers as the owner. */
    private void assertEveryInstanceAnswersTheSame(List<SextantInstance> instances, List<String> groups,
                                                   Map<String, String> expected) throws IOException {
        for (String group : groups) {
            for (SextantInstance instance : instances) {
                Answer a = settled(instance, groupPath(group));
                assertEquals(new Answer(200, expected.get(group)), a,
                        group + " from " + instance.app().queryAddress());
                Answer offsets = settled(instance, groupPath(group) + "/offsets");
                assertEquals(200, offsets.status(), offsets.body());
                assertEquals(3, JSON.readTree(offsets.body()).get("offsets").size(), offsets.body());
            }
        }
        String all = settled(instances.get(0), "/v1/groups").body();
        for (SextantInstance instance : instances) {
            Answer a = settled(instance, "/v1/groups");
            assertEquals(new Answer(200, all), a, "/v1/groups from " + instance.app().queryAddress());
        }
        List<String> listed = new ArrayList<>();
        JSON.readTree(all).get("groups").forEach(g -> listed.add(g.get("group").asText()));
        assertEquals(groups.stream().sorted().toList(), listed);
        Answer translation = settled(instances.get(0), "/v1/translate?topic=orders&partition=0&offset=1000");
        assertEquals(200, translation.status(), translation.body());
        for (SextantInstance instance : instances) {
            assertEquals(translation, settled(instance, "/v1/translate?topic=orders&partition=0&offset=1000"));
            assertReady(instance);
        }
    }

    private void assertReady(SextantInstance instance) throws IOException {
        Answer ready = settled(instance, "/health/ready");
        assertEquals(200, ready.status(), ready.body());
        JsonNode health = JSON.readTree(ready.body());
        assertEquals("RUNNING", health.get("streamsState").asText());
        assertTrue(health.get("destination").get("ready").asBoolean(), ready.body());
        for (JsonNode missing : health.get("missingInputs")) {
            // only optional inputs may be missing: no share group ran on the source
            assertEquals("__share_group_state", missing.get("topic").asText(), ready.body());
            assertTrue(!missing.get("required").asBoolean(), ready.body());
        }
        assertEquals(200, get(instance, "/health/live").status());
    }

    /** While the stopped instance's partitions move, the survivor answers right or 503 (counted per group). */
    private void assertAnswersAgain(SextantInstance survivor, List<String> groups, Map<String, String> expected,
                                    Map<String, Integer> unavailable) throws IOException {
        for (String group : groups) {
            Await.until(SETTLED, group + " answered again by " + survivor.app().queryAddress(), () -> {
                Answer a = get(survivor, groupPath(group));
                if (a.status() == 503) {
                    unavailable.merge(group, 1, Integer::sum);
                    return false;
                }
                assertEquals(new Answer(200, expected.get(group)), a,
                        "while rebalancing, an answer is right or a 503: " + group);
                return true;
            });
        }
        Answer merged = Await.value(SETTLED, "all groups from " + survivor.app().queryAddress(), () -> {
            Answer a = get(survivor, "/v1/groups");
            assertTrue(a.status() == 200 || a.status() == 503, a.toString());
            return a.status() == 200 ? a : null;
        });
        List<String> names = new ArrayList<>();
        JSON.readTree(merged.body()).get("groups").forEach(g -> names.add(g.get("group").asText()));
        assertEquals(groups.stream().sorted().toList(), names);
    }

    private static boolean synced(LocalClusters clusters, String group, Map<Integer, Long> offsets) {
        Map<Integer, OffsetAndMetadata> there = Clients.committed(clusters, clusters.destination(), group,
                "source.orders");
        return there.size() == offsets.size() && offsets.entrySet().stream()
                .allMatch(e -> there.get(e.getKey()).metadata().endsWith("src=" + e.getValue()));
    }

    /**
     * Every partition applied at its translation. A translation beyond the mirror's end (the mirror had not copied
     * the committed record yet) is applied at the end first, APPLIED too, and written again once the mirror caught up:
     * an answer taken before that is not the one the instances give a moment later.
     */
    private static boolean allApplied(String body) {
        try {
            JsonNode partitions = JSON.readTree(body).get("partitions");
            for (JsonNode p : partitions) {
                if (!p.get("status").asText().equals("APPLIED")
                        || !p.path("appliedOffset").equals(p.path("translatedOffset"))) {
                    return false;
                }
            }
            return partitions.size() > 0;
        } catch (IOException e) {
            return false;
        }
    }

    private static SextantInstance ownerOf(List<SextantInstance> instances, String group) {
        return Await.value(SETTLED, "owner of " + group, () -> {
            var metadata = instances.get(0).app().streams().queryMetadataForKey("group-positions", group,
                    (topic, key, value, n) -> Optional.of(Set.of(Utils.abs(key.hashCode()) % n)));
            for (SextantInstance instance : instances) {
                if (metadata.activeHost().port() == instance.app().queryAddress().port()) {
                    return instance;
                }
            }
            return null;
        });
    }
}
