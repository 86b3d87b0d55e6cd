package dev.sextant.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sextant.apply.DestinationView;
import dev.sextant.testing.InMemoryDestination;
import dev.sextant.testing.QuietSourceOffsets;
import dev.sextant.translate.OffsetTranslation;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Where an offset no sync covers is written, from both clusters' log starts, fetched without blocking. */
class LogStartTranslationTest {

    private static final TopicPartition ORDERS = new TopicPartition("orders", 0);
    private static final TopicPartition MIRROR = new TopicPartition("source.orders", 0);
    /** The mirror partition holds 400 records from offset 40. */
    private static final long MIRROR_START = 40;
    private static final long MIRROR_END = 440;

    private final Source source = new Source();
    private final InMemoryDestination destination = new InMemoryDestination();

    /** Log starts and ends set by hand; every fetch waits for {@link #gate}. */
    private static final class Source extends QuietSourceOffsets {

        final Map<TopicPartition, Long> starts = new HashMap<>();
        final Map<TopicPartition, Long> ends = new HashMap<>();
        CompletableFuture<Void> gate = CompletableFuture.completedFuture(null);
        int fetches;

        @Override
        public CompletableFuture<Map<TopicPartition, Long>> logStarts(Set<TopicPartition> partitions) {
            fetches++;
            return gate.thenApply(v -> of(starts, partitions));
        }

        @Override
        public CompletableFuture<Map<TopicPartition, Long>> logEnds(Set<TopicPartition> partitions) {
            return gate.thenApply(v -> of(ends, partitions));
        }

        private static Map<TopicPartition, Long> of(Map<TopicPartition, Long> known, Set<TopicPartition> wanted) {
            Map<TopicPartition, Long> out = new HashMap<>();
            wanted.stream().filter(known::containsKey).forEach(tp -> out.put(tp, known.get(tp)));
            return out;
        }
    }

    LogStartTranslationTest() {
        destination.topic(MIRROR.topic(), 1);
        destination.starts.put(MIRROR, MIRROR_START);
        sourceLog(ORDERS, 100, 500);
    }

    private void sourceLog(TopicPartition tp, long start, long end) {
        source.starts.put(tp, start);
        source.ends.put(tp, end);
    }

    private LogStartTranslation translation(boolean earliest) {
        return new LogStartTranslation(source, new DestinationView(destination), earliest);
    }

    private static Optional<OffsetTranslation> translate(LogStartTranslation translation, long offset, long now) {
        return translation.translate(ORDERS, offset, MIRROR, MIRROR_END, now);
    }

    /** Asks, fetches, and asks again: the answer once both clusters' log starts are known. */
    private static Optional<OffsetTranslation> known(LogStartTranslation translation, long offset) {
        translate(translation, offset, 0);
        translation.refresh(0);
        return translate(translation, offset, 0);
    }

    @Test
    void nothingIsKnownBeforeTheLogStartsAskedAboutAreFetched() {
        LogStartTranslation translation = translation(false);

        assertEquals(Optional.empty(), translate(translation, 100, 0));
        assertEquals(0, source.fetches, "fetched at the next refresh, never on the stream thread's call");

        translation.refresh(0);
        assertEquals(Optional.of(OffsetTranslation.bounded(100, MIRROR_START, 400)), translate(translation, 100, 0));
    }

    @Test
    void anOffsetAtOrBelowTheSourcesLogStartIsWrittenAsTheMirrorsStartWithinTheMirrorsLength() {
        LogStartTranslation translation = translation(false);

        assertEquals(Optional.of(OffsetTranslation.bounded(100, MIRROR_START, 400)), known(translation, 100));
        assertEquals(Optional.of(OffsetTranslation.bounded(20, MIRROR_START, 400)), known(translation, 20));
    }

    @Test
    void anOffsetOnAnEmptySourcePartitionIsWrittenAsTheMirrorsStart() {
        sourceLog(ORDERS, 300, 300);

        assertEquals(Optional.of(OffsetTranslation.bounded(350, MIRROR_START, 400)), known(translation(false), 350));
    }

    @Test
    void anOffsetAboveTheSourcesLogStartStaysUntranslatableUnlessEarliestIsAsked() {
        assertEquals(Optional.empty(), known(translation(false), 101), "records the consumer has not read are there");
        assertEquals(Optional.of(OffsetTranslation.bounded(101, MIRROR_START, 400)), known(translation(true), 101));
    }

    @Test
    void anEmptyMirrorIsExact() {
        LogStartTranslation translation = translation(false);
        known(translation, 100);

        assertEquals(Optional.of(OffsetTranslation.exact(100, MIRROR_START)),
                translation.translate(ORDERS, 100, MIRROR, MIRROR_START, 0));
    }

    @Test
    void aMirrorWhoseEndIsNotKnownWaits() {
        LogStartTranslation translation = translation(false);
        known(translation, 100);

        assertEquals(Optional.empty(), translation.translate(ORDERS, 100, MIRROR, -1, 0));
    }

    @Test
    void whatWasFetchedServesForItsMaximumAgeAndIsThenFetchedAgainWhileStillServing() {
        LogStartTranslation translation = translation(false);
        known(translation, 100);
        sourceLog(ORDERS, 200, 500); // retention moved the log start

        long stale = LogStartTranslation.MAX_AGE_MS + 1;
        translate(translation, 150, LogStartTranslation.MAX_AGE_MS);
        translation.refresh(LogStartTranslation.MAX_AGE_MS);
        assertEquals(1, source.fetches, "still fresh");

        assertEquals(Optional.empty(), translate(translation, 150, stale), "the start it knew is below 150");
        translation.refresh(stale);
        assertEquals(2, source.fetches);
        assertEquals(Optional.of(OffsetTranslation.bounded(150, MIRROR_START, 400)),
                translate(translation, 150, stale));
    }

    @Test
    void aRefreshStartsNoFetchWhileOneIsRunning() {
        LogStartTranslation translation = translation(false);
        source.gate = new CompletableFuture<>();
        translate(translation, 100, 0);
        translation.refresh(0);

        translate(translation, 100, 0);
        translation.refresh(0);
        assertEquals(1, source.fetches);

        source.gate.complete(null);
        assertEquals(Optional.of(OffsetTranslation.bounded(100, MIRROR_START, 400)), translate(translation, 100, 0));
        translation.refresh(0);
        assertEquals(2, source.fetches, "what was asked about meanwhile");
    }

    @Test
    void partitionsNobodyAskedAboutForAWhileAreForgotten() {
        TopicPartition payments = new TopicPartition("payments", 0);
        sourceLog(payments, 0, 0);
        LogStartTranslation translation = translation(false);
        known(translation, 100);

        long later = 10 * LogStartTranslation.MAX_AGE_MS + 1;
        translation.translate(payments, 0, MIRROR, MIRROR_END, later);
        translation.refresh(later);

        assertEquals(Optional.empty(), translation.translate(ORDERS, 100, MIRROR, MIRROR_END, later),
                "fetched again first");
    }
}
