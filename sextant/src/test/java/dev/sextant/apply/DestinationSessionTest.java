package dev.sextant.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.domain.LogRange;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import dev.sextant.testing.InMemoryDestination;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** A command's writes: planned inside the logs as read in the session, through the guards, waited for with a bound. */
class DestinationSessionTest {

    private static final TopicPartition MIRROR = new TopicPartition("source.orders", 0);
    private static final PositionKey KEY = new PositionKey("g", "orders", 0);

    private final InMemoryDestination destination = new InMemoryDestination();
    private final DestinationSession session = new DestinationSession(destination, Duration.ofSeconds(2),
            new OffsetOwnership("app"), false, false);

    @Test
    void aCommandsTranslationBeyondALaggingMirrorIsWrittenAtTheMirrorsEnd() {
        destination.topic("source.orders", 1);
        destination.ends.put(MIRROR, 60L);
        Map<String, List<PlannedPartition>> plans = session.plan(Map.of("g",
                List.of(TranslatedPosition.of(KEY, MIRROR, 100, 1_000L, 100, 0))));

        GroupOutcome outcome = session.write(plans, Map.of()).get("g");

        assertEquals(PositionStatus.APPLIED, outcome.partitions().get(KEY).status());
        assertEquals(60L, destination.committed("g", "source.orders", 0), "never beyond the mirror's end");
        assertTrue(destination.metadata("g", "source.orders", 0).contains(" b=40 "),
                "the 40 records between are replays once mirrored: " + destination.metadata("g", "source.orders", 0));
    }

    @Test
    void logRangesLeaveOutWhatTheDestinationLacks() {
        destination.topic("source.orders", 1);
        destination.starts.put(MIRROR, 5L);
        destination.ends.put(MIRROR, 60L);
        Map<TopicPartition, LogRange> logs = session.logRanges(Set.of(MIRROR, new TopicPartition("source.orders", 1),
                new TopicPartition("source.missing", 0)));
        assertEquals(Map.of(MIRROR, new LogRange(5, 60)), logs);
    }

    @Test
    void theGuardsHoldForACommandsWriteAsForTheSync() {
        destination.topic("source.orders", 1);
        destination.activeConsumerGroup("g");
        GroupOutcome outcome = session.write(session.plan(Map.of("g",
                List.of(TranslatedPosition.of(KEY, MIRROR, 100, 1_000L, 50, 0)))), Map.of()).get("g");
        assertEquals(PositionStatus.GROUP_ACTIVE, outcome.partitions().get(KEY).status());
        assertNull(destination.committed("g", "source.orders", 0));
    }

    @Test
    void aWriteNotAnsweredWithinTheTimeoutIsMissingFromTheAnswers() {
        destination.topic("source.orders", 1);
        destination.holdWrites = true;
        DestinationSession impatient = new DestinationSession(destination, Duration.ofMillis(200),
                new OffsetOwnership("app"), false, false);
        Map<String, GroupOutcome> outcomes = impatient.write(impatient.plan(Map.of("g",
                List.of(TranslatedPosition.of(KEY, MIRROR, 100, 1_000L, 50, 0)))), Map.of());
        assertFalse(outcomes.containsKey("g"), "not answered in time: its write may still land");
        assertEquals(1, destination.heldWrites());
    }

    @Test
    void aReadTheDestinationDoesNotAnswerFailsWithWhatWasRead() {
        destination.unreachable = true;
        IllegalStateException e = assertThrows(IllegalStateException.class, session::groups);
        assertTrue(e.getMessage().startsWith("listing the destination's groups failed"), e.getMessage());
    }
}
