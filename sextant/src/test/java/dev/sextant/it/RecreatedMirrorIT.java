package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.client.SextantClient;
import dev.sextant.client.SextantClientException;
import dev.sextant.domain.Reason;
import dev.sextant.testing.Cli;
import dev.sextant.testing.DeadLetters;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.LocalMirrorMaker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A mirror topic deleted and created again under a running Sextant after a position was applied through it (issue
 * 36, item 2): MirrorMaker 2 goes on from where it stood, so the new mirror holds the source's records 1,000 on at
 * offsets 0 on. The offset Sextant wrote (600, through the old mirror's syncs) is gone with the old topic; written
 * again through the old translation it would point at the new mirror's record 600, the source's 1,600: 1,000 records
 * skipped. What must happen: the old history is forgotten ({@code MIRROR_RESEEDED}), nothing serves the old
 * translation (not {@code /v1/groups/G/offsets}, not {@code failover}, which reports the group not clean), and the
 * group's next commit is written through the new mirror's syncs.
 */
@ExtendWith(LocalClustersExtension.class)
class RecreatedMirrorIT {

    private static final String TOPIC = "recreated-ledger";
    private static final String MIRROR = LocalMirrorMaker.mirroredTopic(TOPIC);
    private static final String GROUP = "recreated-app";
    private static final Duration SYNCED = Duration.ofSeconds(90);

    @Test
    void positionsWrittenThroughAForgottenMirrorAreNeitherServedNorWrittenAgain(LocalClusters clusters)
            throws Exception {
        clusters.createTopic(clusters.source(), TOPIC, 1);
        Clients.produceNumbered(clusters.source(), TOPIC, 1, 1_000);
        clusters.awaitMirrored(TOPIC, SYNCED);
        try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-recreated",
                Map.of("groups.include", "recreated-.*"))) {
            String url = "http://" + sextant.app().queryAddress();
            SextantClient client = SextantClient.create(url);
            Clients.commit(clusters.source(), GROUP, TOPIC, Map.of(0, 600L));
            Await.until(SYNCED, GROUP + " written through the first mirror", () -> Long.valueOf(600).equals(
                    offset(clusters)));
            assertEquals(Map.of(new TopicPartition(MIRROR, 0), 600L), client.offsets(GROUP));

            // the mirror deleted and created again; MirrorMaker 2 goes on from the source's offset 1,000
            try (Admin admin = clusters.admin(clusters.destination())) {
                admin.deleteTopics(List.of(MIRROR)).all().get(30, TimeUnit.SECONDS);
                Await.until(SYNCED, "the mirror deleted", () -> !topics(admin).contains(MIRROR));
            }
            clusters.createTopic(clusters.destination(), MIRROR, 1);
            Clients.produceNumberedFrom(clusters.source(), TOPIC, 1, 1_000, 200);
            Await.until(SYNCED, "the source's records 1,000 to 1,199 on the new mirror", () ->
                    clusters.endOffsets(clusters.destination(), MIRROR).getOrDefault(0, 0L) >= 200);
            DeadLetters.await(clusters, r -> r.reason() == Reason.MIRROR_RESEEDED && r.detail().contains(TOPIC),
                    "MIRROR_RESEEDED for " + TOPIC, SYNCED);

            // nothing serves the old translation: the commit at 600 has no sync of the new mirror under it
            Await.until(SYNCED, GROUP + " planned again: untranslatable", () -> "UNTRANSLATABLE".equals(
                    status(client)));
            Map<TopicPartition, Long> served = client.offsets(GROUP);
            assertFalse(Long.valueOf(600).equals(served.get(new TopicPartition(MIRROR, 0))),
                    "the old mirror's translation is not served: " + served);
            assertEquals(null, offset(clusters), "nor written again (the offset went with the old topic)");
            Path config = Files.createTempFile("sextant-recreated", ".properties");
            Files.writeString(config, "source.bootstrap.servers=" + clusters.source().bootstrapServers()
                    + "\ndestination.bootstrap.servers=" + clusters.destination().bootstrapServers()
                    + "\napplication.id=sextant-it-recreated\n");
            Cli.Run failover = Cli.run("failover", "-c", config.toString(), "--url", url, "--group", GROUP);
            assertEquals(1, failover.exit(), "the group is not clean: " + failover);

            // the next commit translates through the new mirror's syncs
            Clients.commit(clusters.source(), GROUP, TOPIC, Map.of(0, 1_100L));
            Await.until(SYNCED, GROUP + " written through the new mirror", () -> {
                Long there = offset(clusters);
                return there != null && there <= 100 && there >= 0 && "APPLIED".equals(status(client));
            });
            long written = offset(clusters);
            Map<Integer, List<Integer>> read = Clients.resumeAndReadToEnd(clusters.destination(), GROUP, MIRROR,
                    Map.of(0, clusters.endOffsets(clusters.destination(), MIRROR).get(0)));
            assertTrue(read.get(0).get(0) <= 1_100, "resumes at or before its commit: " + read.get(0).get(0));
            assertTrue(read.get(0).contains(1_100) && read.get(0).contains(1_199), "and reads on to the end");
            System.out.printf("recreated mirror: 600 (through the old mirror) neither served nor written again; "
                    + "the next commit 1,100 written at %d on the new mirror%n", written);
        }
    }

    private static Set<String> topics(Admin admin) {
        try {
            return admin.listTopics().names().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            return Set.of(MIRROR); // not known yet: asked again
        }
    }

    private static String status(SextantClient client) {
        try {
            return client.group(GROUP).partitions().get(0).status();
        } catch (SextantClientException | IndexOutOfBoundsException e) {
            return "";
        }
    }

    /** The group's committed offset on the mirror partition, or null. */
    private static Long offset(LocalClusters clusters) {
        try (Admin admin = clusters.admin(clusters.destination())) {
            OffsetAndMetadata om = admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata()
                    .get(10, TimeUnit.SECONDS).get(new TopicPartition(MIRROR, 0));
            return om == null ? null : om.offset();
        } catch (Exception e) {
            return null;
        }
    }
}
