package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.testing.BackwardsSampler;
import dev.sextant.testing.GroupCommitter;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.LocalKafkaBroker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The source broker is restarted twice (a controlled shutdown and a start on the same data, as in a rolling restart)
 * while 300 groups keep committing: every partition of {@code __consumer_offsets} changes leader epoch and its
 * coordinator reloads, Sextant's consumers, producer and Admin clients lose their connections. Sextant keeps running,
 * no destination offset moves backwards, and every group's last commit reaches the destination.
 *
 * <p>The source is a one-node cluster of its own, so the restart touches nothing the other tests share; with one node,
 * a restart is the leader change there is (a leader moving to another broker of a larger cluster is not tested
 * here). Identity translation on a topic of the same name on both clusters keeps MirrorMaker 2 out of it.
 */
@ExtendWith(LocalClustersExtension.class)
class SourceRestartIT {

    private static final String TOPIC = "restart-ledger";
    private static final int PARTITIONS = 3;
    private static final int GROUPS = 300;
    private static final int RECORDS = 2_000;

    @Test
    void sourceBrokerRestartsUnderLoadLoseNothingAndMoveNothingBackwards(LocalClusters clusters) throws Exception {
        try (LocalKafkaBroker source = LocalKafkaBroker.builder("restart-source").start()) {
            restarts(clusters, source);
        }
    }

    private void restarts(LocalClusters clusters, LocalKafkaBroker source) throws Exception {
        clusters.createTopic(source, TOPIC, PARTITIONS);
        clusters.createTopic(clusters.destination(), TOPIC, PARTITIONS);
        Clients.produceNumbered(source, TOPIC, PARTITIONS, RECORDS);
        Clients.produceNumbered(clusters.destination(), TOPIC, PARTITIONS, RECORDS); // the offset-preserving mirror
        List<Long> downMs = new ArrayList<>();
        try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-source-restart", Map.of(
                "source.bootstrap.servers", source.bootstrapServers(),
                "translation", "identity", "replication.policy", "identity", "groups.include", "restart-.*"));
             Admin sourceAdmin = clusters.admin(source);
             Admin destination = clusters.admin(clusters.destination());
             GroupCommitter committer = new GroupCommitter(sourceAdmin, "restart-", TOPIC, PARTITIONS, GROUPS,
                     RECORDS);
             BackwardsSampler sampler = new BackwardsSampler(committer, destination)) {
            Await.until(Duration.ofSeconds(120), "every group synced once", () ->
                    committer.offsetsOn(destination).size() == GROUPS);
            for (int restart = 1; restart <= 2; restart++) {
                long moves = sampler.forwardMoves();
                downMs.add(source.restart().toMillis());
                Await.until(Duration.ofSeconds(90), "writing again after restart " + restart,
                        () -> sampler.forwardMoves() - moves >= GROUPS);
            }
            Map<String, Long> expected = committer.stop();
            long stoppedAt = System.nanoTime();
            Await.until(Duration.ofSeconds(60), "every group's last commit on the destination", () -> {
                Map<String, Long> there = committer.offsetsOn(destination);
                return expected.entrySet().stream().allMatch(e -> e.getValue().equals(there.get(e.getKey())));
            });
            long caughtUpMs = (System.nanoTime() - stoppedAt) / 1_000_000;
            assertEquals(KafkaStreams.State.RUNNING, sextant.app().streams().state());
            System.out.printf("source restarts: broker down %s ms each; every last commit of %d groups on the "
                            + "destination %d ms after the commits stopped; backwards moves seen: %d%n", downMs,
                    GROUPS, caughtUpMs, sampler.backwards().size());
            assertTrue(sampler.backwards().isEmpty(), "moved backwards: " + sampler.backwards());
        }
    }
}
