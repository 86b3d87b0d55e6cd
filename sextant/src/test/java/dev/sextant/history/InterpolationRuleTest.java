package dev.sextant.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.source.RecordRange;
import dev.sextant.state.InMemorySyncHistory;
import dev.sextant.translate.IntervalEvidence;
import dev.sextant.translate.IntervalEvidence.Verdict;
import dev.sextant.translate.OffsetSyncPoint;
import dev.sextant.translate.OffsetSyncTranslator;
import dev.sextant.translate.OffsetTranslation;
import dev.sextant.translate.Precision;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * The interpolation rule on hand-made mirrors: a source log, the mirror MirrorMaker 2 would have written from it (a
 * skipped offset, records written twice after a restart), and the two syncs around the commit. Every translation
 * is checked against the mirror itself: a consumer resuming there loses no record, and replays what it says.
 */
class InterpolationRuleTest {

    private static final String TOPIC = "orders";
    private static final String MIRROR = "source.orders";

    /** Source offsets 100..200 with a record at each, except those given (transaction markers). */
    private final TreeMap<Long, ConsumerRecord<byte[], byte[]>> source = new TreeMap<>();
    /** The mirror: destination offset -> the source offset of the record copied there. */
    private final TreeMap<Long, Long> mirror = new TreeMap<>();
    private final InMemorySyncHistory history = new InMemorySyncHistory();

    private void sourceLog(long... markers) {
        List<Long> skipped = new ArrayList<>();
        for (long m : markers) {
            skipped.add(m);
        }
        for (long offset = 100; offset <= 200; offset++) {
            if (!skipped.contains(offset)) {
                source.put(offset, record(TOPIC, offset, offset));
            }
        }
    }

    /** MirrorMaker 2 copies the source records in {@code [from, to]} from destination offset {@code at} on. */
    private long copy(long from, long to, long at) {
        long next = at;
        for (long offset : source.subMap(from, true, to, true).keySet()) {
            mirror.put(next++, offset);
        }
        return next;
    }

    private void syncs() {
        history.put(new OffsetSyncPoint(TOPIC, 0, 100, mirror.firstKey()));
        long last = mirror.lastKey();
        history.put(new OffsetSyncPoint(TOPIC, 0, mirror.get(last), last));
    }

    private static ConsumerRecord<byte[], byte[]> record(String topic, long offset, long content) {
        return new ConsumerRecord<>(topic, 0, offset, ("k" + content % 7).getBytes(StandardCharsets.UTF_8),
                ("v" + content).getBytes(StandardCharsets.UTF_8));
    }

    /** What the records say: {@link IntervalCheck} over this test's two logs. */
    private final IntervalEvidence records = (lower, upper) -> {
        List<ConsumerRecord<byte[], byte[]>> up = new ArrayList<>(
                source.subMap(lower.upstreamOffset(), true, upper.upstreamOffset(), true).values());
        List<ConsumerRecord<byte[], byte[]>> down = new ArrayList<>();
        mirror.subMap(lower.downstreamOffset(), true, upper.downstreamOffset(), true)
                .forEach((offset, from) -> down.add(record(MIRROR, offset, from)));
        return IntervalCheck.compare(lower, upper, new RecordRange(up, upper.upstreamOffset() + 1),
                new RecordRange(down, upper.downstreamOffset() + 1));
    };

    private OffsetTranslation translate(IntervalEvidence evidence, long committed) {
        return new OffsetSyncTranslator(history, evidence).translate(TOPIC, 0, committed).orElseThrow();
    }

    /** True when every source record from the commit on has a copy at or after where the consumer resumes. */
    private boolean lossless(OffsetTranslation t) {
        for (long offset : source.tailMap(t.sourceOffset(), true).keySet()) {
            if (!mirror.tailMap(t.destinationOffset(), true).containsValue(offset)) {
                return false;
            }
        }
        return true;
    }

    /** Records a consumer resuming there reads again (copies of records below its commit). */
    private long replayed(OffsetTranslation t) {
        return mirror.tailMap(t.destinationOffset(), true).values().stream()
                .filter(from -> from < t.sourceOffset()).count();
    }

    @Test
    void equalDeltasProvenByTheRecordsTranslateExactly() {
        sourceLog();
        copy(100, 200, 1000);
        syncs();

        for (long committed = 101; committed < 200; committed++) {
            OffsetTranslation t = translate(records, committed);
            assertEquals(Precision.EXACT, t.precision());
            assertEquals(1000 + committed - 100, t.destinationOffset());
            assertTrue(lossless(t));
            assertEquals(0, replayed(t));
        }
        // today's rule, for comparison: the floor MirrorMaker 2's syncs allow
        OffsetTranslation base = translate(IntervalEvidence.NONE, 150);
        assertEquals(1001, base.destinationOffset());
        assertEquals(49, replayed(base));
    }

    @Test
    void aSkippedOffsetLeavesTheDeltasUnequalAndTheIntervalBounded() {
        sourceLog(130); // a transaction marker
        copy(100, 200, 1000);
        syncs();
        assertEquals(new OffsetSyncPoint(TOPIC, 0, 200, 1099), history.latestAtOrBelow(TOPIC, 0, 200).orElseThrow());

        for (IntervalEvidence evidence : List.of(records, IntervalEvidence.TRUSTED)) {
            OffsetTranslation t = translate(evidence, 150);
            assertEquals(Precision.BOUNDED, t.precision());
            assertEquals(1001, t.destinationOffset());
            assertTrue(lossless(t));
            assertTrue(replayed(t) <= t.bound());
        }
    }

    @Test
    void aDuplicateLeavesTheDeltasUnequalAndTheIntervalBounded() {
        sourceLog();
        long next = copy(100, 150, 1000);
        next = copy(140, 150, next); // MirrorMaker 2 restarted from an older source offset: 140..150 written twice
        copy(151, 200, next);
        syncs();

        for (IntervalEvidence evidence : List.of(records, IntervalEvidence.TRUSTED)) {
            OffsetTranslation t = translate(evidence, 170);
            assertEquals(Precision.BOUNDED, t.precision());
            assertEquals(1001, t.destinationOffset());
            assertTrue(lossless(t));
            // the bound counts source records; the 11 copies written twice are read twice as well
            assertEquals(t.bound() + 11, replayed(t));
        }
    }

    @Test
    void aSkipAndADuplicateThatCancelAreCaughtByTheRecords() {
        sourceLog(120); // a marker below the commit ...
        long next = copy(100, 160, 1000);
        next = copy(160, 160, next); // ... and record 160 written twice above it: the deltas balance
        copy(161, 200, next);
        syncs();
        OffsetSyncPoint lower = history.latestAtOrBelow(TOPIC, 0, 140).orElseThrow();
        OffsetSyncPoint upper = history.earliestAbove(TOPIC, 0, 140).orElseThrow();
        assertTrue(OffsetSyncTranslator.linear(lower, upper), "equal deltas: " + lower + " " + upper);

        // equal deltas alone would send the consumer past record 140: the hole verification closes
        OffsetTranslation trusted = translate(IntervalEvidence.TRUSTED, 140);
        assertEquals(1040, trusted.destinationOffset());
        assertTrue(!lossless(trusted), "record 140 sits at 1039");

        assertEquals(Verdict.REFUTED, records.verdict(lower, upper));
        OffsetTranslation verified = translate(records, 140);
        assertEquals(Precision.BOUNDED, verified.precision());
        assertEquals(1001, verified.destinationOffset());
        assertTrue(lossless(verified));
    }

    @Test
    void aMarkerAtTheSameDistanceOnBothSidesKeepsTheIntervalLinear() {
        sourceLog(130);
        long next = copy(100, 129, 1000);
        // a transactional MirrorMaker 2 wrote its own marker at 1030, where the source had one
        copy(131, 200, next + 1);
        syncs();

        OffsetTranslation t = translate(records, 150);
        assertEquals(Precision.EXACT, t.precision());
        assertEquals(1050, t.destinationOffset());
        assertTrue(lossless(t));
        assertEquals(0, replayed(t));
    }

    @Test
    void aCommitAboveTheNewestSyncStaysBounded() {
        sourceLog();
        copy(100, 200, 1000);
        syncs();

        OffsetTranslation t = translate(IntervalEvidence.TRUSTED, 250);
        assertEquals(Precision.BOUNDED, t.precision());
        assertEquals(1101, t.destinationOffset());
    }
}
