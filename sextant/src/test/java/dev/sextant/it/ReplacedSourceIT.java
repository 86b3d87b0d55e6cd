package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.client.SextantClient;
import dev.sextant.client.SextantClientException;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.Reason;
import dev.sextant.testing.Cli;
import dev.sextant.testing.DeadLetters;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.LocalKafkaBroker;
import dev.sextant.testkit.LocalMirrorMaker;
import io.micrometer.core.instrument.Gauge;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A source cluster replaced by a fresh one at the same address (issue 36, item 1): its {@code __consumer_offsets}
 * starts again at 0, so a new commit ranks below the marks Sextant wrote from the old cluster. On the previous release
 * every new commit was {@code SUPERSEDED} ("in sync") and never written. Now each mark names its source cluster
 * ({@code c=}); a group whose destination offsets came from another cluster is refused ({@code SOURCE_CHANGED} dead
 * letter, gauge, readiness detail) until an operator runs {@code sextant rebaseline --source --apply}, and then the
 * new source's commit is written.
 *
 * <p>Brokers and MirrorMaker 2 of its own: the source is replaced. MirrorMaker 2 keeps its progress on the
 * destination, so after the replacement it goes on from offset 1,000 of the new source's topic, into the same mirror.
 */
@ExtendWith(LocalClustersExtension.class)
class ReplacedSourceIT {

    private static final String TOPIC = "replaced-ledger";
    private static final String MIRROR = LocalMirrorMaker.mirroredTopic(TOPIC);
    private static final String GROUP = "replaced-app";
    private static final String APP = "sextant-it-replaced";
    private static final Duration SYNCED = Duration.ofSeconds(90);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final LocalMirrorMaker.Options MIRRORING = LocalMirrorMaker.Options.builder().topics("replaced-.*")
            .groups("none").build();

    @Test
    void aReplacedSourcesCommitsAreRefusedLoudlyUntilRebaselinedThenWritten(LocalClusters clusters) throws Exception {
        LocalKafkaBroker destination = LocalKafkaBroker.builder("replaced-destination").start();
        LocalKafkaBroker source = LocalKafkaBroker.builder("replaced-source").start();
        LocalMirrorMaker mirrorMaker = null;
        try {
            clusters.createTopic(source, TOPIC, 1);
            Clients.produceNumbered(source, TOPIC, 1, 1_000);
            mirrorMaker = mirror(source, destination);
            String oldCluster;
            try (SextantInstance sextant = start(clusters, source, destination)) {
                // many commits: the old cluster's __consumer_offsets is far ahead of the new one's
                commitRepeatedly(source, 200, 600);
                Await.until(SYNCED, GROUP + " written from the old source", () -> Long.valueOf(600)
                        .equals(offset(destination)));
                oldCluster = clusterId(clusters, source);
                String mark = metadata(destination);
                assertTrue(mark.contains(" c=" + oldCluster + " "), "the mark names its source cluster: " + mark);
            }

            int port = source.port();
            mirrorMaker.close();
            source.close();
            source = LocalKafkaBroker.builder("replaced-source-2").port(port).start();
            clusters.createTopic(source, TOPIC, 1);
            Clients.produceNumbered(source, TOPIC, 1, 1_500);
            mirrorMaker = mirror(source, destination);
            LocalKafkaBroker replaced = source;
            Await.until(SYNCED, "the new source's records 1,000 to 1,499 on the mirror",
                    () -> clusters.endOffsets(destination, MIRROR).getOrDefault(0, 0L) == 1_500);
            Await.until(SYNCED, "MirrorMaker 2's sync of the new source's last record", () ->
                    Clients.mirrorMakerSyncs(replaced, TOPIC, 0).contains(1_499L));
            String newCluster = clusterId(clusters, replaced);
            assertNotEquals(oldCluster, newCluster, "a new cluster at the same address");

            try (SextantInstance sextant = start(clusters, replaced, destination)) {
                Clients.commit(replaced, GROUP, TOPIC, Map.of(0, 1_200L));
                SextantClient client = SextantClient.create("http://" + sextant.app().queryAddress());
                Await.until(SYNCED, GROUP + " refused as SOURCE_CHANGED", () -> status(client).equals(
                        "SOURCE_CHANGED"));
                Gauge changed = sextant.registry().find("sextant.source.cluster.changed").gauge();
                assertEquals(1.0, changed.value(), "the gauge");
                Cli.Run status = Cli.run("status", "--url", "http://" + sextant.app().queryAddress());
                assertTrue(status.out().startsWith("DEGRADED: destination offsets were written from source cluster "
                        + oldCluster), status.toString());
                DeadLetterRecord letter = DeadLetters.await(replaced, GROUP, Reason.SOURCE_CHANGED, SYNCED);
                assertTrue(letter.detail().contains(oldCluster), letter.detail());
                assertEquals(600L, offset(destination), "nothing written over the old source's marks");

                Path config = Files.createTempFile("sextant-replaced", ".properties");
                Files.writeString(config, "source.bootstrap.servers=" + replaced.bootstrapServers()
                        + "\ndestination.bootstrap.servers=" + destination.bootstrapServers()
                        + "\napplication.id=" + APP + "\n");
                Cli.Run failover = Cli.run("failover", "-c", config.toString(), "--url",
                        "http://" + sextant.app().queryAddress(), "--group", GROUP);
                assertEquals(1, failover.exit(), failover.toString());
                assertTrue(failover.out().contains("written from another source cluster"), failover.out());
                assertTrue(failover.err().contains("the Sextant instance reports DEGRADED: destination offsets were "
                        + "written from source cluster " + oldCluster), failover.err());
                Cli.Run dry = Cli.run("rebaseline", "-c", config.toString(), "--source", "--json");
                assertEquals(1, dry.exit(), "a dry run with marks of another source: " + dry);
                JsonNode found = JSON.readTree(dry.out()).get("groups").get(0);
                assertEquals(GROUP, found.get("group").asText(), dry.out());
                assertEquals(oldCluster, found.get("clusters").get(0).asText(), dry.out());
                assertEquals(600L, offset(destination), "a dry run writes nothing");
                Cli.Run released = Cli.run("rebaseline", "-c", config.toString(), "--source", "--apply");
                assertEquals(0, released.exit(), released.toString());

                Await.until(SYNCED, GROUP + " written from the new source", () -> {
                    Long there = offset(destination);
                    return there != null && there > 600 && metadata(destination).contains(" c=" + newCluster + " ");
                });
                long written = offset(destination);
                assertTrue(written >= 1_000 && written <= 1_200, "the new source's commit 1,200, never past it: "
                        + written);
                System.out.printf("replaced source: %s refused as SOURCE_CHANGED until 'rebaseline --source "
                        + "--apply', then written at %d (the new source's commit 1,200)%n", GROUP, written);
            }
        } finally {
            if (mirrorMaker != null) {
                mirrorMaker.close();
            }
            source.close();
            destination.close();
        }
    }

    private static SextantInstance start(LocalClusters clusters, LocalKafkaBroker source,
                                         LocalKafkaBroker destination) {
        return SextantInstance.start(clusters, APP, Map.of("source.bootstrap.servers", source.bootstrapServers(),
                "destination.bootstrap.servers", destination.bootstrapServers(), "groups.include", "replaced-.*"));
    }

    private static LocalMirrorMaker mirror(LocalKafkaBroker source, LocalKafkaBroker destination) {
        return LocalMirrorMaker.start(source.bootstrapServers(), destination.bootstrapServers(), MIRRORING, null);
    }

    /** {@code times} commits of the group, the last at {@code last}: each one record in __consumer_offsets. */
    private static void commitRepeatedly(LocalKafkaBroker cluster, int times, long last) {
        Map<String, Object> props = new HashMap<>(cluster.clientProperties());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        TopicPartition tp = new TopicPartition(TOPIC, 0);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            for (int i = 0; i < times; i++) {
                consumer.commitSync(Map.of(tp, new OffsetAndMetadata(last - times + 1 + i)));
            }
        }
    }

    private static String status(SextantClient client) {
        try {
            return client.group(GROUP).partitions().get(0).status();
        } catch (SextantClientException | IndexOutOfBoundsException e) {
            return "";
        }
    }

    private static String clusterId(LocalClusters clusters, LocalKafkaBroker cluster) throws Exception {
        try (Admin admin = clusters.admin(cluster)) {
            return admin.describeCluster().clusterId().get(10, TimeUnit.SECONDS);
        }
    }

    /** The group's committed offset on the mirror partition, or null. */
    private static Long offset(LocalKafkaBroker cluster) {
        OffsetAndMetadata om = committed(cluster);
        return om == null ? null : om.offset();
    }

    private static String metadata(LocalKafkaBroker cluster) {
        OffsetAndMetadata om = committed(cluster);
        return om == null ? "" : om.metadata();
    }

    private static OffsetAndMetadata committed(LocalKafkaBroker cluster) {
        try (Admin admin = Admin.create(cluster.clientProperties())) {
            return admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS)
                    .get(new TopicPartition(MIRROR, 0));
        } catch (Exception e) {
            return null;
        }
    }
}
