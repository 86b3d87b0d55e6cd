package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.client.SextantClient;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.Reason;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
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
import java.util.HashMap;
import java.util.Map;
import java.util.SortedSet;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Share groups moved to the destination (issue 48, items 5 and 4c), on real brokers and MirrorMaker 2. Share start
 * offsets carry no mark. A share consumer on the destination that acknowledges records often leaves the stored start
 * offset where Sextant put it, but the lag the destination reports beside it counts them: such a group is refused
 * {@code DESTINATION_DIVERGED} once its consumer left, as a consumer group is, never written over from the source. And
 * {@code sextant cutover} moves a stopped share group, whose stored start offset on the source (what the fence reads)
 * lies below the effective one the sync keeps, without waiting out its timeout.
 */
@ExtendWith(LocalClustersExtension.class)
class ShareGroupOwnershipIT {

    private static final String TOPIC = "own-orders";
    private static final String MIRROR = LocalMirrorMaker.mirroredTopic(TOPIC);
    private static final String APP = "sextant-it-share-own";
    private static final Duration SYNCED = Duration.ofSeconds(90);
    private static final ObjectMapper JSON = new ObjectMapper();

    private static LocalClusters clusters;
    private static SextantInstance sextant;

    @BeforeAll
    static void start() {
        clusters = LocalClustersExtension.clusters();
        clusters.createTopic(clusters.source(), TOPIC, 2);
        clusters.produceMirroredFromFirstSyncs(TOPIC, 2, 1_000, SYNCED); // every offset translates
        sextant = SextantInstance.start(clusters, APP, Map.of("groups.include", "own-.*"));
    }

    @AfterAll
    static void stop() {
        if (sextant != null) {
            sextant.close();
        }
    }

    @Test
    void aShareGroupItsConsumerMovedOnTheDestinationIsNotWrittenOverOnceItLeft() {
        String group = "own-drained";
        Clients.shareFromEarliest(clusters, clusters.source(), group);
        // a share fetch may hand out far more than max.poll.records (a whole partition's 1,000 was seen): a few
        // polls' worth asked, so both clusters' consumers find records left (1,200 asked once left 211 of 2,000)
        Map<Integer, Long> applied = awaitSynced(group, prefix(Clients.consumeShare(clusters.source(), group, TOPIC,
                200)));
        long left = 2 * 1_000L - applied.values().stream().mapToLong(Long::longValue).sum();
        assertTrue(left >= 100, "records left above the applied start offsets " + applied);

        // its consumer on the destination acknowledges records past what Sextant applied, then leaves: no members.
        // The coordinator often leaves the stored start offset where Sextant put it; the lag beside it tells
        Clients.consumeShare(clusters.destination(), group, MIRROR, (int) Math.min(400, left / 2));
        Map<Integer, Long> theirs = Clients.shareStartOffsets(clusters, clusters.destination(), group, MIRROR);
        long delivered = deliveredAbove(group);
        assertTrue(delivered > 0, "records delivered on the destination above " + theirs);

        // the source moves on: the sync translates the new start offsets, and must not write them there
        Clients.consumeShare(clusters.source(), group, TOPIC, 300);
        long movedAt = System.nanoTime();
        Await.until(SYNCED, "the sync refused " + group + " or wrote it", () -> refused(group)
                || !theirs.equals(Clients.shareStartOffsets(clusters, clusters.destination(), group, MIRROR)));
        long refusedMs = Duration.ofNanos(System.nanoTime() - movedAt).toMillis();
        assertEquals(theirs, Clients.shareStartOffsets(clusters, clusters.destination(), group, MIRROR),
                "the start offsets its consumer on the destination moved are not written over from the source");
        DeadLetterRecord record = DeadLetters.await(clusters, group, Reason.DESTINATION_DIVERGED, SYNCED);
        assertEquals("share", record.groupType());
        assertTrue(record.detail().contains("delivered there"), "names what its consumer did there: "
                + record.detail());
        System.out.printf("share ownership: %s applied %s; its consumer on the destination left them at %s with %d "
                + "record(s) delivered above; the source's next start offsets refused DESTINATION_DIVERGED %d ms "
                + "after they moved, nothing written (%s)%n", group, applied, theirs, delivered, refusedMs,
                record.detail());
    }

    @Test
    void aStoppedShareGroupIsCutOverThoughItsStoredStartOffsetLiesBelowTheEffectiveOne() throws Exception {
        String group = "own-cut";
        Clients.shareFromEarliest(clusters, clusters.source(), group);
        Map<Integer, Long> effective = prefix(Clients.consumeShare(clusters.source(), group, TOPIC, 500));
        Map<Integer, Long> applied = awaitSynced(group, effective);
        Map<Integer, Long> stored = Clients.shareStartOffsets(clusters, clusters.source(), group, TOPIC);
        System.out.printf("share cutover: %s stored start offsets on the source %s, effective (acknowledged prefix) "
                + "%s, applied on the destination %s%n", group, stored, effective, applied);

        String url = "http://" + sextant.app().queryAddress();
        Path config = Files.createTempFile("sextant-share-cutover", ".properties");
        Files.writeString(config, "source.bootstrap.servers=" + clusters.source().bootstrapServers()
                + "\ndestination.bootstrap.servers=" + clusters.destination().bootstrapServers()
                + "\napplication.id=" + APP + "\ngroups.include=own-.*\n");
        long started = System.nanoTime();
        Cli.Run cut = Cli.run("cutover", "-c", config.toString(), "--url", url, "--group", group,
                "--fence-check", "2s", "--timeout", "20s", "--apply", "-o", "json");
        long tookMs = Duration.ofNanos(System.nanoTime() - started).toMillis();
        JsonNode result = JSON.readTree(cut.out()).get("groups").get(0);
        assertEquals("CUT_OVER", result.get("status").asText(), "the share group is cut over: " + cut);
        assertEquals(0, cut.exit(), cut.toString());
        assertEquals("share", result.get("groupType").asText(), cut.out());
        assertEquals(applied, Clients.shareStartOffsets(clusters, clusters.destination(), group, MIRROR));
        SextantClient client = SextantClient.create(url);
        assertNotNull(client.group(group).cutOver(), "/v1/groups/G shows it cut over");

        // the source's next move is a zombie's: refused, never written
        Clients.consumeShare(clusters.source(), group, TOPIC, 200);
        DeadLetters.await(clusters, group, Reason.CUT_OVER, SYNCED);
        assertEquals(applied, Clients.shareStartOffsets(clusters, clusters.destination(), group, MIRROR),
                "a cut-over share group is not moved from the source");
        System.out.printf("share cutover: %s cut over in %d ms (fence 2 s), the destination at %s%n", group, tookMs,
                applied);
    }

    /** The sync's positions of the group show the group refused DESTINATION_DIVERGED on any partition. */
    private static boolean refused(String group) {
        return sextant.app().positions().group(group).stream()
                .anyMatch(e -> e.getValue().status() == PositionStatus.DESTINATION_DIVERGED);
    }

    /** Per partition, the contiguous acknowledged prefix from 0 (the effective start offset), where there is one. */
    private static Map<Integer, Long> prefix(Map<Integer, SortedSet<Long>> acked) {
        Map<Integer, Long> out = new HashMap<>();
        acked.forEach((p, offsets) -> out.put(p, Clients.contiguousPrefix(offsets)));
        out.values().removeIf(offset -> offset == 0);
        return out;
    }

    /** Waits until the sync applied {@code effective} on the destination; the destination's start offsets then. */
    private static Map<Integer, Long> awaitSynced(String group, Map<Integer, Long> effective) {
        try {
            return Await.value(SYNCED, group + " synced on the destination", () -> {
                Map<Integer, Long> there = Clients.shareStartOffsets(clusters, clusters.destination(), group,
                        MIRROR);
                boolean all = effective.entrySet().stream().allMatch(e -> {
                    PartitionPosition p = sextant.app().positions().get(new PositionKey(group, TOPIC, e.getKey()));
                    return p != null && p.sourceOffset() == e.getValue() && p.status() == PositionStatus.APPLIED
                            && Long.valueOf(p.appliedOffset()).equals(there.get(e.getKey()));
                });
                return all ? there : null;
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; the sync's positions: "
                    + sextant.app().positions().group(group) + "; the destination: "
                    + Clients.shareStartOffsets(clusters, clusters.destination(), group, MIRROR), e);
        }
    }

    /** Records above the start offsets delivered on the destination: its log ends, less the start offsets and lags. */
    private static long deliveredAbove(String group) {
        Map<Integer, Long> ends = clusters.endOffsets(clusters.destination(), MIRROR);
        try (Admin admin = clusters.admin(clusters.destination())) {
            long delivered = 0;
            for (var e : admin.listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec()))
                    .partitionsToOffsetInfo(group).get(30, TimeUnit.SECONDS).entrySet()) {
                SharePartitionOffsetInfo info = e.getValue();
                if (info != null && e.getKey().topic().equals(MIRROR) && info.lag().isPresent()) {
                    delivered += ends.get(e.getKey().partition()) - info.startOffset() - info.lag().get();
                }
            }
            return delivered;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
