package dev.sextant.bench;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.function.LongConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One source group of the workload and what the benchmark knows of it: the commits it made that the destination
 * does not show yet, and the latest destination offsets with the source offset each was translated from.
 *
 * <p>"Which source commit a destination offset comes from" is read from the offset metadata: the workload commits
 * with metadata {@code bench src=<offset>}, which MirrorMaker 2 copies to the destination, and Sextant writes
 * {@code sextant/<app> src=<offset>}; both end in {@code src=<offset>}. So visibility and precision are measured
 * the same way for both, independently of how precise each translation is.
 */
final class TrackedGroup {

    private static final Pattern SRC = Pattern.compile("src=(\\d+)$");

    /** A source commit: offsets per partition, and when the commit call returned. */
    record Commit(long[] offsets, long doneNanos) {
    }

    final String name;
    final String sourceTopic;
    final String destinationTopic;
    final int partitions;
    final boolean lagging;
    private final ArrayDeque<Commit> outstanding = new ArrayDeque<>();
    private final long[] src;
    private final long[] dest;
    private long[] lastCommitted;

    TrackedGroup(String name, String sourceTopic, String destinationTopic, int partitions, boolean lagging) {
        this.name = name;
        this.sourceTopic = sourceTopic;
        this.destinationTopic = destinationTopic;
        this.partitions = partitions;
        this.lagging = lagging;
        this.src = new long[partitions];
        this.dest = new long[partitions];
        Arrays.fill(src, -1);
        Arrays.fill(dest, -1);
    }

    /** Parses {@code ...src=<offset>} from offset metadata; -1 when absent. */
    static long sourceOffsetOf(String metadata) {
        if (metadata == null) {
            return -1;
        }
        Matcher m = SRC.matcher(metadata);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    /** Metadata the workload commits with, for a source offset. */
    static String metadataFor(long offset) {
        return "bench src=" + offset;
    }

    synchronized void committed(long[] offsets, long doneNanos, boolean track) {
        lastCommitted = offsets.clone();
        if (track) {
            outstanding.addLast(new Commit(offsets.clone(), doneNanos));
        }
    }

    /**
     * Tracks the group's last commit (made before the syncers started) as if committed at {@code sinceNanos}: the
     * initial sync, timed from the moment the syncers were ready.
     */
    synchronized void trackInitial(long sinceNanos) {
        if (lastCommitted != null) {
            outstanding.addLast(new Commit(lastCommitted.clone(), sinceNanos));
        }
    }

    /** Drops the commits not shown yet (an initial sync that did not finish in time is not steady state). */
    synchronized void forgetOutstanding() {
        outstanding.clear();
    }

    synchronized boolean hasOutstanding() {
        return !outstanding.isEmpty();
    }

    synchronized int outstandingCount() {
        return outstanding.size();
    }

    /**
     * Records what a poll sent at {@code sentNanos} saw on the destination and resolves the commits it shows: those
     * that returned before the poll was sent and that every partition shows, i.e. the destination's value was
     * translated from that source offset or a later one, or it is at least the best translation of that offset
     * (MirrorMaker does not rewrite a partition whose translation did not change, so its metadata can keep naming
     * an older commit that translates to the same offset).
     *
     * @param best the best translation of a source offset from the offset syncs known now, or -1
     * @param observer called for each partition whose destination value changed: (source offset, destination)
     * @param resolved called with the latency in nanoseconds of each resolved commit
     */
    synchronized void observe(long[] seenSrc, long[] seenDest, long sentNanos, long receivedNanos,
                              Translator best, ChangeObserver observer, LongConsumer resolved) {
        for (int p = 0; p < partitions; p++) {
            if (seenSrc[p] != src[p] || seenDest[p] != dest[p]) {
                src[p] = seenSrc[p];
                dest[p] = seenDest[p];
                if (seenSrc[p] >= 0 && seenDest[p] >= 0) {
                    observer.changed(this, p, seenSrc[p], seenDest[p]);
                }
            }
        }
        while (!outstanding.isEmpty()) {
            Commit c = outstanding.peekFirst();
            if (c.doneNanos() > sentNanos || !reached(c.offsets(), best)) {
                break;
            }
            outstanding.removeFirst();
            resolved.accept(receivedNanos - c.doneNanos());
        }
    }

    private boolean reached(long[] offsets, Translator best) {
        for (int p = 0; p < partitions; p++) {
            if (src[p] >= offsets[p]) {
                continue;
            }
            long b = best.translate(sourceTopic, p, offsets[p]);
            if (b < 0 || dest[p] < b) {
                return false;
            }
        }
        return true;
    }

    /** When each commit the destination does not show yet returned (nanoTime). */
    synchronized long[] outstandingSince() {
        return outstanding.stream().mapToLong(Commit::doneNanos).toArray();
    }

    synchronized long[] sourceOffsets() {
        return src.clone();
    }

    synchronized long[] destinationOffsets() {
        return dest.clone();
    }

    synchronized long[] lastCommitted() {
        return lastCommitted == null ? null : lastCommitted.clone();
    }

    /** The best translation of a source offset, or -1. */
    interface Translator {
        long translate(String topic, int partition, long offset);
    }

    /** A destination offset changed. */
    interface ChangeObserver {
        void changed(TrackedGroup group, int partition, long sourceOffset, long destinationOffset);
    }
}
