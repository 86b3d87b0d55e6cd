package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.LocalKafkaBroker;
import dev.sextant.testkit.LocalMirrorMaker;
import io.micrometer.core.instrument.Counter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A chain of mirrors (issue 48, item 9): A to B and B to C, a MirrorMaker 2 flow and a Sextant each. The A-to-B
 * Sextant writes A's group on B with its mark; the B-to-C Sextant reads B's commits and must forward that write to C,
 * since its mark names cluster A, not C (only a write of the reverse direction, whose mark names this Sextant's
 * destination, is a loop). On the previous release every commit carrying any Sextant's mark was skipped: A's group
 * never reached C, while a group committed on B by its own consumer did.
 *
 * <p>Beside the chain, a reverse flow and Sextant B to A make A and B two-way: that Sextant reads the same write on B
 * and must leave it out, since its mark names A, its destination (sent back, A's group would move on the cluster its
 * offsets came from).
 *
 * <p>A and B are the shared clusters (their MirrorMaker 2 mirrors every topic); C, the B-to-C flow and the B-to-A flow
 * are this test's.
 */
@ExtendWith(LocalClustersExtension.class)
class ChainIT {

    private static final String TOPIC = "chain-orders";
    /** A's topic on B, under the default policy and aliases. */
    private static final String ON_B = LocalMirrorMaker.mirroredTopic(TOPIC);
    /** B's mirror of A's topic, mirrored again to C. */
    private static final String ON_C = LocalMirrorMaker.mirroredTopic(ON_B);
    private static final int RECORDS = 500;
    /** A consumer group on A, synced to B by the first Sextant and forwarded to C by the second. */
    private static final String FROM_A = "chain-a";
    /** A consumer group committed on B by its own consumer: synced to C by the second Sextant, before and after. */
    private static final String FROM_B = "chain-b";
    private static final Duration SYNCED = Duration.ofSeconds(60);

    @Test
    void aGroupOfTheFirstClusterReachesTheThird(LocalClusters clusters) throws Exception {
        LocalKafkaBroker a = clusters.source();
        LocalKafkaBroker b = clusters.destination();
        clusters.createTopic(a, TOPIC, 1);
        Clients.produceNumbered(a, TOPIC, 1, RECORDS);
        clusters.awaitMirrored(TOPIC, Map.of(0, (long) RECORDS), SYNCED);
        Await.until(SYNCED, "A to B's sync of the last record", () ->
                Clients.mirrorMakerSyncs(a, TOPIC, 0).contains((long) RECORDS - 1));
        Path stateDir = Files.createTempDirectory("sextant-it-chain");
        try (LocalKafkaBroker c = LocalKafkaBroker.builder("chain-c").heap("192m").start();
             LocalMirrorMaker bToC = LocalMirrorMaker.start(b.bootstrapServers(), c.bootstrapServers(),
                     LocalMirrorMaker.Options.builder().topics("source\\.chain-.*").groups("none").build(), null);
             LocalMirrorMaker bToA = LocalMirrorMaker.start(a.bootstrapServers(), b.bootstrapServers(),
                     LocalMirrorMaker.Options.builder().reverse(true).topics("chain-back-.*").groups("none").build(),
                     null)) {
            Await.until(SYNCED, "B's mirror of A's topic mirrored to C", () ->
                    clusters.endOffsets(c, ON_C).getOrDefault(0, 0L) == RECORDS);
            Await.until(SYNCED, "B to C's sync of the last record", () -> Clients.mirrorMakerSyncPairs(b,
                    "mm2-offset-syncs.destination.internal", ON_B, 0).stream().anyMatch(p -> p[0] == RECORDS - 1));
            Map<String, Object> second = new HashMap<>(SextantInstance.config(clusters, "sextant-it-chain-2", stateDir,
                    Map.of("groups.include", "chain-.*")));
            second.put("source.bootstrap.servers", b.bootstrapServers());
            second.put("destination.bootstrap.servers", c.bootstrapServers());
            Path backDir = Files.createTempDirectory("sextant-it-chain-back");
            Map<String, Object> reverse = new HashMap<>(SextantInstance.config(clusters, "sextant-it-chain-back",
                    backDir, Map.of("groups.include", "chain-.*")));
            reverse.put("source.bootstrap.servers", b.bootstrapServers());
            reverse.put("destination.bootstrap.servers", a.bootstrapServers());
            reverse.put("source.alias", LocalMirrorMaker.DESTINATION_ALIAS);
            reverse.put("destination.alias", LocalMirrorMaker.SOURCE_ALIAS);
            long started;
            try (SextantInstance first = SextantInstance.start(clusters, "sextant-it-chain-1",
                    Map.of("groups.include", "chain-.*"));
                 SextantInstance then = SextantInstance.start(second, stateDir);
                 SextantInstance back = SextantInstance.start(reverse, backDir)) {
                // before any write on B: the B-to-A Sextant tells the reverse writes by its destination's id
                Await.until(SYNCED, "the B-to-A Sextant read A's cluster id", () ->
                        back.app().destinationView().clusterId().isPresent());
                started = System.nanoTime();
                Clients.commit(a, FROM_A, TOPIC, Map.of(0, (long) RECORDS));
                Clients.commit(b, FROM_B, ON_B, Map.of(0, 300L));
                Await.until(SYNCED, FROM_A + " written on B by the first Sextant", () ->
                        offset(clusters, b, FROM_A, ON_B) == RECORDS);
                Await.until(SYNCED, FROM_B + " written on C by the second Sextant", () ->
                        offset(clusters, c, FROM_B, ON_C) >= 0);
                Await.until(SYNCED, FROM_A + " forwarded from B to C by the second Sextant", () ->
                        offset(clusters, c, FROM_A, ON_C) == RECORDS);
                long forwardedMs = (System.nanoTime() - started) / 1_000_000;
                OffsetAndMetadata onC = Clients.committed(clusters, c, FROM_A, ON_C).get(0);
                assertTrue(onC.metadata().startsWith("sextant/sextant-it-chain-2 c="), "C's offset is the second "
                        + "Sextant's write: " + onC.metadata());
                assertEquals(0, filtered(then, "sextant-mark"), "no write of the chain left out");
                // the same write on B, read by the reverse direction: left out, as its mark names A
                Await.until(SYNCED, "the B-to-A Sextant left the write of " + FROM_A + " on B out", () ->
                        filtered(back, "sextant-mark") >= 1);
                Map<Integer, OffsetAndMetadata> onA = Clients.committed(clusters, a, FROM_A, TOPIC);
                assertEquals(RECORDS, onA.get(0).offset(), "A's group on A as its consumer left it");
                assertTrue(onA.get(0).metadata().isEmpty(), "not written by a Sextant: " + onA.get(0).metadata());
                assertEquals(-1, offset(clusters, a, FROM_A, LocalMirrorMaker.DESTINATION_ALIAS + "." + ON_B),
                        "nothing went back to A on a mirror of a mirror");
                System.out.printf("chain: %s committed on A at %d, on C at %d (%s) %d ms after the commit on A%n",
                        FROM_A, RECORDS, onC.offset(), onC.metadata(), forwardedMs);
            }
        }
    }

    /** The group's committed offset on partition 0 of {@code topic}, -1 when none. */
    private static long offset(LocalClusters clusters, LocalKafkaBroker cluster, String group, String topic) {
        OffsetAndMetadata om = Clients.committed(clusters, cluster, group, topic).get(0);
        return om == null ? -1 : om.offset();
    }

    private static double filtered(SextantInstance sextant, String by) {
        Counter counter = sextant.registry().find("sextant.records.filtered").tag("by", by).counter();
        return counter == null ? 0 : counter.count();
    }
}
