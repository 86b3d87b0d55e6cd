package dev.sextant.cutover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.apply.ChainedWrites;
import dev.sextant.config.TopicRoutes;
import dev.sextant.source.SourceGroup;
import dev.sextant.state.CutoverRecord;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.mirror.DefaultReplicationPolicy;
import org.junit.jupiter.api.Test;

/**
 * The partitions a B-to-A Sextant never moves (source alias {@code destination}, destination alias {@code source}):
 * {@code source.orders} is B's mirror of A's {@code orders}, {@code payments} B's own topic.
 */
class UnmovedPartitionsTest {

    private static final String A = "cluster-A";
    private static final TopicPartition MIRROR0 = new TopicPartition("source.orders", 0);
    private static final TopicPartition MIRROR1 = new TopicPartition("source.orders", 1);
    private static final TopicPartition PAYMENTS = new TopicPartition("payments", 0);
    private static final String FORWARD_WRITE = "sextant/fwd c=" + A + " t=1000 o=7 b=0 src=300";

    private static TopicRoutes routes(boolean failback) {
        return new TopicRoutes(new DefaultReplicationPolicy(), "destination", "source", failback,
                topic -> !topic.startsWith("internal"));
    }

    private static SourceGroup group(Map<TopicPartition, Long> offsets, Map<TopicPartition, String> metadata) {
        return new SourceGroup("app", "consumer", GroupState.EMPTY, List.of(), offsets, metadata);
    }

    private static UnmovedPartitions.Verdict writes(SourceGroup group, Map<TopicPartition, OffsetAndMetadata> onA) {
        return UnmovedPartitions.sextantWrites(group, routes(true), onA, new ChainedWrites("back", () -> Set.of(A)),
                () -> A);
    }

    @Test
    void aTwoWayGroupOnAMirrorOfTheDestinationsTopicIsRefusedSayingWhatToDo() {
        SourceGroup reader = group(Map.of(MIRROR0, 10L, PAYMENTS, 20L), Map.of());
        String refusal = UnmovedPartitions.mirrorsOfDestination(reader, routes(false)).refusal();
        assertTrue(refusal.contains("source.orders-0") && refusal.contains("failback.history.topic")
                && refusal.contains("topics.exclude"), refusal);
        assertNull(UnmovedPartitions.mirrorsOfDestination(reader, routes(true)).refusal(), "failback moves it");
    }

    @Test
    void aGroupWithNoPartitionThisSextantMovesIsRefused() {
        SourceGroup filtered = group(Map.of(new TopicPartition("internal.audit", 0), 5L), Map.of());
        assertTrue(UnmovedPartitions.mirrorsOfDestination(filtered, routes(true)).refusal()
                .contains("nothing to cut over"));
    }

    @Test
    void aPartitionStillAtTheForwardWriteIsHomeWhereTheDestinationHoldsItsOffset() {
        SourceGroup stayed = group(Map.of(MIRROR0, 302L, MIRROR1, 410L), Map.of(MIRROR0, FORWARD_WRITE));
        UnmovedPartitions.Verdict verdict = writes(stayed, Map.of(new TopicPartition("orders", 0),
                new OffsetAndMetadata(300)));
        assertNull(verdict.refusal());
        assertEquals(List.of(new CutoverRecord.Partition("source.orders", 0, 302, "orders", 300, "exact", 0L)),
                verdict.home(), "partition 1 is the consumers' commit: the sync moves it");
        assertEquals(List.of(new CutoverRecord.Partition("source.orders", 0, 302, "orders", 310, "exact", 0L)),
                writes(stayed, Map.of(new TopicPartition("orders", 0), new OffsetAndMetadata(310))).home(),
                "the consumers went on there: home at what it holds");
    }

    @Test
    void aForwardWriteTheDestinationDoesNotHoldIsRefusedNamingThePartition() {
        SourceGroup stayed = group(Map.of(MIRROR0, 302L), Map.of(MIRROR0, FORWARD_WRITE));
        String nothing = writes(stayed, Map.of()).refusal();
        assertTrue(nothing.contains("source.orders-0") && nothing.contains("holds nothing")
                && nothing.contains("--reset-offsets --to-current"), nothing);
        String below = writes(stayed, Map.of(new TopicPartition("orders", 0), new OffsetAndMetadata(120))).refusal();
        assertTrue(below.contains("at 300, and the destination holds 120"), below);
    }

    @Test
    void aWriteFromAnotherClusterThanTheDestinationIsAChainsWhichTheSyncMoves() {
        SourceGroup chained = group(Map.of(MIRROR0, 302L), Map.of(MIRROR0, "sextant/up c=cluster-C src=300"));
        UnmovedPartitions.Verdict verdict = writes(chained, Map.of());
        assertNull(verdict.refusal(), "cluster C is upstream of a chain: its write is forwarded as a commit");
        assertEquals(List.of(), verdict.home(), "and waited for like a consumer's commit, not home already");
        SourceGroup own = group(Map.of(MIRROR0, 302L), Map.of(MIRROR0, "sextant/back c=cluster-C src=300"));
        String refusal = writes(own, Map.of(new TopicPartition("orders", 0), new OffsetAndMetadata(300)))
                .refusal();
        assertTrue(refusal.contains("written from cluster cluster-C, not the destination (" + A + ")"), refusal);
        SourceGroup unnamed = group(Map.of(MIRROR0, 302L), Map.of(MIRROR0, "sextant/fwd t=1000 src=300"));
        assertEquals(1, writes(unnamed, Map.of(new TopicPartition("orders", 0), new OffsetAndMetadata(300)))
                .home().size(), "a mark naming no cluster (a failover with the source gone) is the destination's");
    }
}
