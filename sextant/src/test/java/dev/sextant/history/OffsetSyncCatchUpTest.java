package dev.sextant.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.source.SourceOffsets;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.testing.MutableClock;
import dev.sextant.testing.QuietSourceOffsets;
import dev.sextant.topology.HistoryRestoreListener;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class OffsetSyncCatchUpTest {

    private static final String SYNCS = "mm2-offset-syncs.destination.internal";
    private static final String HISTORY = "app-offset-sync-history";
    private static final TopicPartition SYNCS_0 = new TopicPartition(SYNCS, 0);
    private static final TopicPartition HISTORY_0 = new TopicPartition(HISTORY, 0);
    private static final TopicPartition HISTORY_1 = new TopicPartition(HISTORY, 1);

    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T00:00:00Z"));
    private final Map<String, Map<TopicPartition, Long>> ends = new HashMap<>();
    private final Map<TopicPartition, Long> committed = new HashMap<>();
    private int requests;
    private boolean failing;

    private final SourceOffsets source = new QuietSourceOffsets() {
        @Override
        public CompletableFuture<Map<TopicPartition, Long>> topicEnds(String topic) {
            requests++;
            return failing ? CompletableFuture.failedFuture(new IllegalStateException("source down"))
                    : CompletableFuture.completedFuture(Map.copyOf(ends.getOrDefault(topic, Map.of())));
        }

        @Override
        public CompletableFuture<Map<TopicPartition, Long>> committed(String group, Set<TopicPartition> partitions) {
            requests++;
            assertEquals("app", group);
            return CompletableFuture.completedFuture(Map.copyOf(committed));
        }
    };

    private OffsetSyncCatchUp catchUp(boolean exactlyOnce) {
        return new OffsetSyncCatchUp(source, SYNCS, HISTORY, "app", exactlyOnce, clock);
    }

    @Test
    void waitsForTheWriterToPassTheSyncsThenForTheStoreToReadTheHistory() {
        ends.put(SYNCS, Map.of(SYNCS_0, 120L));
        ends.put(HISTORY, Map.of(HISTORY_0, 80L, HISTORY_1, 0L));
        OffsetSyncCatchUp catchUp = catchUp(false);
        committed.put(SYNCS_0, 100L);
        assertFalse(catchUp.caughtUp(), "the writer has not read every sync yet");

        committed.put(SYNCS_0, 120L);
        assertFalse(catchUp.caughtUp(), "checked again only after a pause");
        clock.advance(Duration.ofMillis(500));
        // the writer passed the ends; the history's ends are read now: 80 on partition 0
        ends.put(SYNCS, Map.of(SYNCS_0, 130L)); // later syncs are not waited for
        ends.put(HISTORY, Map.of(HISTORY_0, 90L, HISTORY_1, 0L));
        catchUp.read(0, 70);
        assertFalse(catchUp.caughtUp(), "the store has read up to 71 of 90");
        catchUp.read(0, 89);
        assertTrue(catchUp.caughtUp());
        int asked = requests;
        ends.clear();
        assertTrue(catchUp.caughtUp(), "for good");
        assertEquals(asked, requests, "nothing more is asked once caught up");
    }

    @Test
    void theWriterIsToldWhichSyncIsTheLastOneWaitedFor() {
        ends.put(SYNCS, Map.of(SYNCS_0, 120L));
        OffsetSyncCatchUp catchUp = catchUp(false);
        assertFalse(catchUp.awaits(SYNCS_0, 119), "the ends are not known before the first check");
        assertFalse(catchUp.caughtUp());
        assertTrue(catchUp.awaits(SYNCS_0, 119));
        assertFalse(catchUp.awaits(SYNCS_0, 118));
        assertFalse(catchUp.awaits(new TopicPartition(SYNCS, 1), 119));
        committed.put(SYNCS_0, 120L);
        clock.advance(Duration.ofMillis(500));
        assertTrue(catchUp.caughtUp());
        assertFalse(catchUp.awaits(SYNCS_0, 119), "nothing is waited for once caught up");
    }

    @Test
    void whatTheStoreReadAtItsStartCounts() {
        ends.put(HISTORY, Map.of(HISTORY_0, 50L));
        OffsetSyncCatchUp catchUp = catchUp(false);
        // Kafka Streams restores the global store from its checkpoint: the records below it are not processed again
        new HistoryRestoreListener(catchUp).onRestoreStart(HISTORY_0, "another-store", 40, 50);
        assertFalse(catchUp.caughtUp());
        new HistoryRestoreListener(catchUp).onRestoreStart(HISTORY_0, OffsetSyncStore.NAME, 50, 50);
        assertTrue(catchUp.caughtUp());
    }

    @Test
    void withoutOffsetSyncsTopicOrHistoryThereIsNothingToWaitFor() {
        assertTrue(catchUp(false).caughtUp());
    }

    @Test
    void underExactlyOnceTheLastEntryOfTheHistoryIsACommitMarker() {
        ends.put(HISTORY, Map.of(HISTORY_0, 12L));
        OffsetSyncCatchUp exactlyOnce = catchUp(true);
        exactlyOnce.read(0, 9);
        assertFalse(exactlyOnce.caughtUp());
        exactlyOnce.read(0, 10); // 11 is the marker
        assertTrue(exactlyOnce.caughtUp());

        OffsetSyncCatchUp atLeastOnce = catchUp(false);
        atLeastOnce.read(0, 10);
        assertFalse(atLeastOnce.caughtUp(), "without transactions 11 is a record");
    }

    @Test
    void givesUpWaitingAfterTheLongestWaitAndSyncsWithWhatItHas() {
        failing = true;
        OffsetSyncCatchUp catchUp = catchUp(false);
        assertFalse(catchUp.caughtUp());
        clock.advance(Duration.ofMillis(OffsetSyncCatchUp.MAX_WAIT_MS - 1));
        assertFalse(catchUp.caughtUp());
        clock.advance(Duration.ofMillis(1));
        assertTrue(catchUp.caughtUp());
    }
}
