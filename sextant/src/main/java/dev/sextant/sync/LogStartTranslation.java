package dev.sextant.sync;

import dev.sextant.apply.DestinationView;
import dev.sextant.source.SourceOffsets;
import dev.sextant.translate.OffsetTranslation;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a committed offset that no offset sync covers is written. Left alone, its group has no destination offset
 * there and a failed-over consumer starts from {@code auto.offset.reset}, which skips with {@code latest}:
 *
 * <ul>
 *   <li>at or below the source partition's log start, or on an empty partition (committed 0, no record, so no sync;
 *       a share partition at its start offset 0; a retention-trimmed topic whose first record is above the
 *       consumer), nothing the consumer has not read is left below it: written as the destination partition's log
 *       start, always;</li>
 *   <li>above the log start (below the oldest sync: MirrorMaker 2 coalesced its first syncs, or its offset-syncs
 *       topic was compacted before Sextant read it), the source still holds records the consumer has not read and
 *       whose place on the mirror no sync tells: written as the destination's log start only under
 *       {@code sync.untranslatable=earliest}; otherwise it stays {@code UNTRANSLATABLE}.</li>
 * </ul>
 *
 * Either way the consumer replays at most what the mirror partition holds, its bound, and skips nothing.
 *
 * <p>The log starts are read without blocking the stream thread: a partition asked about is fetched at the next
 * {@link #refresh}, both sides in one request each, and is not known until then (its position waits, parked as
 * {@code UNTRANSLATABLE}, and is looked at again a second later); what was fetched is used for
 * {@link #MAX_AGE_MS} and then fetched again when still asked about.
 */
final class LogStartTranslation {

    private static final Logger log = LoggerFactory.getLogger(LogStartTranslation.class);
    static final long MAX_AGE_MS = 30_000;
    private static final long FORGET_AFTER_MS = 10 * MAX_AGE_MS;

    /** An offset fetched at {@code at}. */
    private record Known(long offset, long at) {
    }

    private final SourceOffsets source;
    private final DestinationView destination;
    private final boolean earliest;
    private final Map<TopicPartition, Known> sourceStarts = new ConcurrentHashMap<>();
    private final Map<TopicPartition, Known> sourceEnds = new ConcurrentHashMap<>();
    private final Map<TopicPartition, Known> destinationStarts = new ConcurrentHashMap<>();
    private final Set<TopicPartition> wantedSource = new HashSet<>();
    private final Set<TopicPartition> wantedDestination = new HashSet<>();
    private CompletableFuture<?> inFlight = CompletableFuture.completedFuture(null);

    LogStartTranslation(SourceOffsets source, DestinationView destination, boolean earliest) {
        this.source = source;
        this.destination = destination;
        this.earliest = earliest;
    }

    /**
     * The translation of {@code offset} of a source partition that no offset sync covers, or empty when it stays
     * untranslatable (or the log starts are not known yet).
     *
     * @param destinationEnd the mirror partition's log end as the view knows it, -1 when not known
     */
    Optional<OffsetTranslation> translate(TopicPartition sourcePartition, long offset, TopicPartition mirror,
                                          long destinationEnd, long now) {
        Known start = lookup(sourceStarts, sourcePartition, wantedSource, now);
        Known end = lookup(sourceEnds, sourcePartition, wantedSource, now);
        Known mirrorStart = lookup(destinationStarts, mirror, wantedDestination, now);
        if (start == null || end == null || mirrorStart == null || destinationEnd < 0) {
            return Optional.empty();
        }
        boolean nothingBelow = offset <= start.offset() || start.offset() == end.offset();
        if (!nothingBelow && !earliest) {
            return Optional.empty();
        }
        long bound = Math.max(0, destinationEnd - mirrorStart.offset());
        return Optional.of(bound == 0 ? OffsetTranslation.exact(offset, mirrorStart.offset())
                : OffsetTranslation.bounded(offset, mirrorStart.offset(), bound));
    }

    private static Known lookup(Map<TopicPartition, Known> known, TopicPartition tp, Set<TopicPartition> wanted,
                                long now) {
        Known k = known.get(tp);
        if (k == null || now - k.at() > MAX_AGE_MS) {
            wanted.add(tp);
        }
        return k;
    }

    /** Fetches the log starts asked about since the last fetch, unless one is still running; never blocks. */
    void refresh(long now) {
        if (!inFlight.isDone() || wantedSource.isEmpty() && wantedDestination.isEmpty()) {
            return;
        }
        // what nobody asked about for a while goes: the maps hold the partitions with offsets no sync covers
        for (Map<TopicPartition, Known> known : List.of(sourceStarts, sourceEnds, destinationStarts)) {
            known.values().removeIf(k -> now - k.at() > FORGET_AFTER_MS);
        }
        Set<TopicPartition> src = Set.copyOf(wantedSource);
        Set<TopicPartition> dst = Set.copyOf(wantedDestination);
        wantedSource.clear();
        wantedDestination.clear();
        CompletableFuture<Void> starts = source.logStarts(src).thenAccept(m -> put(sourceStarts, m, now));
        CompletableFuture<Void> ends = source.logEnds(src).thenAccept(m -> put(sourceEnds, m, now));
        CompletableFuture<Void> mirror = destination.fetchStartOffsets(dst)
                .thenAccept(m -> put(destinationStarts, m, now));
        inFlight = CompletableFuture.allOf(starts, ends, mirror).exceptionally(err -> {
            log.debug("Cannot read log starts for offsets no sync covers; next time: {}", err.toString());
            return null;
        });
    }

    private static void put(Map<TopicPartition, Known> known, Map<TopicPartition, Long> fetched, long now) {
        Map<TopicPartition, Known> update = new HashMap<>();
        fetched.forEach((tp, offset) -> update.put(tp, new Known(offset, now)));
        known.putAll(update);
    }
}
