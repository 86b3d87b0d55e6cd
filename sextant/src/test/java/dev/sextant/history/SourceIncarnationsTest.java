package dev.sextant.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.translate.OffsetSyncPoint;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

class SourceIncarnationsTest {

    private static final Uuid OLD = Uuid.randomUuid();
    private static final Uuid NEW = Uuid.randomUuid();

    private static OffsetSyncPoint sync(long upstream) {
        return new OffsetSyncPoint("orders", 0, upstream, upstream);
    }

    @Test
    void theFirstAnswerOnlyRecordsTheIdAndTheSameIdChangesNothing() {
        SourceIncarnations incarnations = new SourceIncarnations(topic -> Optional.empty());
        incarnations.stored(sync(100));
        assertEquals(Set.of("orders"), incarnations.checkSent(false));
        List<SourceIncarnations.Change> first = incarnations.answered(Map.of("orders", OLD));
        assertEquals(1, first.size());
        assertFalse(first.get(0).recreated());
        assertEquals(OLD, first.get(0).to());

        assertEquals(Set.of(), incarnations.checkSent(false), "nothing new to confirm");
        assertEquals(Set.of("orders"), incarnations.checkSent(true), "every topic now and then");
        assertEquals(List.of(), incarnations.answered(Map.of("orders", OLD)));
    }

    @Test
    void aNewIdKeepsOnlyTheSyncsStoredSinceTheLastCheckThatConfirmedTheOldOneWasSent() {
        SourceIncarnations incarnations = new SourceIncarnations(topic -> Optional.of(OLD));
        incarnations.stored(sync(100));
        incarnations.checkSent(false);
        incarnations.stored(sync(200)); // after the confirming check was sent: either incarnation's
        assertEquals(List.of(), incarnations.answered(Map.of("orders", OLD)));
        incarnations.stored(sync(300));
        incarnations.checkSent(false);
        incarnations.stored(sync(400)); // after the check that sees the new id was sent
        List<SourceIncarnations.Change> changes = incarnations.answered(Map.of("orders", NEW));

        assertEquals(1, changes.size());
        SourceIncarnations.Change change = changes.get(0);
        assertTrue(change.recreated());
        assertEquals(OLD, change.from());
        assertEquals(NEW, change.to());
        assertEquals(List.of(sync(200), sync(300), sync(400)), change.keep());
    }

    @Test
    void aConfirmationCountsForItsOwnTopicOnly() {
        // the old syncs were stored before any check asked for their topic: none confirmed them, none is kept
        SourceIncarnations incarnations = new SourceIncarnations(topic -> Optional.empty());
        incarnations.stored(new OffsetSyncPoint("payments", 0, 10, 10));
        incarnations.checkSent(false);
        incarnations.answered(Map.of("payments", OLD));
        incarnations.seen("orders", OLD); // the gate saw the id when the first sync of orders was checked
        incarnations.stored(sync(100));
        incarnations.stored(sync(200));
        incarnations.checkSent(false);
        incarnations.stored(sync(300));
        SourceIncarnations.Change change = incarnations.answered(Map.of("orders", NEW, "payments", OLD)).get(0);
        assertEquals("orders", change.topic());
        assertEquals(List.of(sync(300)), change.keep(), "only what came after the check that saw the new id");
    }

    @Test
    void aFailedCheckConfirmsNothing() {
        SourceIncarnations incarnations = new SourceIncarnations(topic -> Optional.of(OLD));
        incarnations.stored(sync(100));
        incarnations.checkSent(false);
        incarnations.checkFailed();
        incarnations.stored(sync(200));
        incarnations.checkSent(false);
        SourceIncarnations.Change change = incarnations.answered(Map.of("orders", NEW)).get(0);
        assertEquals(List.of(), change.keep());
    }

    @Test
    void aTopicThatIsGoneKeepsItsHistory() {
        SourceIncarnations incarnations = new SourceIncarnations(topic -> Optional.of(OLD));
        incarnations.hasHistory("orders");
        assertEquals(Set.of("orders"), incarnations.checkSent(true));
        assertEquals(List.of(), incarnations.answered(Map.of()));
        assertTrue(incarnations.knows("orders"));
    }
}
