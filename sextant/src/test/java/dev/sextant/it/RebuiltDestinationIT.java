package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.testing.Cli;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.LocalKafkaBroker;
import dev.sextant.testkit.LocalMirrorMaker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A destination rebuilt under a running Sextant (issue 36, items 1 and 2): a fresh cluster at the same address,
 * mirrored again by a MirrorMaker 2 that lost its offsets with the old cluster, from a source whose log start moved
 * meanwhile. The new mirror holds the source's records 400 to 999 at offsets 0 to 599, so every offset written through
 * the old mirror's syncs would skip 400 records; MirrorMaker 2's new syncs have both offsets behind the old newest
 * one, the shape of a sync read again after a restart.
 *
 * <p>What must happen: nothing is written to the new cluster until an operator accepts it ({@code sextant rebaseline
 * --apply}); the old history is forgotten (the mirror topic has a new id); then the groups synced before are written
 * again through the new mirror's syncs, and a consumer resuming on the rebuilt destination reads every record from
 * its commit on. On the previous release nothing was written to the new cluster at all (the groups stayed
 * "applied"), and a lagging commit translated through the old syncs.
 *
 * <p>Brokers and MirrorMaker 2 of its own: the destination is replaced.
 */
@ExtendWith(LocalClustersExtension.class)
class RebuiltDestinationIT {

    private static final String TOPIC = "rebuilt-ledger";
    private static final String MIRROR = LocalMirrorMaker.mirroredTopic(TOPIC);
    private static final int RECORDS = 1_000;
    private static final long LOG_START = 400;
    private static final Duration SYNCED = Duration.ofSeconds(90);
    private static final LocalMirrorMaker.Options MIRRORING = LocalMirrorMaker.Options.builder().topics("rebuilt-.*")
            .groups("none").build();

    @Test
    void groupsSyncedBeforeAreWrittenThroughTheNewMirrorsSyncsAndNoRecordIsSkipped(LocalClusters clusters)
            throws Exception {
        try (LocalKafkaBroker source = LocalKafkaBroker.builder("rebuilt-source").start()) {
            clusters.createTopic(source, TOPIC, 1);
            Clients.produceNumbered(source, TOPIC, 1, RECORDS);
            LocalKafkaBroker destination = LocalKafkaBroker.builder("rebuilt-destination").start();
            LocalMirrorMaker mirrorMaker = mirror(source, destination);
            try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-rebuilt", Map.of(
                    "source.bootstrap.servers", source.bootstrapServers(),
                    "destination.bootstrap.servers", destination.bootstrapServers(),
                    "groups.include", "rebuilt-.*"))) {
                Clients.commit(source, "rebuilt-lag", TOPIC, Map.of(0, 600L));
                Clients.commit(source, "rebuilt-end", TOPIC, Map.of(0, (long) RECORDS));
                LocalKafkaBroker first = destination;
                Await.until(SYNCED, "both groups written exact on the first destination", () ->
                        Long.valueOf(600).equals(offset(first, "rebuilt-lag"))
                                && Long.valueOf(RECORDS).equals(offset(first, "rebuilt-end")));

                try (Admin admin = clusters.admin(source)) {
                    admin.deleteRecords(Map.of(new TopicPartition(TOPIC, 0), RecordsToDelete.beforeOffset(LOG_START)))
                            .all().get(30, TimeUnit.SECONDS);
                }
                int port = destination.port();
                mirrorMaker.close();
                destination.close();
                destination = LocalKafkaBroker.builder("rebuilt-destination-2").port(port).start();
                mirrorMaker = mirror(source, destination);
                LocalKafkaBroker rebuilt = destination;
                Await.until(SYNCED, "the source's records " + LOG_START + " to " + (RECORDS - 1) + " on the new mirror",
                        () -> clusters.endOffsets(rebuilt, MIRROR).getOrDefault(0, 0L) == RECORDS - LOG_START);

                // a cluster Sextant did not write to so far: nothing is written there until an operator accepts it
                Gauge changed = sextant.registry().find("sextant.destination.cluster.changed").gauge();
                Await.until(SYNCED, "the destination cluster change noticed", () -> changed.value() == 1);
                Cli.Run status = Cli.run("status", "--url", "http://" + sextant.app().queryAddress());
                assertTrue(status.out().startsWith("DEGRADED: the destination is cluster "), status.toString());
                Await.until(SYNCED, "MirrorMaker 2's sync of the last record on the new mirror", () ->
                        Clients.mirrorMakerSyncPairs(source, TOPIC, 0).stream().anyMatch(p -> p[0] == RECORDS - 1
                                && p[1] == RECORDS - LOG_START - 1));
                Await.until(SYNCED, "the old mirror's history forgotten", () -> {
                    Counter resets = sextant.registry().find("sextant.offset.sync.history.resets").counter();
                    return resets != null && resets.count() >= 1;
                });
                assertEquals(null, offset(rebuilt, "rebuilt-lag"), "nothing written to a cluster not accepted");
                Path config = Files.createTempFile("sextant-rebuilt", ".properties");
                Files.writeString(config, "source.bootstrap.servers=" + source.bootstrapServers()
                        + "\ndestination.bootstrap.servers=" + rebuilt.bootstrapServers()
                        + "\napplication.id=sextant-it-rebuilt\n");
                Cli.Run failover = Cli.run("failover", "-c", config.toString(), "--url",
                        "http://" + sextant.app().queryAddress(), "--group", "rebuilt-lag");
                assertEquals(1, failover.exit(), failover.toString());
                assertTrue(failover.err().contains("the Sextant instance reports DEGRADED: the destination is "
                        + "cluster "), "failover says so too: " + failover.err());
                // nor does a manual failover from the source's commits write there (it checks what the sync checks)
                Cli.Run manual = Cli.run("failover", "-c", config.toString(), "--from-source", "--group",
                        "rebuilt-lag", "--apply");
                assertEquals(1, manual.exit(), manual.toString());
                assertTrue(manual.err().contains("rebaseline --apply"), "names the way out: " + manual.err());
                assertEquals(null, offset(rebuilt, "rebuilt-lag"), "failover --from-source wrote nothing there");
                Cli.Run dry = Cli.run("rebaseline", "-c", config.toString());
                assertEquals(1, dry.exit(), "a dry run of a changed destination: " + dry);
                Cli.Run accepted = Cli.run("rebaseline", "-c", config.toString(), "--apply");
                assertEquals(0, accepted.exit(), accepted.toString());

                Await.until(SYNCED, "both groups written again on the rebuilt destination, through its own syncs", () ->
                        Long.valueOf(600 - LOG_START).equals(offset(rebuilt, "rebuilt-lag"))
                                && Long.valueOf(RECORDS - LOG_START).equals(offset(rebuilt, "rebuilt-end")));
                Map<Integer, List<Integer>> read = Clients.resumeAndReadToEnd(rebuilt, "rebuilt-lag", MIRROR,
                        Map.of(0, RECORDS - LOG_START));
                assertEquals(600, read.get(0).get(0), "resumes on its committed record: none skipped, none again");
                assertEquals(RECORDS - 600, read.get(0).size(), "and reads every record after it");
                assertEquals(0, changed.value(), "the rebuilt cluster accepted");
                System.out.printf("rebuilt destination: the groups synced before were written again through the new "
                        + "mirror's syncs (rebuilt-lag 600 -> %d, exact; rebuilt-end -> %d, the new end)%n",
                        600 - LOG_START, RECORDS - LOG_START);
            } finally {
                mirrorMaker.close();
                destination.close();
            }
        }
    }

    private static LocalMirrorMaker mirror(LocalKafkaBroker source, LocalKafkaBroker destination) {
        return LocalMirrorMaker.start(source.bootstrapServers(), destination.bootstrapServers(), MIRRORING, null);
    }

    /** The group's committed offset on the mirror partition, or null. */
    private static Long offset(LocalKafkaBroker cluster, String group) {
        Map<String, Object> config = cluster.clientProperties();
        try (Admin admin = Admin.create(config)) {
            OffsetAndMetadata om = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                    .get(10, TimeUnit.SECONDS).get(new TopicPartition(MIRROR, 0));
            return om == null ? null : om.offset();
        } catch (Exception e) {
            return null;
        }
    }
}
