package dev.sextant.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.source.PolledCommits.Change;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * The Admin API poll's changes: a new or moved commit, a deleted offset, a group gone; nothing for a group whose
 * offsets could not be read or for what was handed on already; a failed write found again; a group forgotten when its
 * task moves away handed on whole when it comes back.
 */
class PolledCommitsTest {

    private static final TopicPartition P0 = new TopicPartition("orders", 0);
    private static final TopicPartition P1 = new TopicPartition("orders", 1);

    private static OffsetAndMetadata at(long offset) {
        return new OffsetAndMetadata(offset, Optional.of(3), "");
    }

    /** Hands on every change, as a poll whose writes all succeeded. */
    private static List<Change> poll(PolledCommits polled, Set<String> listed,
                                     Map<String, Map<TopicPartition, OffsetAndMetadata>> offsets) {
        List<Change> changes = polled.changes(listed, offsets);
        changes.forEach(polled::handedOn);
        return changes;
    }

    @Test
    void newAndMovedCommitsThenADeletionThenAGroupGone() {
        PolledCommits polled = new PolledCommits();
        assertEquals(List.of(new Change("billing", P0, at(10))),
                poll(polled, Set.of("billing"), Map.of("billing", Map.of(P0, at(10)))));
        assertEquals(List.of(), poll(polled, Set.of("billing"), Map.of("billing", Map.of(P0, at(10)))),
                "nothing changed, nothing handed on");
        assertEquals(Set.of(new Change("billing", P0, at(12)), new Change("billing", P1, at(3))),
                Set.copyOf(poll(polled, Set.of("billing"), Map.of("billing", Map.of(P0, at(12), P1, at(3))))));
        assertEquals(List.of(new Change("billing", P1, null)),
                poll(polled, Set.of("billing"), Map.of("billing", Map.of(P0, at(12)))), "P1's offset deleted");
        assertEquals(List.of(new Change("billing", P0, null)), poll(polled, Set.of(), Map.of()), "the group gone");
        assertEquals(0, polled.groups());
    }

    @Test
    void metadataOrEpochAloneIsAChange() {
        PolledCommits polled = new PolledCommits();
        poll(polled, Set.of("g"), Map.of("g", Map.of(P0, at(10))));
        OffsetAndMetadata marked = new OffsetAndMetadata(10, Optional.of(3), "sextant/other");
        assertEquals(List.of(new Change("g", P0, marked)), poll(polled, Set.of("g"), Map.of("g", Map.of(P0, marked))));
    }

    @Test
    void aGroupWhoseOffsetsCouldNotBeReadChangesNothing() {
        PolledCommits polled = new PolledCommits();
        poll(polled, Set.of("g"), Map.of("g", Map.of(P0, at(10))));
        assertEquals(List.of(), poll(polled, Set.of("g"), Map.of()), "listed, not read: no deletion");
    }

    @Test
    void aChangeNotWrittenIsFoundAgain() {
        PolledCommits polled = new PolledCommits();
        Map<String, Map<TopicPartition, OffsetAndMetadata>> offsets = Map.of("g", Map.of(P0, at(10)));
        assertEquals(1, polled.changes(Set.of("g"), offsets).size()); // the write failed: not handed on
        assertEquals(List.of(new Change("g", P0, at(10))), poll(polled, Set.of("g"), offsets));
    }

    @Test
    void aForgottenGroupIsHandedOnWholeAgainAndNeverDeleted() {
        PolledCommits polled = new PolledCommits();
        poll(polled, Set.of("g", "h"), Map.of("g", Map.of(P0, at(10)), "h", Map.of(P0, at(1))));
        polled.forget("g"::equals); // its task moved to another instance
        assertEquals(List.of(), poll(polled, Set.of("h"), Map.of("h", Map.of(P0, at(1)))),
                "not listed here any more, and no deletion written for it");
        assertEquals(List.of(new Change("g", P0, at(10))),
                poll(polled, Set.of("g", "h"), Map.of("g", Map.of(P0, at(10)), "h", Map.of(P0, at(1)))));
    }

    /** Over random polls, what was handed on always equals the last poll of every group read. */
    @Test
    void whatWasHandedOnFollowsThePolls() {
        Random random = new Random(7);
        PolledCommits polled = new PolledCommits();
        Map<String, Map<TopicPartition, OffsetAndMetadata>> model = new HashMap<>();
        for (int round = 0; round < 500; round++) {
            Map<String, Map<TopicPartition, OffsetAndMetadata>> offsets = new HashMap<>();
            for (int g = 0; g < 5; g++) {
                if (random.nextInt(4) == 0) {
                    continue; // not listed this round: gone
                }
                Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
                for (int p = 0; p < 3; p++) {
                    if (random.nextBoolean()) {
                        committed.put(new TopicPartition("t", p), at(random.nextInt(5)));
                    }
                }
                offsets.put("g" + g, committed);
            }
            for (Change change : poll(polled, offsets.keySet(), offsets)) {
                Map<TopicPartition, OffsetAndMetadata> before = model.computeIfAbsent(change.group(),
                        g -> new HashMap<>());
                assertTrue(change.deleted() ? before.containsKey(change.partition())
                        : !change.committed().equals(before.get(change.partition())), change::toString);
                if (change.deleted()) {
                    before.remove(change.partition());
                } else {
                    before.put(change.partition(), change.committed());
                }
            }
            model.values().removeIf(Map::isEmpty);
            Map<String, Map<TopicPartition, OffsetAndMetadata>> expected = new HashMap<>(offsets);
            expected.values().removeIf(Map::isEmpty);
            assertEquals(expected, model, "round " + round);
        }
    }
}
