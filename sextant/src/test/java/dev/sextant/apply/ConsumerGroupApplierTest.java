package dev.sextant.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.acl.AccessDenials;
import dev.sextant.domain.MirrorRewind;
import dev.sextant.domain.Reason;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import dev.sextant.testing.InMemoryDestination;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class ConsumerGroupApplierTest {

    private static final OffsetOwnership OWNERSHIP = new OffsetOwnership("app");
    private static final OverwritePolicy ADOPT_FORWARD = new OverwritePolicy(true, true);
    private static final TopicPartition P0 = new TopicPartition("source.orders", 0);
    private static final TopicPartition P1 = new TopicPartition("source.orders", 1);

    private final InMemoryDestination destination = new InMemoryDestination();
    private final ConsumerGroupApplier applier = applier(OWNERSHIP, OverwritePolicy.DEFAULTS);

    private ConsumerGroupApplier applier(OffsetOwnership ownership, OverwritePolicy overwrites) {
        return new ConsumerGroupApplier(destination, ownership, overwrites, new AccessDenials(Clock.systemUTC()));
    }

    private static PlannedPartition planned(int partition, long sourceOffset, long commitTime) {
        return new PlannedPartition(new PositionKey("billing", "orders", partition),
                new TopicPartition("source.orders", partition), sourceOffset, commitTime, sourceOffset, -1, -1, false);
    }

    @Test
    void aWriteWhoseLeaseRanOutIsNotSent() throws Exception {
        destination.topic("source.orders", 2);
        // the task was revoked, or froze past its lease, while the destination's offsets were being read
        WriteLease lease = () -> false;
        CompletableFuture<GroupOutcome> outcome = new CompletableFuture<>();
        applier.apply(Map.of("billing", List.of(planned(0, 100, 1_000))), lease, outcome::complete);

        GroupOutcome result = outcome.get(5, TimeUnit.SECONDS);
        assertTrue(result.retry(), "retried from a new plan, if the task still owns the group");
        assertEquals(0, destination.alterCalls.get(), "nothing sent");
        assertNull(destination.committed("billing", "source.orders", 0));

        CompletableFuture<GroupOutcome> again = new CompletableFuture<>();
        applier.apply(Map.of("billing", List.of(planned(0, 100, 1_000))), WriteLease.ALWAYS, again::complete);
        assertTrue(!again.get(5, TimeUnit.SECONDS).retry());
        assertEquals(100L, destination.committed("billing", "source.orders", 0));
    }

    @Test
    void aForeignOffsetOnAPartitionTheWriteDoesNotTouchRefusesTheWholeGroup() throws Exception {
        destination.topic("source.orders", 2);
        // a failed-over consumer (assign(): the group never becomes active) committed partition 0 on its own;
        // partition 1 still holds Sextant's write
        destination.offsets.put("billing", new ConcurrentHashMap<>(Map.of(
                P0, new OffsetAndMetadata(70, ""),
                P1, new OffsetAndMetadata(50, OWNERSHIP.metadataFor(900, 50)))));

        GroupOutcome outcome = apply(applier, List.of(planned(1, 120, 1_000)));

        assertEquals(Reason.DESTINATION_DIVERGED, outcome.reason(), outcome.toString());
        assertTrue(outcome.detail().contains("source.orders-0=70"), outcome.detail());
        assertEquals(50L, destination.committed("billing", "source.orders", 1), "the group is theirs as a whole");
        assertEquals(0, destination.alterCalls.get());

        // adopt-forward takes a group over whole or not at all: partition 0, outside the write, keeps it theirs
        ConsumerGroupApplier adopting = applier(OWNERSHIP, ADOPT_FORWARD);
        CompletableFuture<GroupOutcome> refused = new CompletableFuture<>();
        adopting.apply(Map.of("billing", List.of(planned(1, 120, 1_000))), refused::complete);
        assertEquals(Reason.DESTINATION_DIVERGED, refused.get(5, TimeUnit.SECONDS).reason(),
                "a group partly taken over on the target is not written on its other partitions");
        assertEquals(50L, destination.committed("billing", "source.orders", 1));

        // with every foreign offset in the write, at or below its translation, the group is taken over whole
        CompletableFuture<GroupOutcome> adopted = new CompletableFuture<>();
        adopting.apply(Map.of("billing", List.of(planned(0, 90, 1_000), planned(1, 120, 1_000))),
                adopted::complete);
        assertNull(adopted.get(5, TimeUnit.SECONDS).reason());
        assertEquals(90L, destination.committed("billing", "source.orders", 0));
        assertEquals(120L, destination.committed("billing", "source.orders", 1));
    }

    @Test
    void aCommitReplayedInTheSameMillisecondIsNotWrittenOverTheNewerOne() throws Exception {
        destination.topic("source.orders", 2);
        PositionKey key = new PositionKey("billing", "orders", 0);
        assertNull(apply(applier, List.of(new PlannedPartition(key, P0, 200, 1_000, 200, 0, 41, false))).reason());
        GroupOutcome replayed = apply(applier, List.of(new PlannedPartition(key, P0, 150, 1_000, 150, 0, 40, false)));
        assertEquals(PositionStatus.SUPERSEDED, replayed.partitions().get(key).status(),
                "the log orders the two, the clock cannot");
        assertEquals(200L, destination.committed("billing", "source.orders", 0));
    }

    @Test
    void aBoundedPlanBelowAnExactOffsetOfTheSameOrAnOlderCommitKeepsTheExactOne() throws Exception {
        destination.topic("source.orders", 2);
        PositionKey key = new PositionKey("billing", "orders", 0);
        // commit 200 (log offset 41) written exact at 530 by an instance whose proof a restart lost
        assertNull(apply(applier, List.of(new PlannedPartition(key, P0, 200, 1_000, 530, 0, 41, false))).reason());

        String exactMark = destination.offsets.get("billing").get(P0).metadata();

        // the same commit replayed after the restart (or a refresh), translated bounded without the proof
        GroupOutcome same = apply(applier, List.of(new PlannedPartition(key, P0, 200, 1_000, 521, 9, 41, false)));
        assertEquals(new GroupOutcome.PartitionOutcome(PositionStatus.APPLIED, 530, true, 0),
                same.partitions().get(key), "kept exact, not moved back, and written again as it stands");
        // a newer commit whose bounded translation lies below the older commit's exact one
        GroupOutcome newer = apply(applier, List.of(new PlannedPartition(key, P0, 207, 1_100, 525, 12, 42, false)));
        assertEquals(new GroupOutcome.PartitionOutcome(PositionStatus.APPLIED, 530, true, 7),
                newer.partitions().get(key), "record 200 is at 530: commit 207 resumes there, replaying at most 7");
        assertEquals(530L, destination.committed("billing", "source.orders", 0));
        assertEquals(exactMark, destination.offsets.get("billing").get(P0).metadata(), "the floor's own mark");
        assertEquals(3, destination.alterCalls.get(), "a kept floor is written again: its commit time moves, so it "
                + "is a refresh, and the offset never reaches the destination's retention unwritten");

        // a rewind of the source (an offset reset) is followed below it, as sync.rewind says
        GroupOutcome rewound = apply(applier, List.of(new PlannedPartition(key, P0, 150, 1_200, 480, 3, 43, false)));
        assertEquals(PositionStatus.APPLIED, rewound.partitions().get(key).status());
        assertEquals(480L, destination.committed("billing", "source.orders", 0));
    }

    @Test
    void anOffsetWrittenThroughSyncsAMirrorRewindContradictsIsWrittenOverWhateverItSays() throws Exception {
        destination.topic("source.orders", 2);
        PositionKey key = new PositionKey("billing", "orders", 0);
        // commit 1,400 written exact at 1,400; then the mirror went back to 1,000 (an unclean leader election), and
        // MirrorMaker 2 copied the source's 1,500 there: 1,400 now holds the source's 1,900
        assertNull(apply(applier, List.of(new PlannedPartition(key, P0, 1_400, 1_000, 1_400, 0, 41, false))).reason());
        MirrorRewind rewind = new MirrorRewind(1_500, 1_000);

        // planned again through the syncs left: bounded, below the old exact offset; under sync.rewind=never too
        ConsumerGroupApplier never = applier(OWNERSHIP, new OverwritePolicy(false, false));
        GroupOutcome again = apply(never, List.of(new PlannedPartition(key, P0, 1_400, 1_000, 910, 489, 41, false,
                rewind)));
        assertEquals(new GroupOutcome.PartitionOutcome(PositionStatus.APPLIED, 910, true), again.partitions().get(key),
                "no floor: it points past records the group never read; and not a rewind of the source group");
        assertEquals(910L, destination.committed("billing", "source.orders", 0));

        // an exact offset the rewind does not outdate stays a floor: one at or past the rewind's source offset ...
        assertNull(apply(applier, List.of(new PlannedPartition(key, P0, 1_600, 1_100, 1_100, 0, 42, false, rewind)))
                .reason());
        GroupOutcome later = apply(applier, List.of(new PlannedPartition(key, P0, 1_600, 1_100, 1_051, 49, 42, false,
                rewind)));
        assertEquals(1_100L, later.partitions().get(key).destinationOffset(), "written after the rewind");
        // ... and one below where the mirror went back
        assertNull(apply(applier, List.of(new PlannedPartition(key, P0, 900, 1_200, 900, 0, 43, false, rewind)))
                .reason());
        GroupOutcome below = apply(applier, List.of(new PlannedPartition(key, P0, 900, 1_200, 851, 49, 43, false,
                rewind)));
        assertEquals(900L, below.partitions().get(key).destinationOffset(), "its records are where they were");
    }

    @Test
    void aBoundedOffsetIsNoFloor() throws Exception {
        destination.topic("source.orders", 2);
        PositionKey key = new PositionKey("billing", "orders", 0);
        assertNull(apply(applier, List.of(new PlannedPartition(key, P0, 200, 1_000, 530, 4, 41, false))).reason());
        apply(applier, List.of(new PlannedPartition(key, P0, 200, 1_000, 521, 9, 41, false)));
        assertEquals(521L, destination.committed("billing", "source.orders", 0),
                "only an exact offset proves where the record is");
    }

    @Test
    void overwrittenNamesThePartitionsWhoseDestinationMarkCarriesAnOlderCommit() throws Exception {
        destination.topic("source.orders", 2);
        destination.offsets.put("billing", new ConcurrentHashMap<>(Map.of(
                P0, new OffsetAndMetadata(80, OWNERSHIP.metadataFor(900, 80)), // older than applied (1,000)
                P1, new OffsetAndMetadata(120, OWNERSHIP.metadataFor(1_100, 120))))); // newer
        destination.offsets.put("audit", new ConcurrentHashMap<>(Map.of(
                P0, new OffsetAndMetadata(10, "a consumer's own commit"))));

        List<PositionKey> older = applier.overwritten(Map.of(
                "billing", List.of(planned(0, 100, 1_000), planned(1, 100, 1_000)),
                "audit", List.of(new PlannedPartition(new PositionKey("audit", "orders", 0), P0, 50, 1_000, 50, -1, -1,
                        false))))
                .get(5, TimeUnit.SECONDS);

        assertEquals(List.of(new PositionKey("billing", "orders", 0)), older);
    }

    @Test
    void underAdoptForwardOverwrittenAlsoNamesForeignOffsetsAtOrBelowTheTranslation() throws Exception {
        destination.topic("source.orders", 2);
        ConsumerGroupApplier adopting = applier(OWNERSHIP, ADOPT_FORWARD);
        // after Sextant took the groups over, MirrorMaker 2's old task wrote over them (no mark): billing's partition
        // 0 back, its partition 1 at the same offset; audit's partition 0 forward of the translation
        destination.offsets.put("billing", new ConcurrentHashMap<>(Map.of(
                P0, new OffsetAndMetadata(40, ""), P1, new OffsetAndMetadata(100, ""))));
        destination.offsets.put("audit", new ConcurrentHashMap<>(Map.of(P0, new OffsetAndMetadata(130, ""))));
        Map<String, List<PlannedPartition>> applied = Map.of(
                "billing", List.of(planned(0, 100, 1_000), planned(1, 100, 1_000)),
                "audit", List.of(new PlannedPartition(new PositionKey("audit", "orders", 0), P0, 100, 1_000, 100, -1,
                        -1, false)));

        assertEquals(Set.of(new PositionKey("billing", "orders", 0), new PositionKey("billing", "orders", 1)),
                Set.copyOf(adopting.overwritten(applied).get(5, TimeUnit.SECONDS)),
                "behind, or the same offset under another writer's name: written (and taken over) again; ahead: "
                        + "left for the next commit to decide");
        assertEquals(List.of(), applier.overwritten(applied).get(5, TimeUnit.SECONDS),
                "refuse (the default) never writes over foreign offsets, so it does not audit them");
    }

    @Test
    void adoptForwardTakesOverForeignOffsetsOnlyWhenTheTranslationIsAtOrAboveThem() throws Exception {
        destination.topic("source.orders", 2);
        ConsumerGroupApplier adopting = applier(OWNERSHIP, ADOPT_FORWARD);
        // MirrorMaker 2's group sync wrote these (no mark)
        destination.offsets.put("billing", new ConcurrentHashMap<>(Map.of(
                P0, new OffsetAndMetadata(90, ""), P1, new OffsetAndMetadata(100, ""))));

        GroupOutcome below = apply(adopting, List.of(planned(0, 95, 1_000), planned(1, 99, 1_000)));
        assertEquals(Reason.DESTINATION_DIVERGED, below.reason(),
                "partition 1 would move back from 100 to 99: the whole group stays refused");
        assertEquals(90L, destination.committed("billing", "source.orders", 0), "nothing written");

        GroupOutcome forward = apply(adopting, List.of(planned(0, 95, 2_000), planned(1, 100, 2_000)));
        assertNull(forward.reason());
        assertEquals(95L, destination.committed("billing", "source.orders", 0));
        assertEquals(100L, destination.committed("billing", "source.orders", 1), "equal is taken over too");
        assertTrue(OWNERSHIP.owns(destination.metadata("billing", "source.orders", 1)), "Sextant's from now on");

        destination.offsets.put("audit", new ConcurrentHashMap<>(Map.of(P0, new OffsetAndMetadata(10, ""))));
        GroupOutcome refused = apply(applier, List.of(new PlannedPartition(new PositionKey("audit", "orders", 0),
                P0, 50, 1_000, 50, -1, -1, false)), "audit");
        assertEquals(Reason.DESTINATION_DIVERGED, refused.reason(), "refuse: the default");
        assertEquals(10L, destination.committed("audit", "source.orders", 0));
    }

    @Test
    void marksOfAnotherSourceClusterRefuseTheWholeGroupUntilReleased() throws Exception {
        destination.topic("source.orders", 2);
        OffsetOwnership oldSource = new OffsetOwnership("app", "OldSourceCluster");
        OffsetOwnership newSource = new OffsetOwnership("app", "NewSourceCluster");
        ConsumerGroupApplier old = applier(oldSource, OverwritePolicy.DEFAULTS);
        ConsumerGroupApplier replaced = applier(newSource, OverwritePolicy.DEFAULTS);
        PositionKey key = new PositionKey("billing", "orders", 0);
        // written from the old source: its __consumer_offsets was at 9,000
        assertNull(apply(old, List.of(new PlannedPartition(key, P0, 600, 1_000, 600, 0, 9_000, false))).reason());
        assertTrue(destination.metadata("billing", "source.orders", 0).startsWith("sextant/app c=OldSourceCluster "));

        // the new source's commit: its __consumer_offsets started again at 0
        GroupOutcome refused = apply(replaced, List.of(new PlannedPartition(key, P0, 1_200, 5_000, 1_200, 0, 3,
                false)));
        assertEquals(Reason.SOURCE_CHANGED, refused.reason(), "not SUPERSEDED by a log position of another cluster");
        assertEquals(PositionStatus.SOURCE_CHANGED, refused.partitions().get(key).status());
        assertTrue(refused.detail().contains("OldSourceCluster") && refused.detail().contains("NewSourceCluster"),
                refused.detail());
        assertEquals(600L, destination.committed("billing", "source.orders", 0));
        assertTrue(replaced.sourceChange().problem().isPresent(), "said while it lasts");

        // a partition the write does not touch refuses the group too
        GroupOutcome other = apply(replaced, List.of(new PlannedPartition(new PositionKey("billing", "orders", 1),
                P1, 10, 5_000, 10, 0, 4, false)));
        assertEquals(Reason.SOURCE_CHANGED, other.reason());

        // released by the operator: the same offset under a mark naming no commit
        OffsetOwnership.Mark mark = newSource.mark(destination.metadata("billing", "source.orders", 0)).orElseThrow();
        destination.offsets.get("billing").put(P0, new OffsetAndMetadata(600, newSource.released(mark)));
        GroupOutcome written = apply(replaced, List.of(new PlannedPartition(key, P0, 1_200, 5_000, 1_200, 0, 3,
                false)));
        assertNull(written.reason(), written.toString());
        assertEquals(1_200L, destination.committed("billing", "source.orders", 0));
        assertTrue(destination.metadata("billing", "source.orders", 0).startsWith("sextant/app c=NewSourceCluster "));
    }

    @Test
    void marksWithoutASourceClusterAreOrderedAsBefore() throws Exception {
        destination.topic("source.orders", 2);
        ConsumerGroupApplier knowing = applier(new OffsetOwnership("app", "Cluster"), OverwritePolicy.DEFAULTS);
        PositionKey key = new PositionKey("billing", "orders", 0);
        assertNull(apply(applier, List.of(new PlannedPartition(key, P0, 200, 1_000, 200, 0, 41, false))).reason());
        GroupOutcome replayed = apply(knowing, List.of(new PlannedPartition(key, P0, 150, 1_000, 150, 0, 40,
                false)));
        assertEquals(PositionStatus.SUPERSEDED, replayed.partitions().get(key).status(),
                "a mark of an older release names no cluster: ordered by the log, as it was");
    }

    private static GroupOutcome apply(ConsumerGroupApplier applier, List<PlannedPartition> parts) throws Exception {
        return apply(applier, parts, "billing");
    }

    private static GroupOutcome apply(ConsumerGroupApplier applier, List<PlannedPartition> parts, String group)
            throws Exception {
        CompletableFuture<GroupOutcome> outcome = new CompletableFuture<>();
        applier.apply(Map.of(group, parts), outcome::complete);
        return outcome.get(5, TimeUnit.SECONDS);
    }
}
