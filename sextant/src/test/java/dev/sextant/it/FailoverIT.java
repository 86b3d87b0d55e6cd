package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.cli.SextantCommand;
import dev.sextant.client.FailoverSeek;
import dev.sextant.client.SextantClient;
import dev.sextant.client.SextantClientException;
import dev.sextant.testing.Cli;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Failing a consumer over to the destination: with the Java client while Sextant runs, and with the CLI while it
 * does not.
 */
@ExtendWith(LocalClustersExtension.class)
class FailoverIT {

    private static final Duration SYNCED = Duration.ofSeconds(90);
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theClientResumesADestinationConsumerWithNothingLostAndReplayWithinTheBound(LocalClusters clusters) {
        String topic = "failover-client";
        String group = "failover-client-app";
        int perPartition = 3_000;
        clusters.createTopic(clusters.source(), topic, 2);
        Clients.produceNumbered(clusters.source(), topic, 2, perPartition, 3_000);
        clusters.awaitMirrored(topic, Duration.ofSeconds(60));
        // Under load MirrorMaker 2 can coalesce a partition's first syncs, and an offset below the oldest sync has no
        // translation (nor in MirrorMaker 2): commit at 1,234 and 2,222, or just past the oldest sync if that is
        // higher.
        Map<Integer, Long> committed = new HashMap<>();
        for (int partition : List.of(0, 1)) {
            long oldest = Await.value(SYNCED, "a MirrorMaker 2 sync of " + topic + "-" + partition, () ->
                    Clients.mirrorMakerSyncs(clusters.source(), topic, partition).stream().min(Long::compare)
                            .orElse(null));
            long planned = partition == 0 ? 1_234L : 2_222L;
            committed.put(partition, Math.max(planned, Math.min(oldest + 5, perPartition - 1)));
        }

        try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-failover-client",
                Map.of("groups.include", "failover-client-.*"))) {
            Clients.commit(clusters.source(), group, topic, committed);
            SextantClient client = SextantClient.create("http://" + sextant.app().queryAddress());
            SextantClient.GroupPositions positions = Await.value(SYNCED, group + " applied", () -> {
                SextantClient.GroupPositions p = client.group(group);
                return p.partitions().size() == 2 && p.partitions().stream().allMatch(x -> x.status().equals("APPLIED")
                        && x.sourceOffset() == committed.get(x.partition())) ? p : null;
            });
            Map<TopicPartition, Long> offsets = client.offsets(group);
            assertEquals(2, offsets.size(), offsets.toString());

            // the CLI gives the same positions
            StringWriter out = new StringWriter();
            picocli.CommandLine cli = SextantCommand.commandLine();
            cli.setOut(new PrintWriter(out));
            assertEquals(0, cli.execute("offsets", "--group", group, "--url",
                    "http://" + sextant.app().queryAddress()));
            offsets.forEach((tp, o) -> assertTrue(out.toString().matches("(?s).*" + tp.topic() + "\\s+" + tp.partition()
                    + "\\s+" + o + "\\b.*"), out.toString()));

            Map<String, Object> props = new HashMap<>(clusters.destination().clientProperties());
            props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none"); // a partition without a seek would fail
            props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000);
            Map<TopicPartition, List<Integer>> read = new HashMap<>();
            Map<TopicPartition, Long> end = new HashMap<>();
            clusters.endOffsets(clusters.destination(), "source." + topic)
                    .forEach((p, o) -> end.put(new TopicPartition("source." + topic, p), o));
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                    new StringDeserializer())) {
                FailoverSeek.assignAndSeek(consumer, offsets);
                offsets.keySet().forEach(tp -> read.put(tp, new ArrayList<>()));
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (offsets.keySet().stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                    assertTrue(System.nanoTime() < deadline, "read to the end of the mirror");
                    for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                        read.get(new TopicPartition(r.topic(), r.partition())).add(Integer.parseInt(r.value()));
                    }
                }
            }
            for (SextantClient.Partition p : positions.partitions()) {
                List<Integer> values = read.get(new TopicPartition(p.destinationTopic(), p.partition()));
                long source = committed.get(p.partition());
                int first = values.get(0);
                long replayed = source - first;
                System.out.printf("failover %s-%d: committed %d, resumed at record %d, replayed %d, "
                        + "reported bound %d%n", topic, p.partition(), source, first, replayed, p.bound());
                assertTrue(first <= source, "the committed record is not skipped: 0 lost");
                assertTrue(replayed <= p.bound(), "replayed " + replayed + " <= reported bound " + p.bound());
                for (int i = 0; i < values.size(); i++) {
                    assertEquals(first + i, values.get(i), "no gap");
                }
                assertEquals(perPartition, first + values.size(), "read to the end: nothing lost");
            }
        }
    }

    @Test
    void theFailoverCommandWritesWhileSextantIsStoppedAndRefusesAGroupActiveOnTheDestination(LocalClusters clusters)
            throws Exception {
        String topic = "failover-cli";
        String group = "failover-cli-app";
        String app = "sextant-it-failover-cli";
        clusters.createTopic(clusters.source(), topic, 1);
        Clients.produceNumbered(clusters.source(), topic, 1, 3_000, 3_000);
        clusters.awaitMirrored(topic, Duration.ofSeconds(60));

        // The group commits a few records past a sync MirrorMaker 2 emitted (its spacing varies with load); the next
        // sync exists too, so the interval between them is closed and, its records copied one for one, exact.
        List<Long> syncs = Await.value(SYNCED, "two MirrorMaker 2 syncs of " + topic + "-0", () -> {
            List<Long> upstream = Clients.mirrorMakerSyncs(clusters.source(), topic, 0).stream().distinct().sorted()
                    .toList();
            return upstream.size() >= 2 ? upstream : null;
        });
        long syncBelow = syncs.get(syncs.size() - 2);
        long syncAbove = syncs.get(syncs.size() - 1);
        long committed = syncBelow + Math.min(5, syncAbove - syncBelow - 1);

        // Sextant runs (syncing no group) until its history holds the sync above (syncs are copied in order, so every
        // sync at or below the commit is there too) and it has proven the interval against the records, then stops
        SextantClient.Translation running;
        try (SextantInstance sextant = SextantInstance.start(clusters, app, Map.of("groups.include", "nothing"))) {
            SextantClient client = SextantClient.create("http://" + sextant.app().queryAddress());
            running = Await.value(SYNCED, "the history up to offset " + syncAbove, () -> {
                try {
                    SextantClient.Translation t = client.translate(topic, 0, syncAbove).bound() == 0
                            ? client.translate(topic, 0, committed) : null;
                    return t != null && t.bound() == 0 ? t : null;
                } catch (SextantClientException e) {
                    return null; // 404 until a sync covers it
                }
            });
        }
        Clients.commit(clusters.source(), group, topic, Map.of(0, committed));
        Path config = Files.createTempFile("sextant-failover", ".properties");
        Files.writeString(config, "source.bootstrap.servers=" + clusters.source().bootstrapServers()
                + "\ndestination.bootstrap.servers=" + clusters.destination().bootstrapServers()
                + "\napplication.id=" + app + "\n");
        TopicPartition mirror = new TopicPartition("source." + topic, 0);

        // dry run: shows the translation, writes nothing
        Cli.Run dry = Cli.run("failover", "-c", config.toString(), "--from-source", "--group", group, "--json");
        assertEquals(0, dry.exit(), dry.toString());
        JsonNode shown = JSON.readTree(dry.out()).get("partitions").get(0);
        assertEquals("DRY_RUN", JSON.readTree(dry.out()).get("result").asText());
        assertEquals(committed, shown.get("sourceOffset").asLong());
        assertEquals("source." + topic, shown.get("destinationTopic").asText());
        long destinationOffset = shown.get("destinationOffset").asLong();
        // the command proves the interval itself (Sextant is stopped) and reaches the same exact translation
        assertEquals(running.destinationOffset(), destinationOffset, "the same translation as the running Sextant's");
        assertEquals(committed, destinationOffset, "exact on a fresh topic mirrored one for one");
        assertEquals(running.bound(), shown.get("bound").asLong());
        // a fresh topic is mirrored one to one: record i sits at offset i on both sides
        assertTrue(destinationOffset <= committed && committed - destinationOffset <= shown.get("bound").asLong(),
                "never past the committed record, at most the bound before it: " + shown);
        assertTrue(destinationOffsets(clusters, group).isEmpty(), "a dry run writes nothing");

        // --apply: written, marked as Sextant's
        Cli.Run applied = Cli.run("failover", "-c", config.toString(), "--from-source", "--group", group, "--apply");
        assertEquals(0, applied.exit(), applied.toString());
        assertTrue(applied.out().contains("Applied"), applied.out());
        OffsetAndMetadata there = destinationOffsets(clusters, group).get(mirror);
        assertEquals(destinationOffset, there.offset(), "the destination holds the shown translation");
        assertTrue(there.metadata().matches("sextant/" + app + "( c=\\S+)? t=\\d+ b=" + shown.get("bound").asLong()
                + " src=" + committed), there.metadata());

        // a member on the destination: refused, nothing written
        Clients.commit(clusters.source(), group, topic, Map.of(0, committed + 1));
        AtomicBoolean running2 = new AtomicBoolean(true);
        Thread member = new Thread(() -> runDestinationMember(clusters, group, "source." + topic, running2));
        member.start();
        try {
            awaitDestinationState(clusters, group, GroupState.STABLE);
            Cli.Run refused = Cli.run("failover", "-c", config.toString(), "--from-source", "--group", group,
                    "--apply");
            assertEquals(1, refused.exit(), refused.toString());
            assertTrue(refused.err().contains("refused") && refused.err().contains("active on the destination"),
                    refused.err());
            assertEquals(destinationOffset, destinationOffsets(clusters, group).get(mirror).offset(),
                    "an active group is never written");
        } finally {
            running2.set(false);
            member.join(30_000);
        }

        // someone else's commit on the destination: refused as diverged
        Clients.commit(clusters.destination(), group, "source." + topic, Map.of(0, 10L));
        Cli.Run diverged = Cli.run("failover", "-c", config.toString(), "--from-source", "--group", group,
                "--apply", "--json");
        assertEquals(1, diverged.exit(), diverged.toString());
        assertEquals("DESTINATION_DIVERGED", JSON.readTree(diverged.out()).get("reason").asText());
        assertEquals(10L, destinationOffsets(clusters, group).get(mirror).offset());
        assertEquals("DESTINATION_DIVERGED", JSON.readTree(diverged.out()).get("partitions").get(0).get("status")
                .asText());
    }


    /**
     * {@code translation=identity} maps every offset one to one, including offsets the mirror has not copied yet:
     * the write goes through the same plan as the sync's, so a lagging mirror is written at its end, never beyond
     * (a consumer there would skip what producers append after the promotion).
     */
    @Test
    void theFailoverCommandWritesALaggingMirrorAtItsEndNeverBeyond(LocalClusters clusters) throws Exception {
        String topic = "failover-lagging";
        String group = "failover-lagging-app";
        clusters.createTopic(clusters.source(), topic, 1);
        clusters.createTopic(clusters.destination(), topic, 1);
        Clients.produceNumbered(clusters.source(), topic, 1, 100);
        Clients.produceNumbered(clusters.destination(), topic, 1, 60); // the mirror copied 60 of the 100 so far
        Clients.commit(clusters.source(), group, topic, Map.of(0, 100L));
        Path config = Files.createTempFile("sextant-failover-lagging", ".properties");
        Files.writeString(config, "source.bootstrap.servers=" + clusters.source().bootstrapServers()
                + "\ndestination.bootstrap.servers=" + clusters.destination().bootstrapServers()
                + "\napplication.id=sextant-it-failover-lagging\ntranslation=identity\nreplication.policy=identity\n");

        Cli.Run applied = Cli.run("failover", "-c", config.toString(), "--from-source", "--group", group, "--apply");

        assertEquals(0, applied.exit(), applied.toString());
        OffsetAndMetadata there = destinationOffsets(clusters, group).get(new TopicPartition(topic, 0));
        assertEquals(60L, there.offset(), "written at the mirror's end, not at the source's 100");
        assertTrue(there.metadata().contains(" b=40 "), "the 40 records not mirrored yet are replays once they are: "
                + there.metadata());
    }

    /**
     * Every surface a failover reads keeps a translation inside the mirror's log, as every write does: a running
     * instance whose position is pending (the group is active on the destination) serves, on a mirror 40 records
     * behind, the mirror's end from {@code /v1/groups/G/offsets} (what {@code FailoverSeek} seeks to) and in the
     * failover report and its reset plan, not the source's offset beyond it.
     */
    @Test
    void aLaggingMirrorsEndBoundsWhatTheQueryAndTheFailoverPlanServe(LocalClusters clusters) throws Exception {
        String topic = "failover-clamp";
        String group = "failover-clamp-app";
        clusters.createTopic(clusters.source(), topic, 1);
        clusters.createTopic(clusters.destination(), topic, 1);
        Clients.produceNumbered(clusters.source(), topic, 1, 100);
        Clients.produceNumbered(clusters.destination(), topic, 1, 60); // the mirror copied 60 of the 100 so far
        AtomicBoolean member = new AtomicBoolean(true);
        Thread consumer = new Thread(() -> runDestinationMember(clusters, group, topic, member));
        consumer.start();
        try {
            awaitDestinationState(clusters, group, GroupState.STABLE); // Sextant may not write it: pending
            Clients.commit(clusters.source(), group, topic, Map.of(0, 100L));
            try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-failover-clamp", Map.of(
                    "translation", "identity", "replication.policy", "identity",
                    "groups.include", "failover-clamp-.*"))) {
                String url = "http://" + sextant.app().queryAddress();
                SextantClient client = SextantClient.create(url);
                Await.until(SYNCED, group + " translated and refused as active", () -> {
                    try {
                        return client.group(group).partitions().stream().anyMatch(p -> "GROUP_ACTIVE".equals(
                                p.status()));
                    } catch (SextantClientException e) {
                        return false;
                    }
                });
                // the instance reads the mirror partition's log from its first look at the group on: from then on
                Map<TopicPartition, Long> atTheEnd = Map.of(new TopicPartition(topic, 0), 60L);
                Await.until(Duration.ofSeconds(30), "/v1/groups/G/offsets at the mirror's end, not at the source's "
                        + "100 beyond it", () -> atTheEnd.equals(client.offsets(group)));

                Path config = Files.createTempFile("sextant-failover-clamp", ".properties");
                Files.writeString(config, "source.bootstrap.servers=" + clusters.source().bootstrapServers()
                        + "\ndestination.bootstrap.servers=" + clusters.destination().bootstrapServers()
                        + "\napplication.id=sextant-it-failover-clamp\ntranslation=identity"
                        + "\nreplication.policy=identity\n");
                Cli.Run csv = Cli.run("failover", "-c", config.toString(), "--url", url, "--group", group,
                        "--format", "csv");
                assertEquals(topic + ",0,60\n", csv.out(), "the reset plan's pending row: " + csv);
                Cli.Run json = Cli.run("failover", "-c", config.toString(), "--url", url, "--group", group,
                        "--json");
                JsonNode row = JSON.readTree(json.out()).get("results").get(0).get("partitions").get(0);
                assertEquals(60L, row.get("pendingOffset").asLong(), json.out());
                assertEquals(40L, row.get("bound").asLong(), "the 40 records not mirrored yet replay: " + row);
            }
        } finally {
            member.set(false);
            consumer.join(30_000);
        }
    }

    private static Map<TopicPartition, OffsetAndMetadata> destinationOffsets(LocalClusters clusters, String group)
            throws Exception {
        try (Admin admin = clusters.admin(clusters.destination())) {
            Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>();
            admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS)
                    .forEach((tp, om) -> {
                        if (om != null) {
                            out.put(tp, om);
                        }
                    });
            return out;
        }
    }

    private static void runDestinationMember(LocalClusters clusters, String group, String topic,
                                             AtomicBoolean running) {
        Map<String, Object> props = new HashMap<>(clusters.destination().clientProperties());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            while (running.get()) {
                consumer.poll(Duration.ofMillis(100));
            }
        }
    }

    private static void awaitDestinationState(LocalClusters clusters, String group, GroupState state) {
        try (Admin admin = clusters.admin(clusters.destination())) {
            Await.until(SYNCED, group + " " + state + " on the destination", () -> {
                try {
                    return admin.describeConsumerGroups(List.of(group)).all().get(5, TimeUnit.SECONDS).get(group)
                            .groupState() == state;
                } catch (Exception e) {
                    return false;
                }
            });
        }
    }
}
