package dev.sextant.topology;

import dev.sextant.apply.GroupApplier;
import dev.sextant.apply.PlannedPartition;
import dev.sextant.domain.GroupKind;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
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
 * one applied, to be written again.
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
 * Share-group offsets carry no mark, so only consumer groups are audited.
 */
final class TakeoverAudit {

    private static final Logger log = LoggerFactory.getLogger(TakeoverAudit.class);

    /** How long after an assignment the audit runs: twice the Admin client's default call timeout. */
    static final long WINDOW_MS = 120_000;
    static final long INTERVAL_MS = 5_000;

    private final long until;
    private long next;
    private final AtomicBoolean reading = new AtomicBoolean();
    private final Queue<List<PositionKey>> found = new ConcurrentLinkedQueue<>();

    TakeoverAudit(long assignedAt) {
        this.until = assignedAt + WINDOW_MS;
        this.next = assignedAt + INTERVAL_MS;
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
        return now < until && now >= next && !reading.get();
    }

    /**
     * Reads the destination offsets of the given applied positions (the caller's stream thread collected them);
     * the answer comes back through {@link #overwritten()}.
     */
    void read(long now, Consumer<BiConsumer<PositionKey, PartitionPosition>> stored, Predicate<String> inFlight,
              Function<String, GroupKind> kindOf, Function<String, String> destinationTopic, GroupApplier applier) {
        next = now + INTERVAL_MS;
        Map<String, List<PlannedPartition>> applied = new HashMap<>();
        Map<String, Boolean> audited = new HashMap<>();
        stored.accept((key, pos) -> {
            if (pos.status() != PositionStatus.APPLIED || pos.needsApply() || pos.appliedOffset() < 0
                    || pos.commitTimestamp() < 0) {
                return;
            }
            boolean audit = audited.computeIfAbsent(key.group(),
                    g -> kindOf.apply(g) == GroupKind.CONSUMER && !inFlight.test(g));
            if (audit) {
                applied.computeIfAbsent(key.group(), g -> new ArrayList<>()).add(new PlannedPartition(key,
                        new TopicPartition(destinationTopic.apply(key.topic()), key.partition()),
                        pos.sourceOffset(), pos.commitTimestamp(), pos.appliedOffset()));
            }
        });
        if (applied.isEmpty()) {
            return;
        }
        reading.set(true);
        applier.overwritten(applied).whenComplete((keys, err) -> {
            if (keys != null && !keys.isEmpty()) {
                found.add(keys);
            } else if (err != null) {
                log.debug("Auditing the destination offsets failed; next time: {}", err.toString());
            }
            reading.set(false);
        });
    }
}
