package dev.sextant.sync;

import dev.sextant.apply.GroupApplier;
import dev.sextant.apply.PlannedPartition;
import dev.sextant.apply.TranslatedPosition;
import dev.sextant.domain.GroupKind;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applied consumer-group positions whose offsets are gone from the destination: written again at the flush after
 * the read that confirms it, whatever took them (the destination's retention, which deletes all of an Empty group's
 * offsets a retention after its last member left however recently they were written, a destination restarted with a
 * shorter retention, an operator's {@code kafka-consumer-groups --delete}). A consumer failing over to a group
 * without offsets would start at its {@code auto.offset.reset}: a skip or a full replay.
 *
 * <pre>
 *   each new listing of the destination's groups ──▶ applied groups it lacks ──▶ read their offsets (the applier)
 *     ──▶ gone (or an older mark) ──▶ pending again
 * </pre>
 *
 * <p>The listing is the hint, the read the proof: a broker lists only the groups of the coordinators it holds right
 * then, so a listing taken while a coordinator moves (a broker restart) lacks groups that are there. A group counts as
 * a candidate only when every position was answered before the listing started ({@code appliedAt} &lt;
 * {@link dev.sextant.apply.DestinationView#groupsListedAt}): a group the destination holds is in every complete
 * listing started after it took the write. Groups with a write in flight are left to that write.
 *
 * <p>Cost: one walk of the task's positions in memory per new listing, at most every {@link #checkInterval} (2 s,
 * and 2 s more per 1,000 positions of the task, up to 20 s), and one offsets read per unlisted group (none while
 * every group is listed). Share groups are not looked at: their start offsets do not expire.
 */
final class VanishedGroups implements ReplanTrigger {

    /** At most one walk per this long, however often the destination's groups are listed. */
    static final long CHECK_INTERVAL_MS = 2_000;
    /** ... and this long more per {@code WALK_STEP} positions of the task, up to {@code CHECK_INTERVAL_MAX_MS}. */
    static final int WALK_STEP = 1_000;
    static final long CHECK_INTERVAL_MAX_MS = 20_000;
    /** Unlisted groups read per walk at most: a listing that lacks many (a coordinator moving) costs one round. */
    static final int MAX_READS = 200;

    private static final Logger log = LoggerFactory.getLogger(VanishedGroups.class);

    private final IndexedPositions positions;
    private final Function<String, GroupKind> kindOf;
    private final LongSupplier listedAt;
    private final Predicate<String> listed;
    private final Function<String, String> destinationTopic;
    private final GroupApplier applier;
    private final SextantMetrics metrics;
    private final AtomicInteger reading = new AtomicInteger();
    private final Queue<List<PositionKey>> confirmed = new ConcurrentLinkedQueue<>();
    private long checkedListing = -1;
    private long nextCheck;

    /**
     * @param listedAt         when the destination listing in use was started, -1 before the first
     * @param listed           whether the destination listing holds a group
     * @param destinationTopic the mirror's name of a source topic
     * @param applier          the consumer-group phase, which reads what the destination holds
     */
    VanishedGroups(IndexedPositions positions, Function<String, GroupKind> kindOf, LongSupplier listedAt,
                   Predicate<String> listed, Function<String, String> destinationTopic, GroupApplier applier,
                   SextantMetrics metrics) {
        this.positions = positions;
        this.kindOf = kindOf;
        this.listedAt = listedAt;
        this.listed = listed;
        this.destinationTopic = destinationTopic;
        this.applier = applier;
        this.metrics = metrics;
    }

    @Override
    public void markDue(long now, PendingGroups pending) {
        List<PositionKey> gone = new ArrayList<>();
        List<PositionKey> batch;
        while ((batch = confirmed.poll()) != null) {
            gone.addAll(batch);
        }
        int replanned = 0;
        for (PositionKey key : gone) {
            PartitionPosition pos = positions.get(key);
            if (pos != null && applied(pos)) {
                positions.put(key, pos.withStatus(PositionStatus.PENDING, now));
                // a re-plan, not a late commit: the age of the oldest waiting commit stays what it is
                pending.mark(key);
                replanned++;
            }
        }
        if (replanned > 0) {
            metrics.offsetsVanished(replanned);
            log.atWarn().addKeyValue("group", gone.get(0).group()).log("{} applied offset(s) are gone from the "
                    + "destination (e.g. group {}): its offsets retention deleted them (for an Empty group, a "
                    + "retention after its last member left), or someone deleted them; writing them again",
                    replanned, gone.get(0).group());
        }
        long listing = listedAt.getAsLong();
        if (listing < 0 || listing == checkedListing || now < nextCheck || reading.get() > 0) {
            return;
        }
        checkedListing = listing;
        nextCheck = now + checkInterval(positions.size());
        Map<String, List<PlannedPartition>> unlisted = unlisted(listing, pending::inFlight);
        if (!unlisted.isEmpty()) {
            read(unlisted);
        }
    }

    /**
     * How long until the next walk after one of a task with {@code positions} positions: offsets the destination
     * dropped are found within seconds in a small task and within {@link #CHECK_INTERVAL_MAX_MS} in a large one,
     * whose walks would otherwise take a share of the stream thread that grows with the task.
     */
    static long checkInterval(int positions) {
        return Math.min(CHECK_INTERVAL_MAX_MS, CHECK_INTERVAL_MS * (1 + positions / WALK_STEP));
    }

    /** Reads what the destination holds for the unlisted groups; what is gone comes back at a later flush. */
    private void read(Map<String, List<PlannedPartition>> unlisted) {
        reading.incrementAndGet();
        applier.overwritten(unlisted).whenComplete((keys, err) -> {
            if (keys != null && !keys.isEmpty()) {
                confirmed.add(keys);
            } else if (err != null) {
                log.debug("Reading the offsets of groups the destination did not list failed; next listing: {}",
                        err.toString());
            }
            reading.decrementAndGet();
        });
    }

    /**
     * The applied consumer-group positions of groups the listing started at {@code listing} lacks, as what Sextant
     * expects the destination to hold ({@link TranslatedPosition#applied}), by group; at most {@link #MAX_READS}.
     */
    Map<String, List<PlannedPartition>> unlisted(long listing, Predicate<String> inFlight) {
        // per group: still a candidate? Decided at its first applied position, and withdrawn at the first one
        // answered after the listing started; most groups are listed, so most positions cost this one lookup
        Map<String, Boolean> candidate = new HashMap<>();
        Map<String, List<PlannedPartition>> out = new HashMap<>();
        positions.forEachStored((key, pos) -> {
            if (!applied(pos) || !candidate.computeIfAbsent(key.group(), g -> kindOf.apply(g) == GroupKind.CONSUMER
                    && !inFlight.test(g) && !listed.test(g))) {
                return;
            }
            if (pos.appliedAt() >= listing) {
                // written since the listing started: the write may have made the group after the listing passed it
                candidate.put(key.group(), Boolean.FALSE);
                out.remove(key.group());
                return;
            }
            out.computeIfAbsent(key.group(), g -> new ArrayList<>()).add(TranslatedPosition.of(key,
                    new TopicPartition(destinationTopic.apply(key.topic()), key.partition()), pos).applied());
        });
        if (out.size() > MAX_READS) {
            out.keySet().retainAll(new ArrayList<>(out.keySet()).subList(0, MAX_READS));
        }
        return out;
    }

    private static boolean applied(PartitionPosition pos) {
        return pos.status() == PositionStatus.APPLIED && !pos.needsApply() && pos.appliedOffset() >= 0
                && pos.appliedAt() >= 0;
    }
}
