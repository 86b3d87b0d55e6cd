package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.client.SextantClient;
import dev.sextant.client.SextantClientException;
import dev.sextant.deadletter.DeadLetterReader;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.Reason;
import dev.sextant.testing.BackwardsSampler;
import dev.sextant.testing.Cli;
import dev.sextant.testing.DeadLetters;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalMirrorMaker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Switching from MirrorMaker 2's group sync: MirrorMaker 2 syncs the groups for a while
 * ({@code sync.group.offsets.enabled=true}), is restarted with it off, and Sextant starts with
 * {@code sync.foreign.offsets=adopt-forward}. Every group ends in sync, written by Sextant, with no
 * {@code DESTINATION_DIVERGED}, and no destination offset moves backwards; a group rewound on the source meanwhile,
 * whose translation is below what MirrorMaker 2 wrote, stays refused.
 *
 * <p>Clusters of its own: the shared ones' MirrorMaker 2 never syncs groups.
 */
class AdoptFromMirrorMakerIT {

    private static final String TOPIC = "adopt-ledger";
    private static final int GROUPS = 20;
    private static final String REWOUND = "adopt-rewound";

    @Test
    void sextantTakesOverTheGroupsMirrorMakersGroupSyncWrote() throws Exception {
        try (LocalClusters clusters = LocalClusters.builder().mirrorMaker(withGroupSync()).start()) {
            adopt(clusters, false, null);
        }
    }

    /**
     * The same switch with the one-off command instead of the setting: Sextant runs with the default
     * {@code sync.foreign.offsets=refuse}, {@code sextant adopt} shows the groups it would take over, and
     * {@code --apply} takes them; from then on the sync keeps them.
     */
    @Test
    void theAdoptCommandShowsThenTakesOverTheGroups(@TempDir Path dir)
            throws Exception {
        try (LocalClusters clusters = LocalClusters.builder().mirrorMaker(withGroupSync()).start()) {
            adopt(clusters, true, dir);
        }
    }

    private static LocalMirrorMaker.Options withGroupSync() {
        return LocalMirrorMaker.Options.builder().topics("adopt-.*").groups("adopt-.*").emitCheckpointsEnabled(true)
                .syncGroupOffsetsEnabled(true).build();
    }

    private void adopt(LocalClusters clusters, boolean byCommand, Path dir) throws Exception {
        clusters.createTopic(clusters.source(), TOPIC, 2);
        // every offset translates (seen here before: every group's partition 0 untranslated, its oldest sync above 537)
        clusters.produceMirroredFromFirstSyncs(TOPIC, 2, 2_000, Duration.ofSeconds(60));
        String mirrored = "source." + TOPIC;
        try (Admin source = clusters.admin(clusters.source());
             Admin destination = clusters.admin(clusters.destination())) {
            for (int g = 0; g < GROUPS; g++) {
                commit(source, group(g), 500 + 37L * g, 800 + 41L * g);
            }
            commit(source, REWOUND, 1_500, 1_500);
            Await.until(Duration.ofSeconds(90), "MirrorMaker 2 synced every group", () ->
                    offsets(destination, mirrored).size() == GROUPS + 1);

            // the switch: MirrorMaker 2's group sync off (it still mirrors and emits offset syncs). Checkpoints stay
            // on for this restart: with them off, MirrorMaker 2 4.3.1 cannot start its checkpoint connector, and the
            // tasks it stored before, group sync included, keep running (seen here: they kept writing offsets)
            clusters.mirrorMaker().orElseThrow().close();
            try (LocalMirrorMaker plain = LocalMirrorMaker.start(clusters.source().bootstrapServers(),
                    clusters.destination().bootstrapServers(), LocalMirrorMaker.Options.builder()
                            .topics("adopt-.*").groups("adopt-.*").emitCheckpointsEnabled(true)
                            .syncGroupOffsetsEnabled(false).build(), null)) {
                plain.awaitCheckpointTaskGroupSync(false, Duration.ofSeconds(60));
                Map<String, Long> byMirrorMaker = firstPartition(offsets(destination, mirrored));
                // half the groups move on; the rest stay where MirrorMaker 2 synced them; one is rewound
                for (int g = 0; g < GROUPS; g += 2) {
                    commit(source, group(g), 1_000 + 37L * g, 1_200 + 41L * g);
                }
                commit(source, REWOUND, 10, 10);

                try (BackwardsSampler sampler = new BackwardsSampler(() ->
                             firstPartition(offsets(destination, mirrored)));
                     SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-adopt", Map.of(
                             "groups.include", "adopt-.*",
                             "sync.foreign.offsets", byCommand ? "refuse" : "adopt-forward"))) {
                    if (byCommand) {
                        adoptByCommand(clusters, sextant, dir, sampler);
                        return;
                    }
                    adoptForward(clusters, sextant, destination, mirrored, byMirrorMaker, sampler);
                }
            }
        }
    }

    private void adoptByCommand(LocalClusters clusters, SextantInstance sextant, Path dir,
                                BackwardsSampler sampler) throws Exception {
        SextantClient client = SextantClient.builder(
                "http://" + sextant.app().queryAddress()).deadline(Duration.ofSeconds(10)).build();
        awaitEveryGroupTranslated(client);
        Path config = dir.resolve("sextant.properties");
        Files.writeString(config, String.join("\n",
                "source.bootstrap.servers=" + clusters.source().bootstrapServers(),
                "destination.bootstrap.servers=" + clusters.destination().bootstrapServers(),
                "application.id=sextant-it-adopt", "groups.include=adopt-.*", ""));
        String url = "http://" + sextant.app().queryAddress();
        Cli.Run dry = Cli.run("adopt", "-c", config.toString(), "--groups", "adopt-.*", "--url", url, "--json");
        assertEquals(1, dry.exit(), "the rewound group is refused: " + dry.out() + dry.err());
        Map<String, String> verdicts = verdicts(dry.out());
        assertTrue(List.of("REFUSED", "WAITING").contains(verdicts.get(REWOUND)), dry.out());
        for (int g = 0; g < GROUPS; g++) {
            assertEquals("ADOPTABLE", verdicts.get(group(g)), dry.out());
        }
        String mirrored = "source." + TOPIC;
        try (Admin destination = clusters.admin(clusters.destination())) {
            assertTrue(offsets(destination, mirrored).values().stream().flatMap(m -> m.values().stream())
                    .noneMatch(om -> om.metadata().startsWith("sextant/")), "a dry run writes nothing");

            Cli.Run applied = Cli.run("adopt", "-c", config.toString(), "--groups", "adopt-.*", "--url", url, "--json",
                    "--apply");
            Map<String, String> after = verdicts(applied.out());
            for (int g = 0; g < GROUPS; g++) {
                assertEquals("ADOPTED", after.get(group(g)), applied.out() + applied.err());
            }
            Map<String, Map<Integer, OffsetAndMetadata>> there = offsets(destination, mirrored);
            for (int g = 0; g < GROUPS; g++) {
                assertTrue(there.get(group(g)).values().stream().allMatch(om ->
                        om.metadata().startsWith("sextant/sextant-it-adopt ")), group(g) + ": " + there.get(group(g)));
            }
            // from now on the sync (still sync.foreign.offsets=refuse) keeps the adopted groups
            try (Admin source = clusters.admin(clusters.source())) {
                commit(source, group(1), 1_700, 1_700);
            }
            awaitSyncedAfterTakeOver(client, destination, mirrored);
        }
        assertEquals(List.of(), sampler.backwards());
        System.out.printf("adopt command: %d groups ADOPTABLE then ADOPTED, 1 REFUSED (rewound); the sync keeps them "
                + "afterwards; backwards moves seen: 0%n", GROUPS);
    }

    /** sync.foreign.offsets=adopt-forward: Sextant takes every group over, refuses the rewound one, moves none back. */
    private static void adoptForward(LocalClusters clusters, SextantInstance sextant, Admin destination,
                                     String mirrored, Map<String, Long> byMirrorMaker, BackwardsSampler sampler)
            throws Exception {
        awaitEveryGroupAdopted(sextant, destination, mirrored);
        DeadLetterRecord refused = DeadLetters.await(clusters, REWOUND, Reason.DESTINATION_DIVERGED,
                Duration.ofSeconds(90)); // on 2 busy cores the first refusal can take a while
        assertTrue(refused.detail().contains("below"), refused.detail());
        Map<String, Map<Integer, OffsetAndMetadata>> there = offsets(destination, mirrored);
        assertEquals(byMirrorMaker.get(REWOUND), there.get(REWOUND).get(0).offset(),
                "the rewound group keeps what MirrorMaker 2 wrote");
        try (DeadLetterReader reader = new DeadLetterReader(clusters.source().clientProperties(),
                "sextant.conflicts")) {
            List<DeadLetterRecord> diverged = reader.readToEnd(Duration.ofSeconds(10)).stream()
                    .filter(r -> r.reason() == Reason.DESTINATION_DIVERGED && !REWOUND.equals(r.group()))
                    .toList();
            assertEquals(List.of(), diverged, "no adopted group was ever refused");
        }
        List<String> backwards = sampler.backwards();
        System.out.printf("adopt-forward: %d groups MirrorMaker 2 had synced taken over (%d moved on, "
                + "%d at the commit MirrorMaker 2 synced); 1 rewound group refused; backwards "
                + "moves seen: %d%n", GROUPS, GROUPS / 2, GROUPS / 2, backwards.size());
        assertEquals(List.of(), backwards);
    }

    /**
     * Every group seen taken over by Sextant, each at some moment: MirrorMaker 2's old checkpoint tasks may still
     * write a group after its restart (see the README), which Sextant takes over again at its next commit, or the
     * takeover audit at its next round (5 s). 120 s: a 2-core CI machine took longer than 60 s once.
     */
    private static void awaitEveryGroupAdopted(SextantInstance sextant, Admin destination, String mirrored) {
        Set<String> adopted = new HashSet<>();
        try {
            Await.until(Duration.ofSeconds(120), "every group written by Sextant", () -> {
                Map<String, Map<Integer, OffsetAndMetadata>> there = offsets(destination, mirrored);
                for (int g = 0; g < GROUPS; g++) {
                    Map<Integer, OffsetAndMetadata> parts = there.get(group(g));
                    if (parts != null && parts.size() == 2 && parts.values().stream().allMatch(om ->
                            om.metadata().startsWith("sextant/sextant-it-adopt "))) {
                        adopted.add(group(g));
                    }
                }
                return adopted.size() == GROUPS;
            });
        } catch (AssertionError e) {
            Map<String, Map<Integer, OffsetAndMetadata>> there = offsets(destination, mirrored);
            SextantClient client = SextantClient.builder(
                    "http://" + sextant.app().queryAddress()).deadline(Duration.ofSeconds(10)).build();
            StringBuilder missing = new StringBuilder();
            for (int g = 0; g < GROUPS; g++) {
                if (!adopted.contains(group(g))) {
                    missing.append("; ").append(group(g)).append(": the destination ")
                            .append(there.get(group(g))).append(", Sextant ").append(client.group(group(g)));
                }
            }
            throw new AssertionError(e.getMessage() + missing, e);
        }
    }

    private static void awaitEveryGroupTranslated(SextantClient client) {
        Map<String, String> untranslated = new TreeMap<>();
        try {
            Await.until(Duration.ofSeconds(60), "the instance translated every group", () -> {
                // the rewound group is left out: what it shows depends on whether its refusal came yet
                untranslated.clear();
                for (int g = 0; g < GROUPS; g++) {
                    String name = group(g);
                    try {
                        SextantClient.GroupPositions view = client.group(name);
                        List<SextantClient.Partition> parts = view.partitions();
                        if (parts.size() != 2 || parts.stream().anyMatch(p -> p.translatedOffset() == null)) {
                            untranslated.put(name, view.toString());
                        }
                    } catch (SextantClientException e) {
                        untranslated.put(name, e.toString());
                    }
                }
                return untranslated.isEmpty();
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; not translated: " + untranslated, e);
        }
    }

    private static void awaitSyncedAfterTakeOver(SextantClient client, Admin destination, String mirrored) {
        try {
            // synced: Sextant applied its translation of the new commit on every partition, and the destination
            // holds exactly that under Sextant's mark. A partition whose translation did not move (MirrorMaker
            // emitted no sync between the old and the new commit) is not written again: its mark keeps the
            // older commit, so the mark alone cannot tell.
            Await.until(Duration.ofSeconds(60), group(1) + " synced after the take-over", () -> {
                Map<Integer, OffsetAndMetadata> parts = offsets(destination, mirrored).get(group(1));
                List<SextantClient.Partition> positions;
                try {
                    positions = client.group(group(1)).partitions();
                } catch (SextantClientException e) {
                    return false; // not answering this moment: ask again
                }
                return parts != null && parts.size() == 2 && positions.size() == 2 && positions.stream()
                        .allMatch(p -> p.sourceOffset() == 1_700 && "APPLIED".equals(p.status())
                                && parts.get(p.partition()) != null && p.appliedOffset() != null
                                && p.appliedOffset() == parts.get(p.partition()).offset()
                                && parts.get(p.partition()).metadata().startsWith("sextant/sextant-it-adopt "));
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; Sextant has " + client.group(group(1)) + "; the "
                    + "destination " + offsets(destination, mirrored).get(group(1)), e);
        }
    }

    private static Map<String, String> verdicts(String json) throws Exception {
        Map<String, String> out = new HashMap<>();
        new ObjectMapper().readTree(json).path("groups")
                .forEach(g -> out.put(g.path("group").asText(), g.path("verdict").asText()));
        return out;
    }


    private static String group(int g) {
        return "adopt-g" + g;
    }

    private static void commit(Admin source, String group, long p0, long p1) throws Exception {
        source.alterConsumerGroupOffsets(group, Map.of(
                new TopicPartition(TOPIC, 0), new OffsetAndMetadata(p0),
                new TopicPartition(TOPIC, 1), new OffsetAndMetadata(p1))).all().get(30, TimeUnit.SECONDS);
    }

    /** The groups' committed offsets of {@code topic} on a cluster, by partition; groups without any left out. */
    private static Map<String, Map<Integer, OffsetAndMetadata>> offsets(Admin cluster, String topic) {
        Map<String, ListConsumerGroupOffsetsSpec> specs = new HashMap<>();
        List<TopicPartition> partitions = List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1));
        for (int g = 0; g < GROUPS; g++) {
            specs.put(group(g), new ListConsumerGroupOffsetsSpec().topicPartitions(partitions));
        }
        specs.put(REWOUND, new ListConsumerGroupOffsetsSpec().topicPartitions(partitions));
        Map<String, Map<Integer, OffsetAndMetadata>> out = new HashMap<>();
        try {
            var result = cluster.listConsumerGroupOffsets(specs);
            for (String group : specs.keySet()) {
                Map<Integer, OffsetAndMetadata> parts = new HashMap<>();
                result.partitionsToOffsetAndMetadata(group).get(10, TimeUnit.SECONDS).forEach((tp, om) -> {
                    if (om != null) {
                        parts.put(tp.partition(), om);
                    }
                });
                if (!parts.isEmpty()) {
                    out.put(group, parts);
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("reading group offsets", e);
        }
        return out;
    }

    private static Map<String, Long> firstPartition(Map<String, Map<Integer, OffsetAndMetadata>> offsets) {
        Map<String, Long> out = new HashMap<>();
        offsets.forEach((group, parts) -> {
            OffsetAndMetadata om = parts.get(0);
            if (om != null) {
                out.put(group, om.offset());
            }
        });
        return out;
    }
}
