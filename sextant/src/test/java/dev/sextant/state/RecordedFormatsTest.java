package dev.sextant.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sextant.apply.OffsetOwnership;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.deadletter.DeadLetterSerde;
import dev.sextant.domain.GroupKind;
import dev.sextant.domain.Reason;
import dev.sextant.testing.RecordedFormats;
import dev.sextant.testing.RecordedFormats.Template;
import dev.sextant.translate.OffsetSyncPoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Bytes;
import org.junit.jupiter.api.Test;

/**
 * Every format Sextant persists, as the builds recorded in {@code upgrade/recorded-formats.txt} wrote it, reads back
 * to the values it was written with; and today's build still writes the 0.1.0 baseline (commit 15fc7f1) byte for byte.
 * When that second half fails, a persisted format changed: record the new one beside the old (the old lines stay, and
 * must still read), and say in docs/operations.md what an upgrade from the old one does.
 */
class RecordedFormatsTest {

    private static final RecordedFormats RECORDED = RecordedFormats.load();
    private static final Uuid TOPIC_ID = Uuid.fromString("q1kD7lBHT9-P1nQmXYx7xA");
    private static final Map<String, Object> RUN = Map.ofEntries(
            Map.entry("app", "sextant-prod"), Map.entry("group", "orders-app"), Map.entry("topic", "orders"),
            Map.entry("partition", 2), Map.entry("source", 1_200L), Map.entry("destination", 1_180L),
            Map.entry("commitTime", 1_764_900_000_000L), Map.entry("appliedAt", 1_764_900_000_250L),
            Map.entry("commitLogOffset", 88_001L), Map.entry("sourceCluster", "Zq9aSourceCluster0000w"),
            Map.entry("upstream", 1_150L), Map.entry("downstream", 1_130L), Map.entry("topicId", TOPIC_ID),
            Map.entry("cluster", "Dst9aDestCluster000001"), Map.entry("cutAt", 1_764_900_100_000L),
            Map.entry("fenceMs", 5_000L), Map.entry("destinationTopic", "source.orders"),
            Map.entry("reason", "GROUP_ACTIVE"), Map.entry("detail", "the group has 2 members on the destination"),
            Map.entry("detectedAt", 1_764_900_000_300L), Map.entry("instance", "sextant-0:8080"));

    @Test
    void positionsOfTheBaselineReadBackAndAreStillWrittenSo() {
        Template recorded = RECORDED.template("position.applied@15fc7f1");
        PartitionPosition expected = new PartitionPosition(1_200, 1_764_900_000_000L, 1_180, 0, 1_180, 1_200,
                1_764_900_000_250L, -1, PositionStatus.APPLIED, 88_001);
        assertEquals(new PositionKey("orders-app", "orders", 2), PositionKey.fromBytes(Bytes.wrap(recorded.key(RUN))));
        assertEquals(expected, PartitionPosition.fromBytes(recorded.value(RUN)));
        assertArrayEquals(recorded.key(RUN), new PositionKey("orders-app", "orders", 2).toBytes().get());
        assertArrayEquals(recorded.value(RUN), expected.toBytes());
    }

    @Test
    void positionsWrittenBeforeTheCommitsLogOffsetReadWithItUnknown() {
        PartitionPosition read = PartitionPosition.fromBytes(RECORDED.template("position.applied@e8b0495").value(RUN));
        assertEquals(new PartitionPosition(1_200, 1_764_900_000_000L, 1_180, 0, 1_180, 1_200, 1_764_900_000_250L, -1,
                PositionStatus.APPLIED, -1), read);
    }

    /**
     * The status byte of every status as commit 15fc7f1 wrote it (its ordinal then). A status added to the enum is
     * appended to the table in PartitionPosition, wherever it goes in the enum, so none of these bytes changes meaning.
     */
    @Test
    void everyStatusKeepsTheByteTheBaselineWroteForIt() {
        List<String> baseline = List.of("PENDING", "APPLIED", "UNTRANSLATABLE", "TOPIC_NOT_MIRRORED", "GROUP_ACTIVE",
                "TYPE_CONFLICT", "DESTINATION_UNSUPPORTED", "SOURCE_CHANGED", "DESTINATION_DIVERGED", "REWIND_SKIPPED",
                "SUPERSEDED");
        for (int code = 0; code < baseline.size(); code++) {
            PositionStatus status = PositionStatus.valueOf(baseline.get(code));
            assertEquals(code, PartitionPosition.statusCode(status), status.name());
            byte[] raw = PartitionPosition.committed(5, 6, 7).withStatus(status, 8).toBytes();
            assertEquals(code, raw[1 + 8 * 8], status.name());
            assertEquals(status, PartitionPosition.fromBytes(raw).status());
        }
        for (PositionStatus status : PositionStatus.values()) { // a status added since has a byte of its own
            assertEquals(status, PartitionPosition.fromBytes(PartitionPosition.committed(5, 6, 7)
                    .withStatus(status, 8).toBytes()).status());
        }
    }

    @Test
    void groupRecordsOfTheBaselineReadBackAndAreStillWrittenSo() {
        Template recorded = RECORDED.template("group.consumer@15fc7f1");
        GroupRecord expected = new GroupRecord(GroupKind.CONSUMER, "consumer", null, Map.of());
        assertEquals("orders-app", new String(recorded.key(RUN)));
        assertEquals(expected, GroupRecord.fromBytes(recorded.value(RUN)));
        assertArrayEquals(recorded.value(RUN), expected.toBytes());
    }

    @Test
    void marksOfEveryRecordedBuildNameTheirCommit() {
        OffsetOwnership ownership = new OffsetOwnership("sextant-prod", "Zq9aSourceCluster0000w");
        assertEquals(new OffsetOwnership.Mark(1_764_900_000_000L, 1_200, 0, 88_001, "Zq9aSourceCluster0000w"),
                ownership.mark(RECORDED.template("mark@15fc7f1").text(RUN)).orElseThrow());
        assertEquals(new OffsetOwnership.Mark(1_764_900_000_000L, 1_200, 0, -1, null),
                ownership.mark(RECORDED.template("mark@e8b0495").text(RUN)).orElseThrow());
        assertEquals("sextant/sextant-prod c=Zq9aSourceCluster0000w t=1764900000000 b=0 src=1200",
                ownership.metadataFor(1_764_900_000_000L, 1_200, 0));
    }

    @Test
    void historyRecordsOfTheBaselineReplayAndAreStillWrittenSo() {
        List<String> replayed = new ArrayList<>();
        WritableSyncHistory history = new WritableSyncHistory() {
            @Override
            public void put(OffsetSyncPoint sync) {
                replayed.add("sync " + sync);
            }

            @Override
            public void delete(String topic, int partition, long upstreamOffset) {
                replayed.add("delete");
            }

            @Override
            public void deletePartition(String topic, int partition) {
                replayed.add("reset");
            }

            @Override
            public void incarnation(String topic, Uuid topicId) {
                replayed.add("incarnation " + topic + " " + topicId);
            }

            @Override
            public void mirrorIncarnation(String topic, Uuid topicId) {
                replayed.add("mirror " + topic + " " + topicId);
            }

            @Override
            public void destinationCluster(String clusterId) {
                replayed.add("cluster " + clusterId);
            }

            @Override
            public Optional<OffsetSyncPoint> latestAtOrBelow(String topic, int partition, long upstreamOffset) {
                throw new UnsupportedOperationException();
            }
        };
        for (String name : List.of("history.sync", "history.incarnation", "history.mirror-incarnation",
                "history.destination-cluster")) {
            Template recorded = RECORDED.template(name + "@15fc7f1");
            HistoryRecords.replay(Bytes.wrap(recorded.key(RUN)), recorded.value(RUN), history);
        }
        assertEquals(List.of("sync " + new OffsetSyncPoint("orders", 2, 1_150, 1_130), "incarnation orders " + TOPIC_ID,
                "mirror orders " + TOPIC_ID, "cluster Dst9aDestCluster000001"), replayed);
        assertArrayEquals(RECORDED.template("history.sync@15fc7f1").key(RUN),
                OffsetSyncKeys.key("orders", 2, 1_150).get());
        assertArrayEquals(RECORDED.template("history.sync@15fc7f1").value(RUN), OffsetSyncKeys.value(1_130));
        assertArrayEquals(RECORDED.template("history.incarnation@15fc7f1").key(RUN),
                OffsetSyncKeys.incarnationKey("orders").get());
        assertArrayEquals(RECORDED.template("history.mirror-incarnation@15fc7f1").key(RUN),
                OffsetSyncKeys.mirrorIncarnationKey("orders").get());
        assertArrayEquals(RECORDED.template("history.incarnation@15fc7f1").value(RUN),
                OffsetSyncKeys.incarnationValue(TOPIC_ID));
        assertArrayEquals(RECORDED.template("history.destination-cluster@15fc7f1").key(RUN),
                OffsetSyncKeys.destinationClusterKey().get());
        assertArrayEquals(RECORDED.template("history.destination-cluster@15fc7f1").value(RUN),
                OffsetSyncKeys.clusterValue("Dst9aDestCluster000001"));
    }

    @Test
    void cutoversOfTheBaselineReadBackAndAreStillWrittenSo() {
        Template recorded = RECORDED.template("cutover.one-partition@15fc7f1");
        CutoverRecord expected = new CutoverRecord("orders-app", "consumer", 1_764_900_100_000L, 5_000,
                "Zq9aSourceCluster0000w", List.of(new CutoverRecord.Partition("orders", 2, 1_200, "source.orders",
                1_180, "exact", 0L)));
        assertArrayEquals(CutoverRecord.key("orders-app"), recorded.key(RUN));
        assertEquals(expected, CutoverRecord.fromBytes(recorded.value(RUN)));
        assertArrayEquals(recorded.value(RUN), expected.toBytes());
    }

    @Test
    void deadLettersOfTheBaselineReadBackAndAreStillWrittenSo() {
        Template recorded = RECORDED.template("dead-letter.one-partition@15fc7f1");
        DeadLetterRecord expected = new DeadLetterRecord("orders-app", "consumer", Reason.GROUP_ACTIVE,
                List.of(new DeadLetterRecord.PartitionDetail("orders", 2, 1_200L, 1_180L, null)),
                "the group has 2 members on the destination", 1_764_900_000_000L, 1_764_900_000_300L,
                "sextant-0:8080");
        DeadLetterSerde serde = new DeadLetterSerde();
        assertEquals(expected, serde.deserializer().deserialize("sextant.conflicts", recorded.value(RUN)));
        assertArrayEquals(recorded.value(RUN), serde.serializer().serialize("sextant.conflicts", expected));
    }
}
