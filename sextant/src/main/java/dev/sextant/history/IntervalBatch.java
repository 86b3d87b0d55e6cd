package dev.sextant.history;

import dev.sextant.metrics.SextantMetrics;
import dev.sextant.source.RecordRange;
import dev.sextant.source.RecordRanges;
import dev.sextant.source.RecordRanges.Stretch;
import dev.sextant.translate.IntervalEvidence.Verdict;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Intervals that {@link IntervalProofs} reads together, and their read: one stretch per source partition and one per
 * its mirror partition, each covering the intervals taken for that partition and no longer than the longest read
 * allowed, so a batch of many intervals costs a few fetches rather than two reads each. An interval that would
 * stretch its partition's read past that length, or across more records than its own, waits for a later batch.
 */
final class IntervalBatch {

    private final int maxRecords;
    /** Per source partition: {@code [from, to)} upstream, then downstream, of the intervals taken. */
    private final Map<TopicPartition, long[]> spans = new HashMap<>();
    private final List<SyncInterval> taken = new ArrayList<>();

    /** @param maxRecords the longest stretch one partition's read may cover, in offsets */
    IntervalBatch(int maxRecords) {
        this.maxRecords = maxRecords;
    }

    /** What {@link #offer} did with an interval. */
    enum Offer {
        /** Read in this batch. */
        TAKEN,
        /** Longer than the longest read: never read, it keeps the bounded rule. */
        TOO_LONG,
        /** Its partition's read in this batch cannot reach it cheaply: for a later batch. */
        LATER
    }

    /**
     * Takes the interval into this batch's reads if its partition's stretch can cover it: the stretch stays within
     * the longest read, and the records between the stretch and the interval are no more than the interval's own
     * (so covering both costs at most twice what two reads would read, in one fetch).
     */
    Offer offer(SyncInterval interval) {
        long[] own = {interval.lower().upstreamOffset(), interval.upper().upstreamOffset() + 1,
            interval.lower().downstreamOffset(), interval.upper().downstreamOffset() + 1};
        long length = own[1] - own[0];
        if (length > maxRecords) {
            return Offer.TOO_LONG;
        }
        long[] span = spans.get(interval.partition());
        if (span == null) {
            spans.put(interval.partition(), own);
            taken.add(interval);
            return Offer.TAKEN;
        }
        long[] merged = {Math.min(span[0], own[0]), Math.max(span[1], own[1]),
            Math.min(span[2], own[2]), Math.max(span[3], own[3])};
        long gap = Math.max(Math.max(own[0] - span[1], span[0] - own[1]),
                Math.max(own[2] - span[3], span[2] - own[3]));
        if (merged[1] - merged[0] > maxRecords || merged[3] - merged[2] > maxRecords || gap > length) {
            return Offer.LATER;
        }
        spans.put(interval.partition(), merged);
        taken.add(interval);
        return Offer.TAKEN;
    }

    /** How many intervals this batch reads. */
    int size() {
        return taken.size();
    }

    /**
     * What a read of the taken intervals found.
     *
     * @param judged  each interval whose records both reads reached, with its verdict (proven or refuted)
     * @param late    the intervals whose records a read did not reach in time: to be tried again
     * @param topics  the source topics read on both clusters
     */
    record Outcome(Map<SyncInterval, Verdict> judged, List<SyncInterval> late, Set<String> topics) {
    }

    /**
     * Reads the taken intervals: the source stretches, then the mirror stretches of the partitions whose source
     * records were all there, and compares each interval's records ({@link IntervalCheck}). Blocks; throws what the
     * readers throw.
     */
    Outcome read(RecordRanges source, RecordRanges destination, UnaryOperator<String> mirrorTopic,
                 SextantMetrics metrics) {
        Map<SyncInterval, Verdict> judged = new LinkedHashMap<>();
        List<SyncInterval> late = new ArrayList<>();
        Set<String> topics = new HashSet<>();
        if (taken.isEmpty()) {
            return new Outcome(judged, late, topics);
        }
        Map<TopicPartition, RecordRange> up = source.readAll(upstream(taken));
        metrics.intervalRecordsRead("source", recordsIn(up));
        List<SyncInterval> covered = new ArrayList<>();
        for (SyncInterval interval : taken) {
            boolean read = up.get(interval.partition()).covers(interval.upper().upstreamOffset() + 1);
            (read ? covered : late).add(interval);
        }
        Map<TopicPartition, RecordRange> down = covered.isEmpty() ? Map.of()
                : destination.readAll(downstream(covered, mirrorTopic));
        metrics.intervalRecordsRead("destination", recordsIn(down));
        for (SyncInterval interval : covered) {
            TopicPartition tp = interval.partition();
            TopicPartition mirror = interval.mirrorPartition(mirrorTopic);
            topics.add(tp.topic());
            Verdict verdict = IntervalCheck.compare(interval.lower(), interval.upper(),
                    slice(up.get(tp), interval.lower().upstreamOffset(), interval.upper().upstreamOffset()),
                    slice(down.get(mirror), interval.lower().downstreamOffset(), interval.upper().downstreamOffset()));
            if (verdict == Verdict.UNKNOWN) {
                late.add(interval);
            } else {
                judged.put(interval, verdict);
            }
        }
        return new Outcome(judged, late, topics);
    }

    /** Intervals of the source topics named, or of their mirrors: those a read denied on them cannot prove. */
    static Predicate<SyncInterval> onTopics(Set<String> topics, UnaryOperator<String> mirrorTopic) {
        return i -> topics.contains(i.lower().topic()) || topics.contains(mirrorTopic.apply(i.lower().topic()));
    }

    /** Intervals of the partitions named, source or mirror: those whose records a read found gone. */
    static Predicate<SyncInterval> onPartitions(Set<TopicPartition> partitions, UnaryOperator<String> mirrorTopic) {
        return i -> partitions.contains(i.partition()) || partitions.contains(i.mirrorPartition(mirrorTopic));
    }

    private static int recordsIn(Map<TopicPartition, RecordRange> ranges) {
        return ranges.values().stream().mapToInt(r -> r.records().size()).sum();
    }

    /** The intervals read in this batch, in the order added. */
    List<SyncInterval> taken() {
        return Collections.unmodifiableList(taken);
    }

    /** Each partition's source stretch that covers the intervals: from the lowest lower sync to the highest upper. */
    static Map<TopicPartition, Stretch> upstream(List<SyncInterval> intervals) {
        return stretches(intervals, SyncInterval::partition, true);
    }

    /** As {@link #upstream}, on the mirror partitions, by downstream offsets. */
    static Map<TopicPartition, Stretch> downstream(List<SyncInterval> intervals, UnaryOperator<String> mirrorTopic) {
        return stretches(intervals, i -> i.mirrorPartition(mirrorTopic), false);
    }

    private static Map<TopicPartition, Stretch> stretches(List<SyncInterval> intervals,
                                                          Function<SyncInterval, TopicPartition> partition,
                                                          boolean upstream) {
        Map<TopicPartition, long[]> spans = new HashMap<>();
        for (SyncInterval i : intervals) {
            long from = upstream ? i.lower().upstreamOffset() : i.lower().downstreamOffset();
            long to = (upstream ? i.upper().upstreamOffset() : i.upper().downstreamOffset()) + 1;
            spans.merge(partition.apply(i), new long[] {from, to},
                    (a, b) -> new long[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])});
        }
        Map<TopicPartition, Stretch> out = new HashMap<>();
        spans.forEach((tp, s) -> out.put(tp, new Stretch(s[0], s[1], (int) (s[1] - s[0]))));
        return out;
    }

    /**
     * The records of a stretch's read at offsets {@code first} to {@code last}, both included, with how far the
     * whole read got: what one interval's own read would have answered.
     */
    static RecordRange slice(RecordRange range, long first, long last) {
        List<ConsumerRecord<byte[], byte[]>> records = range.records();
        int from = firstAtOrAbove(records, first);
        int to = firstAtOrAbove(records, last + 1);
        return new RecordRange(records.subList(from, to), range.reached());
    }

    /** Index of the first record at or above the offset (records in offset order). */
    private static int firstAtOrAbove(List<ConsumerRecord<byte[], byte[]>> records, long offset) {
        int lo = 0;
        int hi = records.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (records.get(mid).offset() < offset) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
