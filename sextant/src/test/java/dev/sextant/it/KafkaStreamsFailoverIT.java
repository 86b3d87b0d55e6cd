package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.client.SextantClient;
import dev.sextant.client.SextantClientException;
import dev.sextant.testing.Cli;
import dev.sextant.testing.KafkaStreamsApp;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.LocalKafkaBroker;
import dev.sextant.testkit.LocalMirrorMaker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A Kafka Streams application fails over to the mirror, on the classic protocol and on the streams protocol
 * (KIP-1071): it runs on the source, stops, records keep arriving, and the same application started on the mirror
 * reads every record it had not processed, once, and nothing it had (0 lost, replay 0: each position is exact).
 *
 * <p>Sextant writes a streams group's offsets as an admin commit onto no group, which creates an empty classic group
 * that the application's first streams heartbeat converts, keeping the offsets; once the application runs there, its
 * live streams group is never written.
 */
@ExtendWith(LocalClustersExtension.class)
class KafkaStreamsFailoverIT {

    private static final int PARTITIONS = 2;
    private static final int PROCESSED = 300;
    private static final int MORE = 200;
    private static final Duration SYNCED = Duration.ofSeconds(90);
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aKafkaStreamsApplicationResumesOnTheMirrorOnEitherProtocolWithNothingLostOrReplayed(LocalClusters clusters)
            throws Exception {
        try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-kstreams",
                Map.of("groups.include", "kstreams-.*"))) {
            String url = "http://" + sextant.app().queryAddress();
            SextantClient client = SextantClient.builder(url).deadline(Duration.ofSeconds(10)).build();
            for (String protocol : List.of("classic", "streams")) {
                String app = "kstreams-" + protocol + "-app";
                String topic = "kstreams-" + protocol + "-orders";
                String mirrored = LocalMirrorMaker.mirroredTopic(topic);
                clusters.createTopic(clusters.source(), topic, PARTITIONS);
                Clients.produceNumbered(clusters.source(), topic, PARTITIONS, PROCESSED);

                // the application processes what is there, commits, and stops (leaving its group)
                try (KafkaStreamsApp onSource = new KafkaStreamsApp(clusters.source(), app, protocol, topic)) {
                    Await.until(SYNCED, app + " committed every record on the source", () ->
                            committedEverywhere(clusters, clusters.source(), app, topic, PROCESSED));
                    assertEquals(expected(0, PROCESSED), onSource.seen(), app + " on the source");
                }
                assertEquals(protocol.equals("streams") ? GroupType.STREAMS : GroupType.CLASSIC,
                        groupType(clusters, clusters.source(), app), app + "'s group on the source");
                Clients.produceNumberedFrom(clusters.source(), topic, PARTITIONS, PROCESSED, MORE); // not processed

                Await.until(SYNCED, app + " written exactly on the destination", () -> appliedExactly(client, app));
                String shownType = protocol.equals("streams") ? "streams" : "consumer";
                assertEquals(shownType, client.groups().stream().filter(g -> g.group().equals(app)).findFirst()
                        .orElseThrow().groupType(), "/v1/groups shows the group's type");
                assertEquals(shownType, failoverGroupType(clusters, url, app, false), "failover shows its type");
                assertEquals(shownType, failoverGroupType(clusters, url, app, true), "and so does --from-source");
                clusters.awaitMirrored(topic, SYNCED);

                // the same application on the mirror: every record it had not processed, once
                try (KafkaStreamsApp onMirror = new KafkaStreamsApp(clusters.destination(), app, protocol, mirrored)) {
                    Await.until(SYNCED, app + " read the mirror to its end",
                            () -> onMirror.readUpTo(PARTITIONS, PROCESSED + MORE));
                    assertEquals(expected(PROCESSED, MORE), onMirror.seen(), app + " on the mirror: 0 lost, replay 0");
                    if (protocol.equals("streams")) {
                        Await.until(SYNCED, "the destination group converted to a streams group", () ->
                                groupType(clusters, clusters.destination(), app) == GroupType.STREAMS);
                        aLiveStreamsGroupIsNeverWritten(clusters, client, app, topic, mirrored);
                    }
                }
                System.out.printf("Kafka Streams failover, %s protocol: %d records processed on the source, the %d "
                        + "after them read on the mirror, none twice%n", protocol, PARTITIONS * PROCESSED,
                        PARTITIONS * MORE);
            }
        }
    }

    /** A source commit while the application runs on the mirror: refused, the application's offsets stay. */
    private static void aLiveStreamsGroupIsNeverWritten(LocalClusters clusters, SextantClient client, String app,
                                                        String topic, String mirrored) throws Exception {
        Await.until(SYNCED, app + " committed its progress on the mirror", () ->
                committedEverywhere(clusters, clusters.destination(), app, mirrored, PROCESSED + MORE));
        try (Admin admin = clusters.admin(clusters.source())) {
            Map<TopicPartition, OffsetAndMetadata> back = new HashMap<>();
            IntStream.range(0, PARTITIONS).forEach(p -> back.put(new TopicPartition(topic, p),
                    new OffsetAndMetadata(PROCESSED + MORE / 2)));
            admin.alterConsumerGroupOffsets(app, back).all().get(10, TimeUnit.SECONDS);
        }
        Await.until(SYNCED, app + " refused as active on the destination", () -> {
            try {
                return client.group(app).partitions().stream().allMatch(p -> p.sourceOffset() == PROCESSED + MORE / 2
                        && "GROUP_ACTIVE".equals(p.status()));
            } catch (SextantClientException e) {
                return false;
            }
        });
        Clients.committed(clusters, clusters.destination(), app, mirrored).forEach((p, om) ->
                assertEquals(PROCESSED + MORE, om.offset(), "the live streams group keeps its own offset"));
    }

    private static boolean appliedExactly(SextantClient client, String group) {
        try {
            List<SextantClient.Partition> partitions = client.group(group).partitions();
            return partitions.size() == PARTITIONS && partitions.stream().allMatch(p -> "APPLIED".equals(p.status())
                    && p.sourceOffset() == PROCESSED && Long.valueOf(0).equals(p.bound())
                    && Long.valueOf(PROCESSED).equals(p.appliedOffset()));
        } catch (SextantClientException e) {
            return false;
        }
    }

    private static String failoverGroupType(LocalClusters clusters, String url, String group, boolean fromSource)
            throws Exception {
        Path config = Files.createTempFile("sextant-kstreams", ".properties");
        Files.writeString(config, "source.bootstrap.servers=" + clusters.source().bootstrapServers()
                + "\ndestination.bootstrap.servers=" + clusters.destination().bootstrapServers()
                + "\napplication.id=sextant-it-kstreams\n");
        if (fromSource) {
            Cli.Run dry = Cli.run("failover", "-c", config.toString(), "--from-source", "--group", group, "--json");
            assertEquals(0, dry.exit(), dry.toString());
            return JSON.readTree(dry.out()).get("groupType").asText();
        }
        Cli.Run dry = Cli.run("failover", "-c", config.toString(), "--url", url, "--group", group, "--json");
        assertEquals(0, dry.exit(), dry.toString());
        JsonNode result = JSON.readTree(dry.out()).get("results").get(0);
        return result.get("groupType").asText();
    }

    private static boolean committedEverywhere(LocalClusters clusters, LocalKafkaBroker cluster, String group,
                                               String topic, long offset) {
        Map<Integer, OffsetAndMetadata> committed = Clients.committed(clusters, cluster, group, topic);
        return committed.size() == PARTITIONS && committed.values().stream().allMatch(om -> om.offset() == offset);
    }

    private static GroupType groupType(LocalClusters clusters, LocalKafkaBroker cluster, String group) {
        try (Admin admin = clusters.admin(cluster)) {
            return admin.listGroups(new ListGroupsOptions()).all().get(10, TimeUnit.SECONDS).stream()
                    .filter(g -> g.groupId().equals(group)).findFirst().flatMap(GroupListing::type)
                    .orElse(GroupType.UNKNOWN);
        } catch (Exception e) {
            throw new IllegalStateException("cannot list the groups of " + cluster, e);
        }
    }

    /** Per partition, the values {@code first .. first+count-1}: what a consumer reading each record once sees. */
    private static Map<Integer, List<Integer>> expected(int first, int count) {
        Map<Integer, List<Integer>> out = new HashMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            out.put(p, IntStream.range(first, first + count).boxed().toList());
        }
        return out;
    }
}
