package dev.sextant.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.testing.InMemoryDestination;
import java.util.Optional;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.junit.jupiter.api.Test;

class DestinationIdentityTest {

    private final InMemoryDestination destination = new InMemoryDestination();
    private final DestinationIdentity identity = new DestinationIdentity(destination);

    /** A refresh's read: the outages noted, the id read, and what it answered handed back. */
    private void refreshRead() {
        long asOf = identity.outages();
        identity.read(identity.read().join(), asOf);
    }

    @Test
    void confirmsTheClusterOnceItsIdIsReadAfterTheLastOutage() {
        assertFalse(identity.confirmed(), "not before a first read");
        assertEquals(Optional.empty(), identity.clusterId());
        refreshRead();
        assertTrue(identity.confirmed());
        assertEquals(Optional.of("in-memory-cluster"), identity.clusterId());

        long asOf = identity.outages();
        String answer = identity.read().join();
        identity.unanswered(true); // an outage while the read was on its way
        assertEquals(asOf + 1, identity.outages());
        identity.read(answer, asOf);
        assertFalse(identity.confirmed(), "asked before the outage: says nothing of the cluster after it");

        refreshRead();
        assertTrue(identity.confirmed());
    }

    @Test
    void onlyTheFirstFailureOfAnOutageCountsOne() {
        refreshRead();
        identity.unanswered(true);
        identity.unanswered(false);
        identity.unanswered(false);
        assertEquals(1, identity.outages());
        assertFalse(identity.confirmed());
        assertEquals(Optional.of("in-memory-cluster"), identity.clusterId(), "the id last read is kept");
    }

    @Test
    void aFailedReadConfirmsNothing() {
        destination.clusterIdFails = true;
        assertNull(identity.read().join());
        refreshRead();
        assertFalse(identity.confirmed());
    }

    @Test
    void aRefusedReadConfirmsTheClusterWithNothingToPinOrHoldFor() {
        destination.clusterIdRefusal = new ClusterAuthorizationException("not allowed");
        identity.pin("the-pinned-cluster");
        refreshRead();
        assertTrue(identity.confirmed());
        assertEquals(Optional.empty(), identity.clusterId());
        assertEquals(Optional.empty(), identity.change());
    }

    @Test
    void saysWhyNothingIsWrittenWhileTheClusterIsNotThePinnedOne() {
        refreshRead();
        assertEquals(Optional.empty(), identity.change(), "not pinned yet");
        identity.pin("in-memory-cluster");
        assertEquals(Optional.empty(), identity.change());

        destination.clusterId = "rebuilt";
        refreshRead();
        String why = identity.change().orElseThrow();
        assertTrue(why.contains("rebuilt") && why.contains("in-memory-cluster") && why.contains("rebaseline"), why);

        identity.pin("rebuilt"); // an operator accepted it
        assertEquals(Optional.empty(), identity.change());
    }
}
