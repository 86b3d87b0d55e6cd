package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.client.SextantClient;
import dev.sextant.client.SextantClientException;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.Reason;
import dev.sextant.state.OffsetSyncKeys;
import dev.sextant.testing.Cli;
import dev.sextant.testing.DeadLetters;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.LocalKafkaBroker;
import dev.sextant.testkit.LocalMirrorMaker;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A mirror topic created again while Sextant was stopped (issue 48, item 10): the running sync would see its new id
 * and forget the old mirror's syncs, but with the sync stopped, every other path that translates through the same
 * history must check it itself. The new mirror holds other records at the old offsets (here written to it directly,
 * 300 of them: longer than the old mirror's 100, so its log ends alone do not give it away). On the previous code each
 * of the three translated through the old syncs into the new log:
 *
 * <ol>
 *   <li>{@code failover --from-source} (the tool for "the sync stopped"): the history recorded the old mirror's id;
 *       the row is refused ({@code MIRROR_RESEEDED}), {@code --apply} exits 1 and writes nothing;</li>
 *   <li>failback: a Sextant the other way ({@code failback-config}) inverts the forward history; the topic is not
 *       inverted, a commit on the new mirror stays untranslatable and nothing is written home;</li>
 *   <li>an upgrade: the history as an earlier release wrote it (no mirror id) is checked against the mirror's records
 *       before the new id is taken: {@code MIRROR_RESEEDED}, a lagging commit is not written through it. The tool
 *       refuses it by the records too.</li>
 * </ol>
 */
@ExtendWith(LocalClustersExtension.class)
class ReseededWhileStoppedIT {

    private static final String TOPIC = "reseeded-ledger";
    private static final String MIRROR = LocalMirrorMaker.mirroredTopic(TOPIC);
    private static final String GROUP = "reseeded-app";
    private static final String HOME = "reseeded-home";
    private static final String APP = "sextant-it-reseeded";
    private static final Duration SYNCED = Duration.ofSeconds(90);
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyPathThatTranslatesRefusesAHistoryOfAMirrorCreatedAgain(LocalClusters clusters) throws Exception {
        long began = System.nanoTime();
        clusters.createTopic(clusters.source(), TOPIC, 1);
        clusters.produceMirroredFromFirstSyncs(TOPIC, 1, 100, SYNCED);
        Map<String, Object> groups = Map.of("groups.include", "reseeded-.*");
        Path stateDir = Files.createTempDirectory("sextant-it-reseeded");
        try (SextantInstance sextant = SextantInstance.start(clusters, APP, stateDir, groups)) {
            Clients.commit(clusters.source(), GROUP, TOPIC, Map.of(0, 60L));
            Await.until(SYNCED, GROUP + " written through the first mirror", () -> offset(clusters, GROUP) != null);
        }

        // with Sextant stopped, the mirror deleted and created again, holding other records at the old offsets
        try (Admin admin = clusters.admin(clusters.destination())) {
            admin.deleteTopics(List.of(MIRROR)).all().get(30, TimeUnit.SECONDS);
            Await.until(SYNCED, "the mirror deleted", () -> !topics(admin).contains(MIRROR));
        }
        clusters.createTopic(clusters.destination(), MIRROR, 1);
        Clients.produceNumberedFrom(clusters.destination(), MIRROR, 1, 5_000, 300);

        // 1. failover --from-source: the history recorded the old mirror's id
        Path config = Files.createTempFile("sextant-reseeded", ".properties");
        Files.writeString(config, "source.bootstrap.servers=" + clusters.source().bootstrapServers()
                + "\ndestination.bootstrap.servers=" + clusters.destination().bootstrapServers()
                + "\napplication.id=" + APP + "\ngroups.include=reseeded-.*\n");
        assertRefusedByTheTool(config, "was created again (topic id ");
        Cli.Run apply = Cli.run("failover", "-c", config.toString(), "--from-source", "--group", GROUP, "--apply",
                "-o", "json");
        assertEquals(1, apply.exit(), apply.toString());
        assertEquals("MIRROR_RESEEDED", JSON.readTree(apply.out()).get("reason").asText(), apply.out());
        assertEquals(null, offset(clusters, GROUP), "nothing written into the new mirror");

        // 2. failback: the forward history inverted by a Sextant the other way, a commit on the new mirror
        Clients.commit(clusters.destination(), HOME, MIRROR, Map.of(0, 150L));
        try (SextantInstance home = failback(clusters, config)) {
            SextantClient client = SextantClient.create("http://" + home.app().queryAddress());
            String status = Await.value(SYNCED, HOME + " judged by the failback Sextant", () -> settled(client, HOME,
                    150));
            assertEquals("UNTRANSLATABLE", status, "not translated home through the old mirror's syncs: "
                    + Clients.committed(clusters, clusters.source(), HOME, TOPIC));
            assertEquals(Map.of(), Clients.committed(clusters, clusters.source(), HOME, TOPIC), "nothing written home");
        }

        // 3. an upgrade: the history as an earlier release wrote it, without the mirror's id
        forgetTheMirrorId(clusters.source());
        assertRefusedByTheTool(config, "is not the copy of the source's record at ");
        Clients.commit(clusters.source(), GROUP, TOPIC, Map.of(0, 80L));
        try (SextantInstance sextant = SextantInstance.start(clusters, APP, stateDir, groups)) {
            SextantClient client = SextantClient.create("http://" + sextant.app().queryAddress());
            String status = Await.value(SYNCED, GROUP + " planned from its commit at 80", () -> settled(client, GROUP,
                    80));
            assertEquals("UNTRANSLATABLE", status, "not written through the old mirror's syncs: written at "
                    + offset(clusters, GROUP));
            DeadLetterRecord reseeded = DeadLetters.await(clusters, r -> r.reason() == Reason.MIRROR_RESEEDED
                    && r.detail().contains("the offset-sync history of " + TOPIC + " describes"),
                    "MIRROR_RESEEDED for the history without a mirror id", SYNCED);
            assertTrue(reseeded.detail().contains("is not the copy of the source's record"), reseeded.detail());
            assertEquals(null, offset(clusters, GROUP), "nothing written into the new mirror");
        }
        System.out.printf("mirror created again while stopped: failover --from-source refused it (by the recorded id, "
                + "then by the records), failback did not translate home through it, the upgraded sync forgot it; "
                + "nothing written, in %d s%n", TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began));
    }

    /** A dry run of {@code failover --from-source} shows the group's row refused, for {@code why}. */
    private static void assertRefusedByTheTool(Path config, String why) throws Exception {
        Cli.Run dry = Cli.run("failover", "-c", config.toString(), "--from-source", "--group", GROUP, "-o", "json");
        assertEquals(0, dry.exit(), dry.toString());
        JsonNode row = JSON.readTree(dry.out()).get("partitions").get(0);
        assertEquals("MIRROR_RESEEDED", row.get("status").asText(), "the row refused: " + dry.out());
        Cli.Run table = Cli.run("failover", "-c", config.toString(), "--from-source", "--group", GROUP);
        assertTrue(table.out().contains(why), "the table says why: " + table.out());
    }

    /** The Sextant that runs the other way, configured as {@code sextant failback-config} prints it. */
    private static SextantInstance failback(LocalClusters clusters, Path forward) throws Exception {
        Cli.Run derived = Cli.run("failback-config", "-c", forward.toString());
        assertEquals(0, derived.exit(), derived.toString());
        Properties failback = new Properties();
        failback.load(new StringReader(derived.out()));
        Map<String, Object> properties = new HashMap<>();
        failback.stringPropertyNames().forEach(k -> properties.put(k, failback.getProperty(k)));
        Path stateDir = Files.createTempDirectory("sextant-it-reseeded-home");
        properties.putAll(Map.of("query.listen", "127.0.0.1:0", "state.dir", stateDir.toString(),
                "sync.interval.ms", "100", "sync.pending.timeout.ms", "3000", "streams.num.stream.threads", "1"));
        return SextantInstance.start(properties, stateDir);
    }

    /** Deletes the mirror id from the history topic, as a history written before Sextant recorded them. */
    private static void forgetTheMirrorId(LocalKafkaBroker source) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(source.clientProperties(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(APP + "-offset-sync-history",
                    OffsetSyncKeys.mirrorIncarnationKey(TOPIC).get(), null)).get(30, TimeUnit.SECONDS);
        }
    }

    /** The group's status once its position stands for the commit at {@code offset} and is settled, else null. */
    private static String settled(SextantClient client, String group, long offset) {
        try {
            SextantClient.Partition p = client.group(group).partitions().get(0);
            return p.sourceOffset() == offset && Set.of("APPLIED", "UNTRANSLATABLE").contains(p.status())
                    ? p.status() : null;
        } catch (SextantClientException | IndexOutOfBoundsException e) {
            return null;
        }
    }

    private static Set<String> topics(Admin admin) {
        try {
            return admin.listTopics().names().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            return Set.of(MIRROR); // not known yet: asked again
        }
    }

    /** The group's committed offset on the mirror partition, or null. */
    private static Long offset(LocalClusters clusters, String group) {
        var committed = Clients.committed(clusters, clusters.destination(), group, MIRROR).get(0);
        return committed == null ? null : committed.offset();
    }
}
