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
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * For a while after a task is assigned to this instance, looks every few seconds at what the destination holds for
 * the task's applied consumer-group positions, and hands back those that now carry an older source commit than the
 * one applied, to be written again. Under {@code sync.foreign.offsets=adopt-forward} it also hands back those another
 * writer (MirrorMaker 2's checkpoint tasks during a switch-over) moved below what Sextant applied: written again, they
 * are taken over again.
 *
 * <pre>
 *   old owner:  plan(c1) ── read ── send(c1) ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~▶ lands late
 *   new owner:                          takes over ── write(c2) ── audit: c1 &lt; c2 ── write(c2)
 * </pre>
 *
 * <p>Why: the instance that owned the task before may have sent a write that reaches the broker after this instance
 * wrote a newer commit (a write delayed in the network, or retried by its Admin client). The old owner's
 * {@link dev.sextant.apply.WriteLease} keeps it from sending what it planned once the task may have moved, but a
 * write already sent cannot be recalled. Such a write can only be in flight for as long as an Admin call lives
 * ({@code default.api.timeout.ms}, 60 s by default), so the audit runs for {@link #WINDOW_MS} after the assignment.
 * Share groups are audited too: their offsets carry no mark, so a destination start offset below the applied one (or
 * gone) is what tells a late write (the source's start offset only moves forward, but for an explicit reset).
 *
 * <p>Cost: each round reads at most {@link #GROUPS_PER_ROUND} groups' offsets from the destination; a task with more
 * is audited in slices (by group hash), one slice per round, so each group is read every {@code slices} rounds. The
 * window is stretched so that every slice is read at least once after the 60 s an old write can live. Reading every
 * group at every round would cost this process and the destination's coordinators in proportion to the task's groups.
 */
public final class TakeoverAudit implements ReplanTrigger {

    private static final Logger log = LoggerFactory.getLogger(TakeoverAudit.class);

    /** How long a write already sent can still land: Admin's default call timeout. */
    private static final long LATE_WRITE_MS = 60_000;
    /** How long after an assignment the audit runs: twice the time a late write can land, for a margin. */
    public static final long WINDOW_MS = 2 * LATE_WRITE_MS;
    /** Between rounds: about how long a late write stands before it is found (times the number of slices). */
    public static final long INTERVAL_MS = 5_000;
    /**
     * At most this many groups' destination offsets are read per round: a round costs the same in any task. An
     * instance runs up to one task per {@code __consumer_offsets} partition, so after a rebalance it reads at most
     * that many rounds' groups every {@link #INTERVAL_MS}; reading every group of a large task at every round would
     * cost the destination's coordinators more than the writes.
     */
    static final int GROUPS_PER_ROUND = 200;

    private final long assignedAt;
    private long until;
    private int slice;
    /** Groups with applied positions when the current cycle of slices started; -1 before the first. */
    private int groupsSeen = -1;
    private long next;
    private final AtomicInteger reading = new AtomicInteger();
    private final Queue<List<PositionKey>> found = new ConcurrentLinkedQueue<>();
    private final IndexedPositions positions;
    private final Function<String, GroupKind> kindOf;
    private final Function<String, String> destinationTopic;
    private final Function<GroupKind, GroupApplier> applierOf;
    private final SextantMetrics metrics;

    /**
     * @param applierOf the phase whose destination offsets are read for a group of a kind; null for a kind not synced
     */
    TakeoverAudit(long assignedAt, IndexedPositions positions, Function<String, GroupKind> kindOf,
                  Function<String, String> destinationTopic, Function<GroupKind, GroupApplier> applierOf,
                  SextantMetrics metrics) {
        this.assignedAt = assignedAt;
        this.until = assignedAt + WINDOW_MS;
        this.next = assignedAt + INTERVAL_MS;
        this.positions = positions;
        this.kindOf = kindOf;
        this.destinationTopic = destinationTopic;
        this.applierOf = applierOf;
        this.metrics = metrics;
    }

    /** What the last reads found overwritten is written again; the next read is made when due. */
    @Override
    public void markDue(long now, PendingGroups pending) {
        for (PositionKey key : overwritten()) {
            rewrite(key, now, pending);
        }
        if (due(now)) {
            read(now, pending::inFlight);
        }
    }

    /**
     * The destination holds an older commit than the one applied for the partition: unless a newer commit is on its
     * way anyway, the partition is written again.
     */
    private void rewrite(PositionKey key, long now, PendingGroups pending) {
        PartitionPosition pos = positions.get(key);
        if (pos == null || pos.needsApply() || pos.status() != PositionStatus.APPLIED) {
            return;
        }
        log.atWarn().addKeyValue("group", key.group()).log("The destination does not hold the commit Sextant "
                + "applied for group {} partition {}-{}: an older one (a late write of the instance that owned it "
                + "before, or, under adopt-forward, of the tool Sextant took the group over from), or none (it "
                + "expired or was deleted); writing it again", key.group(), key.topic(), key.partition());
        metrics.staleWriteRepaired();
        positions.put(key, pos.withStatus(PositionStatus.PENDING, now));
        pending.mark(key, pos.commitTimestamp());
    }

    /** The positions found overwritten since the last call. */
    List<PositionKey> overwritten() {
        List<PositionKey> all = new ArrayList<>();
        List<PositionKey> batch;
        while ((batch = found.poll()) != null) {
            all.addAll(batch);
        }
        return all;
    }

    /** True when a read of the destination is due now. */
    boolean due(long now) {
        return now < until && now >= next && reading.get() == 0;
    }

    /**
     * Reads the destination offsets of the given applied positions (the caller's stream thread collected them);
     * the answer comes back through {@link #overwritten()}.
     */
    void read(long now, Predicate<String> inFlight) {
        Consumer<BiConsumer<PositionKey, PartitionPosition>> stored = positions::forEachStored;
        next = now + INTERVAL_MS;
        // a cycle's slices are sized by the groups applied when it starts, counted in a pass of its own: the same
        // slices through the cycle, so each group is read once per cycle
        if (groupsSeen < 0 || slice == 0) {
            Set<String> groups = new HashSet<>();
            stored.accept((key, pos) -> {
                if (isApplied(pos)) {
                    groups.add(key.group());
                }
            });
            groupsSeen = groups.size();
        }
        int of = Math.max(1, (groupsSeen + GROUPS_PER_ROUND - 1) / GROUPS_PER_ROUND);
        int at = slice % of;
        slice = (at + 1) % of;
        // every slice is read at least once after an old write's last chance to land
        until = Math.max(until, assignedAt + LATE_WRITE_MS + (long) of * INTERVAL_MS);
        Map<GroupKind, Map<String, List<PlannedPartition>>> applied = new EnumMap<>(GroupKind.class);
        Map<String, Optional<GroupKind>> audited = new HashMap<>();
        stored.accept((key, pos) -> {
            // the slice first: the walk visits every position of the task, and most are another round's
            if (Math.floorMod(key.group().hashCode(), of) != at || !isApplied(pos)) {
                return;
            }
            // empty: in flight, or a kind not synced
            Optional<GroupKind> kind = audited.computeIfAbsent(key.group(), g -> !inFlight.test(g)
                    ? Optional.ofNullable(kindOf.apply(g)).filter(k -> applierOf.apply(k) != null)
                    : Optional.empty());
            if (kind.isPresent()) {
                applied.computeIfAbsent(kind.get(), k -> new HashMap<>())
                        .computeIfAbsent(key.group(), g -> new ArrayList<>()).add(TranslatedPosition.of(key,
                        new TopicPartition(destinationTopic.apply(key.topic()), key.partition()), pos).applied());
            }
        });
        applied.forEach((kind, groups) -> {
            reading.incrementAndGet();
            applierOf.apply(kind).overwritten(groups).whenComplete((keys, err) -> {
                if (keys != null && !keys.isEmpty()) {
                    found.add(keys);
                } else if (err != null) {
                    log.debug("Auditing the destination offsets failed; next time: {}", err.toString());
                }
                reading.decrementAndGet();
            });
        });
    }

    private static boolean isApplied(PartitionPosition pos) {
        return pos.status() == PositionStatus.APPLIED && !pos.needsApply() && pos.appliedOffset() >= 0
                && pos.commitTimestamp() >= 0;
    }
}
