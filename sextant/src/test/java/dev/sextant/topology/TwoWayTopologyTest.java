package dev.sextant.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.sextant.testing.CoordinatorRecords;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * In a two-way setup each direction leaves alone what is the other's: commits that carry a Sextant's mark (the other
 * direction wrote them), and commits on mirrors of the destination's own topics (their records came from there). The
 * fixture's destination alias is {@code destination}: {@code destination.payments} on the source is a mirror of the
 * destination's {@code payments}.
 */
class TwoWayTopologyTest extends GroupSyncFixture {

    @Test
    void aCommitASextantWroteIsNeverSyncedBack() {
        start(true, true);
        destination.topic("source.orders", 1);
        pipe(commits, CoordinatorRecords.offsetCommit("billing", "orders", 0, 40, clock.millis(),
                "sextant/other-direction c=abc t=1 b=0 src=40"));
        commit("shipping", "orders", 0, 7);
        flush();
        assertNull(destination.committed("billing", "source.orders", 0), "the other direction's write stays there");
        assertEquals(7L, destination.committed("shipping", "source.orders", 0), "consumers' commits sync");
        assertEquals(1.0, registry.get("sextant.records.filtered").tag("by", "sextant-mark").counter().count());
        assertNull(position("billing", "orders", 0));
        assertEquals(List.of(), deadLetters.readValuesToList(), "and nothing is reported");
    }

    @Test
    void aCommitOnAMirrorOfTheDestinationsOwnTopicIsNotSynced() {
        twoWay = true;
        start(true, true);
        destination.topic("source.orders", 1);
        destination.topic("source.destination.payments", 1);
        commit("billing", "destination.payments", 0, 12);
        commit("billing", "orders", 0, 30);
        flush();
        tick(10_000);
        flush();
        assertNull(destination.committed("billing", "source.destination.payments", 0));
        assertEquals(30L, destination.committed("billing", "source.orders", 0));
        assertEquals(1.0, registry.get("sextant.records.filtered").tag("by", "from-destination").counter().count());
        assertEquals(List.of(), deadLetters.readValuesToList(), "no TOPIC_NOT_MIRRORED or UNTRANSLATABLE noise");
    }
}
