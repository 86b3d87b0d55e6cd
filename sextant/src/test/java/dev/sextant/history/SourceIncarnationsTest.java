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
        assertEquals(Set.of("orders"), incarnations.checkSent());
        List<SourceIncarnations.Change> first = incarnations.answered(Map.of("orders", OLD));
        assertEquals(1, first.size());
        assertFalse(first.get(0).recreated());
        assertEquals(OLD, first.get(0).to());

        incarnations.checkSent();
        assertEquals(List.of(), incarnations.answered(Map.of("orders", OLD)));
    }

    @Test
    void aNewIdKeepsOnlyTheSyncsStoredSinceTheLastCheckThatSawTheOldOne() {
        SourceIncarnations incarnations = new SourceIncarnations(topic -> Optional.of(OLD));
        incarnations.stored(sync(100));
        incarnations.checkSent();
        assertEquals(List.of(), incarnations.answered(Map.of("orders", OLD)));
        incarnations.stored(sync(200)); // between the check that saw the old id and the next: either incarnation's
        incarnations.checkSent();
        incarnations.stored(sync(300)); // after the check that sees the new id was sent
        List<SourceIncarnations.Change> changes = incarnations.answered(Map.of("orders", NEW));

        assertEquals(1, changes.size());
        SourceIncarnations.Change change = changes.get(0);
        assertTrue(change.recreated());
        assertEquals(OLD, change.from());
        assertEquals(NEW, change.to());
        assertEquals(List.of(sync(200), sync(300)), change.keep());
    }

    @Test
    void withoutAnAnswerThatSawTheOldIdOnlyWhatCameAfterTheCheckIsKept() {
        // the id recorded by an earlier writer: nothing this one stored is known to be the old incarnation's or not
        SourceIncarnations incarnations = new SourceIncarnations(topic -> Optional.of(OLD));
        incarnations.stored(sync(100));
        incarnations.checkSent();
        incarnations.stored(sync(200));
        SourceIncarnations.Change change = incarnations.answered(Map.of("orders", NEW)).get(0);
        assertEquals(List.of(sync(200)), change.keep());

        // a failed check: what was stored before it is no longer bracketed by two answers
        incarnations.stored(sync(300));
        incarnations.checkSent();
        incarnations.checkFailed();
        incarnations.stored(sync(400));
        incarnations.checkSent();
        incarnations.stored(sync(500));
        Uuid third = Uuid.randomUuid();
        assertEquals(List.of(sync(500)), incarnations.answered(Map.of("orders", third)).get(0).keep());
    }

    @Test
    void aTopicThatIsGoneKeepsItsHistory() {
        SourceIncarnations incarnations = new SourceIncarnations(topic -> Optional.of(OLD));
        incarnations.hasHistory("orders");
        assertEquals(Set.of("orders"), incarnations.checkSent());
        assertEquals(List.of(), incarnations.answered(Map.of()));
    }
}
