package dev.sextant.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.sextant.testing.CoordinatorRecords;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * In a two-way setup each direction leaves alone what is the other's: commits that carry the mark of a Sextant whose
 * source is this one's destination (the other direction wrote them), and commits on mirrors of the destination's own
 * topics (their records came from there). A mark naming a third cluster is a chain's write, forwarded (issue 48, item
 * 9). The fixture's destination alias is {@code destination}: {@code destination.payments} on the source is a mirror
 * of the destination's {@code payments}; its destination cluster is {@code in-memory-cluster}.
 */
class TwoWayTopologyTest extends GroupSyncFixture {

    @Test
    void aCommitASextantWroteIsNeverSyncedBack() {
        start(true, true);
        destination.topic("source.orders", 1);
        pipe(commits, CoordinatorRecords.offsetCommit("billing", "orders", 0, 40, clock.millis(),
                "sextant/other-direction c=in-memory-cluster t=1 b=0 src=40"));
        commit("shipping", "orders", 0, 7);
        flush();
        assertNull(destination.committed("billing", "source.orders", 0), "the other direction's write stays there");
        assertEquals(7L, destination.committed("shipping", "source.orders", 0), "consumers' commits sync");
        assertEquals(1.0, registry.get("sextant.records.filtered").tag("by", "sextant-mark").counter().count());
        assertNull(position("billing", "orders", 0));
        assertEquals(List.of(), deadLetters.readValuesToList(), "and nothing is reported");
    }

    @Test
    void aWriteOfASextantUpstreamInAChainIsForwardedAndOneOfAnOlderReleaseIsNot() {
        start(true, true);
        destination.topic("source.orders", 1);
        pipe(commits, CoordinatorRecords.offsetCommit("billing", "orders", 0, 40, clock.millis(),
                "sextant/upstream c=cluster-A t=1 o=3 b=0 src=35"));
        pipe(commits, CoordinatorRecords.offsetCommit("shipping", "orders", 0, 50, clock.millis(),
                "sextant/upstream t=1 b=0 src=45"));
        pipe(commits, CoordinatorRecords.offsetCommit("audit", "orders", 0, 60, clock.millis(),
                "sextant/" + APP + " c=cluster-A t=1 b=0 src=55"));
        flush();
        assertEquals(40L, destination.committed("billing", "source.orders", 0), "cluster A is upstream: forwarded");
        assertNull(destination.committed("shipping", "source.orders", 0), "no c=: may be the reverse direction's");
        assertNull(destination.committed("audit", "source.orders", 0), "this Sextant's own mark");
        assertEquals(2.0, registry.get("sextant.records.filtered").tag("by", "sextant-mark").counter().count());
    }

    @Test
    void noMarkedCommitIsForwardedWhileTheDestinationsIdIsNotKnown() {
        destination.clusterIdFails = true;
        start(true, true);
        destination.topic("source.orders", 1);
        pipe(commits, CoordinatorRecords.offsetCommit("billing", "orders", 0, 40, clock.millis(),
                "sextant/upstream c=cluster-A t=1 b=0 src=35"));
        destination.clusterIdFails = false;
        flush();
        assertNull(destination.committed("billing", "source.orders", 0), "it might name the destination");
        assertEquals(1.0, registry.get("sextant.records.filtered").tag("by", "sextant-mark").counter().count());
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
