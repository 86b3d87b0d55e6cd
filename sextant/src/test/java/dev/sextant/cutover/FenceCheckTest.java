package dev.sextant.cutover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.source.CommitWatch;
import dev.sextant.source.SourceGroup;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class FenceCheckTest {

    private static final GroupState EMPTY = GroupState.EMPTY;
    private static final TopicPartition P0 = new TopicPartition("orders", 0);

    private static SourceGroup group(GroupState state, List<String> members, long offset) {
        return new SourceGroup("g", "consumer", state, members, Map.of(P0, offset));
    }

    @Test
    void aGroupThatStoodStillHolds() {
        assertEquals(Optional.empty(), FenceCheck.check(group(EMPTY, List.of(), 10), group(EMPTY, List.of(), 10),
                List.of(), 30_000));
    }

    @Test
    void membersOnTheSourceAreNamed() {
        FenceCheck.Breach breach = FenceCheck.members(group(GroupState.STABLE, List.of("app-1/10.0.0.1"), 10))
                .orElseThrow();
        assertEquals(FenceCheck.Status.ACTIVE_ON_SOURCE, breach.status());
        assertTrue(breach.message().contains("app-1/10.0.0.1") && breach.message().contains("Stable"),
                breach.message());
        assertEquals(FenceCheck.Status.ACTIVE_ON_SOURCE, FenceCheck.check(group(EMPTY, List.of(), 10),
                group(GroupState.PREPARING_REBALANCE, List.of(), 10), List.of(), 1).orElseThrow().status(),
                "a member that joined during the check");
    }

    @Test
    void aCommitOfTheSameOffsetStillCommits() {
        CommitWatch.Commit again = new CommitWatch.Commit("g", P0, 10, 1_700_000_000_000L);
        FenceCheck.Breach breach = FenceCheck.check(group(EMPTY, List.of(), 10), group(EMPTY, List.of(), 10),
                List.of(again), 30_000).orElseThrow();
        assertEquals(FenceCheck.Status.STILL_COMMITTING, breach.status());
        assertTrue(breach.message().contains("orders-0 offset 10"), breach.message());
    }

    @Test
    void movedOffsetsAreNamedEvenWithoutASeenCommit() {
        FenceCheck.Breach breach = FenceCheck.check(group(EMPTY, List.of(), 10), group(EMPTY, List.of(), 12),
                List.of(), 30_000).orElseThrow();
        assertEquals(FenceCheck.Status.STILL_COMMITTING, breach.status());
        assertTrue(breach.message().contains("orders-0 10 -> 12"), breach.message());
    }
}
