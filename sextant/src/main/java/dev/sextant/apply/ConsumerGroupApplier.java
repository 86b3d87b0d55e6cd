package dev.sextant.apply;

import dev.sextant.acl.AccessDenials;
import dev.sextant.acl.RequiredAcl;
import dev.sextant.apply.GroupOutcome.PartitionOutcome;
import dev.sextant.domain.Reason;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.FencedMemberEpochException;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.errors.IllegalGenerationException;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownMemberIdException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer-group phase: writes translated positions with {@code alterConsumerGroupOffsets}, one request per
 * group per flush, after one batched read of the groups' current destination offsets.
 *
 * <pre>
 *   plans ──▶ listConsumerGroupOffsets (all groups, every partition, one batch) ──▶ per group:
 *               any mark naming another source cluster, on any partition ─▶ SOURCE_CHANGED, nothing written
 *               any offset not Sextant's, on any partition ─▶ DESTINATION_DIVERGED, nothing written
 *                 (adopt-forward: unless the translation is at or above it: then taken over)
 *               current carries a newer source commit ─▶ SUPERSEDED, nothing written
 *               current is exact for this or an older commit, the plan below it ─▶ APPLIED at current (ExactFloor)
 *               translated == current ────────────────▶ APPLIED, nothing written (unless written again on purpose)
 *               translated &lt; current, rewind=never ──▶ REWIND_SKIPPED
 *               else ──▶ alterConsumerGroupOffsets ──▶ APPLIED | GROUP_ACTIVE | TYPE_CONFLICT | TOPIC_NOT_MIRRORED
 * </pre>
 *
 * <p>Invariants: it never writes a group that holds an offset Sextant did not write, on any partition (under
 * adopt-forward: only when every such offset is in the write and its translation is at or above it: the group is
 * taken over whole or not at all), nor over an offset that carries a newer source commit
 * ({@link OffsetOwnership.Mark}), nor below an exact translation of the same or an older commit ({@link ExactFloor}),
 * as far as the read just before the write shows; it sends offsets only under a valid {@link WriteLease}, so a task
 * that was revoked or frozen meanwhile does not write what it read before.
 * Everything runs on Admin futures, the caller's thread never blocks; every plan gets exactly one
 * {@link GroupOutcome}, also when the destination cannot be reached ({@code retry}), so no position is dropped.
 */
public final class ConsumerGroupApplier implements GroupApplier {

    private static final Logger log = LoggerFactory.getLogger(ConsumerGroupApplier.class);

    private final DestinationClient client;
    private final OffsetOwnership ownership;
    private final boolean followRewinds;
    private final boolean adoptForward;
    private final AccessDenials denials;
    private final UnansweredWrites handedOver = new UnansweredWrites();
    private final SourceClusterChange sourceChange = new SourceClusterChange(Clock.systemUTC());

    /**
     * @param overwrites which offsets it may write over besides its own, forward
     * @param denials    where the destination's authorization errors are reported (they are retried too)
     */
    public ConsumerGroupApplier(DestinationClient client, OffsetOwnership ownership, OverwritePolicy overwrites,
                                AccessDenials denials) {
        this.client = client;
        this.ownership = ownership;
        this.followRewinds = overwrites.followRewinds();
        this.adoptForward = overwrites.adoptForward();
        this.denials = denials;
    }

    @Override
    public void apply(Map<String, List<PlannedPartition>> plans, WriteLease lease, Consumer<GroupOutcome> done) {
        Map<String, CompletableFuture<Map<TopicPartition, OffsetAndMetadata>>> current;
        try {
            current = client.consumerGroupOffsets(plans.keySet());
        } catch (RuntimeException e) {
            plans.keySet().forEach(group -> done.accept(retry(group, e, denials)));
            return;
        }
        plans.forEach((group, parts) -> {
            current.get(group)
                    .thenCompose(existing -> write(group, parts, existing, lease))
                    .exceptionally(err -> classify(group, parts, KafkaFutures.unwrap(err)))
                    .thenAccept(outcome -> {
                        handedOver.answered();
                        done.accept(outcome);
                    });
            handedOver.handedOver();
        });
    }

    /**
     * Rewrites, in place, the offsets of a group whose marks name another source cluster under a released mark
     * ({@link OffsetOwnership#released}), for {@code rebaseline --source}: the same offsets, so no consumer moves;
     * the write fails, nothing changed, when the offsets moved since {@code readBefore} or the group has members.
     *
     * @return per partition the error, or null when rewritten; empty when no mark names another source
     */
    public CompletableFuture<Map<TopicPartition, Throwable>> releaseMarks(
            String group, Map<TopicPartition, OffsetAndMetadata> readBefore) {
        Map<TopicPartition, OffsetAndMetadata> released = new HashMap<>();
        readBefore.forEach((tp, om) -> ownership.mark(om.metadata()).filter(ownership::fromAnotherSource)
                .ifPresent(mark -> released.put(tp, new OffsetAndMetadata(om.offset(), ownership.released(mark)))));
        if (released.isEmpty()) {
            return CompletableFuture.completedFuture(Map.of());
        }
        return client.alterConsumerGroupOffsets(group, released, WriteLease.ALWAYS, readBefore);
    }

    /** Groups refused because their destination offsets name another source cluster, as last met. */
    public SourceClusterChange sourceChange() {
        return sourceChange;
    }

    @Override
    public int unanswered() {
        return handedOver.unanswered();
    }

    @Override
    public long answered() {
        return handedOver.answeredSoFar();
    }

    private CompletableFuture<GroupOutcome> write(String group, List<PlannedPartition> parts,
                                                  Map<TopicPartition, OffsetAndMetadata> existing, WriteLease lease) {
        Optional<GroupOutcome> otherSource = fromAnotherSource(group, parts, existing);
        if (otherSource.isPresent()) {
            return CompletableFuture.completedFuture(otherSource.get());
        }
        GroupWrite w = new GroupWrite(ownership, followRewinds, adoptForward);
        for (PlannedPartition part : parts) {
            w.add(part, existing.get(part.destination()));
        }
        // adopt-forward too: the group is taken over whole or not at all, so a partition its consumers committed
        // outside this write (a group partly taken over on the target) keeps the whole group theirs
        w.foreignElsewhere(existing);
        if (!w.foreign.isEmpty()) {
            return CompletableFuture.completedFuture(diverged(group, parts, existing, w.foreign));
        }
        if (!w.adopted.isEmpty()) {
            log.atInfo().addKeyValue("group", group).log("Taking over group {} (sync.foreign.offsets=adopt-forward): "
                    + "offsets Sextant did not write, moved forward to the translation: {}", group,
                    String.join(", ", w.adopted));
        }
        if (w.writes.isEmpty()) {
            return CompletableFuture.completedFuture(new GroupOutcome(group, null, false, null, w.outcomes));
        }
        // the client checks the lease when it sends, which may be after earlier groups' writes are absorbed
        return client.alterConsumerGroupOffsets(group, w.writes, lease, existing).thenApply(errors -> {
            errors.forEach((tp, err) -> w.answered(tp, written(group, tp, err, w.writes.get(tp))));
            return new GroupOutcome(group, null, false, null, w.outcomes);
        });
    }

    /**
     * A group whose destination offsets, on any partition, carry marks of another source cluster: its commits are not
     * ordered against this source's (a replaced source starts {@code __consumer_offsets} again at 0, so every new
     * commit would rank below them and never be written). Refused as a whole until an operator releases the marks.
     */
    private Optional<GroupOutcome> fromAnotherSource(String group, List<PlannedPartition> parts,
                                                     Map<TopicPartition, OffsetAndMetadata> existing) {
        Optional<String> current = ownership.sourceCluster();
        if (current.isEmpty()) {
            return Optional.empty();
        }
        Set<String> others = new TreeSet<>();
        existing.values().forEach(now -> ownership.otherSource(now.metadata()).ifPresent(others::add));
        if (others.isEmpty()) {
            return Optional.empty();
        }
        sourceChange.seen(String.join(", ", others), current.get());
        Map<PositionKey, PartitionOutcome> refused = new HashMap<>();
        for (PlannedPartition part : parts) {
            OffsetAndMetadata now = existing.get(part.destination());
            refused.put(part.key(), new PartitionOutcome(PositionStatus.SOURCE_CHANGED,
                    now == null ? -1 : now.offset()));
        }
        return Optional.of(new GroupOutcome(group, Reason.SOURCE_CHANGED, false,
                "destination offsets of the group were written from source cluster " + String.join(", ", others)
                        + ", and this source is cluster " + current.get() + " (replaced, or source.bootstrap.servers "
                        + "names another cluster): its new commits cannot be ordered against them; nothing is "
                        + "written until an operator runs 'sextant rebaseline --source --apply'", refused));
    }

    /** A group someone else committed on is theirs: every partition is left alone, not just those. */
    private static GroupOutcome diverged(String group, List<PlannedPartition> parts,
                                         Map<TopicPartition, OffsetAndMetadata> existing, Set<String> foreign) {
        Map<PositionKey, PartitionOutcome> diverged = new HashMap<>();
        for (PlannedPartition part : parts) {
            OffsetAndMetadata now = existing.get(part.destination());
            diverged.put(part.key(), new PartitionOutcome(PositionStatus.DESTINATION_DIVERGED,
                    now == null ? -1 : now.offset()));
        }
        return new GroupOutcome(group, Reason.DESTINATION_DIVERGED, false,
                "offsets on the destination were committed by someone other than Sextant: "
                        + String.join(", ", foreign), diverged);
    }

    /** One partition's write as the destination answered it: {@code err} null when it took the offset. */
    private PartitionOutcome written(String group, TopicPartition tp, Throwable err, OffsetAndMetadata written) {
        if (err == null) {
            denials.succeeded(RequiredAcl.Cluster.DESTINATION, group);
            return new PartitionOutcome(PositionStatus.APPLIED, written.offset(), true);
        } else if (err instanceof UnknownTopicOrPartitionException) {
            return new PartitionOutcome(PositionStatus.TOPIC_NOT_MIRRORED, -1);
        } else if (err instanceof TopicAuthorizationException denied) {
            denials.denied(RequiredAcl.Cluster.DESTINATION, denied, group);
            return new PartitionOutcome(PositionStatus.PENDING, -1);
        } else {
            log.debug("Writing {} of group {} failed, will retry: {}", tp, group, err.toString());
            return new PartitionOutcome(PositionStatus.PENDING, -1);
        }
    }

    @Override
    public CompletableFuture<List<PositionKey>> overwritten(Map<String, List<PlannedPartition>> applied) {
        Map<String, Set<TopicPartition>> wanted = new HashMap<>();
        applied.forEach((group, parts) -> wanted.put(group,
                parts.stream().map(PlannedPartition::destination).collect(Collectors.toSet())));
        Map<String, CompletableFuture<Map<TopicPartition, OffsetAndMetadata>>> current;
        try {
            current = client.auditGroupOffsets(wanted);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        List<PositionKey> older = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<?>[] each = applied.entrySet().stream().map(e -> current.get(e.getKey())
                .thenAccept(existing -> e.getValue().forEach(part -> {
                    OffsetAndMetadata now = existing.get(part.destination());
                    // the same offset under an older mark is no late write: a newer commit that translated to the
                    // offset already there settled without a write, and left the older commit's mark
                    boolean olderMark = now != null && now.offset() != part.translatedOffset()
                            && ownership.mark(now.metadata())
                            .map(m -> !ownership.fromAnotherSource(m) && m.olderThan(part))
                            .orElse(false);
                    // adopt-forward: another writer (MirrorMaker 2's old checkpoint tasks, typically, which read
                    // the destination before Sextant's write and wrote after it) moved a taken-over offset back, or
                    // wrote the same offset under its own name; written again it is taken over again, as a new
                    // commit would do (once: then it carries Sextant's mark)
                    boolean foreignBehind = adoptForward && now != null && !ownership.owns(now.metadata())
                            && now.offset() <= part.translatedOffset();
                    // gone: the destination deleted it (its offsets retention ran out while Sextant was down) or
                    // someone deleted the group; Sextant still holds it applied, so it is written again
                    boolean gone = now == null;
                    if (olderMark || foreignBehind || gone) {
                        older.add(part.key());
                    }
                }))
                .exceptionally(err -> null)) // a group that cannot be read now is looked at next time
                .toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(each).thenApply(v -> List.copyOf(older));
    }

    private static final long LEASE_LOG_INTERVAL_MS = 10_000;
    private final AtomicLong leaseExpiredSinceLog = new AtomicLong();
    private volatile long lastLeaseExpiredLog;

    private GroupOutcome classify(String group, List<PlannedPartition> parts, Throwable err) {
        if (err instanceof WriteLeaseExpiredException) {
            // what was read before may already be older than what the group's new owner wrote
            // a slow destination expires many queued writes at once: one line per interval, with the count
            long expired = leaseExpiredSinceLog.incrementAndGet();
            long now = System.currentTimeMillis();
            if (now - lastLeaseExpiredLog >= LEASE_LOG_INTERVAL_MS) {
                lastLeaseExpiredLog = now;
                leaseExpiredSinceLog.addAndGet(-expired);
                log.atInfo().addKeyValue("group", group).log("Not writing {} group(s), e.g. {}: the write lease ran "
                        + "out (the write waited for the destination to absorb earlier writes, the task was revoked, "
                        + "or this instance was held up long enough for another one to own it); each is retried if "
                        + "its task is still this instance's", expired, group);
            }
            return GroupOutcome.cancelled(group);
        }
        if (err instanceof DestinationChangedException) {
            // someone committed on the group while the write waited: a new read decides (most often: theirs)
            return GroupOutcome.cancelled(group);
        }
        if (err instanceof UnknownMemberIdException || err instanceof GroupNotEmptyException
                || err instanceof RebalanceInProgressException || err instanceof IllegalGenerationException
                || err instanceof FencedMemberEpochException) {
            return GroupOutcome.refused(group, parts, Reason.GROUP_ACTIVE, PositionStatus.GROUP_ACTIVE, err);
        }
        if (err instanceof GroupIdNotFoundException) {
            // the broker answers "group id not found" when the id belongs to a share group
            return GroupOutcome.refused(group, parts, Reason.TYPE_CONFLICT, PositionStatus.TYPE_CONFLICT, err);
        }
        return retry(group, err, denials);
    }

    private static GroupOutcome retry(String group, Throwable err, AccessDenials denials) {
        Optional<AuthorizationException> denied = AccessDenials.authorization(err);
        if (denied.isPresent()) {
            denials.denied(RequiredAcl.Cluster.DESTINATION, denied.get(), group); // logged there, once a minute
            return GroupOutcome.retry(group, err);
        }
        log.atWarn().addKeyValue("group", group).log("Cannot apply group {} on the destination now, will retry: {}",
                group, err.toString());
        return GroupOutcome.retry(group, err);
    }
}
