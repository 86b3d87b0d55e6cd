package dev.sextant.apply;

import dev.sextant.acl.AccessDenials;
import dev.sextant.acl.RequiredAcl;
import dev.sextant.apply.GroupOutcome.PartitionOutcome;
import dev.sextant.domain.Reason;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The share-group phase: writes share-partition start offsets with {@code alterShareGroupOffsets}, one request per
 * group per flush, after one batched read of the groups' start offsets on the destination. The call creates a share
 * group that does not exist on the destination yet; it fails with {@code GroupNotEmptyException} while the group has
 * members ({@code GROUP_ACTIVE}) and with {@code GroupIdNotFoundException} when the id belongs to a consumer or streams
 * group ({@code TYPE_CONFLICT}).
 *
 * <p>Share offsets carry no metadata, so Sextant cannot mark its writes: whose a start offset is follows from the
 * read just before the write ({@link ShareStartReads}): the records delivered above it there (the lag the destination
 * reports counts them; a share consumer's acknowledgements often leave the stored start offset where it was), and
 * what Sextant applied last for the partition ({@link ShareGroupWrite}). A group a share consumer consumed on the
 * destination, and then left (no members, so the active-group guard no longer stands in the way), is refused
 * {@code DESTINATION_DIVERGED}, as a consumer group with foreign offsets is. The takeover audit
 * ({@link #overwritten}) reads the start offsets too: one below what was applied is a late write of the previous owner.
 */
public final class ShareGroupApplier implements GroupApplier {

    private static final Logger log = LoggerFactory.getLogger(ShareGroupApplier.class);

    private final DestinationClient client;
    private final boolean adoptForward;
    private final AccessDenials denials;
    private final UnansweredWrites handedOver = new UnansweredWrites();

    public ShareGroupApplier(DestinationClient client) {
        this(client, OverwritePolicy.DEFAULTS, new AccessDenials(Clock.systemUTC()));
    }

    /**
     * @param overwrites which start offsets it may write over besides its own: under adopt-forward, one someone else
     *                   moved, when the translation is at or above it
     * @param denials    where the destination's authorization errors are reported (they are retried too)
     */
    public ShareGroupApplier(DestinationClient client, OverwritePolicy overwrites, AccessDenials denials) {
        this.client = client;
        this.adoptForward = overwrites.adoptForward();
        this.denials = denials;
    }

    @Override
    public void apply(Map<String, List<PlannedPartition>> plans, WriteLease lease, Consumer<GroupOutcome> done) {
        Map<String, Set<TopicPartition>> partitions = new HashMap<>();
        plans.forEach((group, parts) -> partitions.put(group,
                parts.stream().map(PlannedPartition::destination).collect(Collectors.toSet())));
        Map<String, CompletableFuture<ShareStartReads.Read>> current = ShareStartReads.read(client, partitions);
        plans.forEach((group, parts) -> {
            current.get(group)
                    .thenCompose(read -> write(group, parts, read, lease))
                    .exceptionally(err -> classify(group, parts, KafkaFutures.unwrap(err)))
                    .thenAccept(outcome -> {
                        handedOver.answered();
                        done.accept(outcome);
                    });
            handedOver.handedOver();
        });
    }

    private CompletableFuture<GroupOutcome> write(String group, List<PlannedPartition> parts,
                                                  ShareStartReads.Read read, WriteLease lease) {
        ShareGroupWrite w = new ShareGroupWrite(adoptForward);
        parts.forEach(p -> w.add(p, read.starts().get(p.destination()),
                read.endsBefore().getOrDefault(p.destination(), -1L)));
        // the group is theirs as a whole: records delivered on a partition the write does not touch count too
        w.deliveredElsewhere(read.starts(), read.endsBefore());
        if (!w.foreign.isEmpty()) {
            return CompletableFuture.completedFuture(new GroupOutcome(group, Reason.DESTINATION_DIVERGED, false,
                    w.divergedDetail(), w.diverged(read.starts())));
        }
        if (!w.adopted.isEmpty()) {
            log.atInfo().addKeyValue("group", group).log("Taking over share group {} (sync.foreign.offsets="
                    + "adopt-forward): start offsets Sextant did not leave, moved forward to the translation: {}",
                    group, String.join(", ", w.adopted));
        }
        if (w.writes.isEmpty()) {
            return CompletableFuture.completedFuture(new GroupOutcome(group, null, false, null, w.outcomes));
        }
        // the client checks the lease when it sends, which may be after earlier groups' writes are absorbed
        return client.alterShareGroupOffsets(group, w.writes, lease).thenApply(errors -> {
            errors.forEach((tp, err) -> {
                PlannedPartition p = w.planned.get(tp);
                w.outcomes.put(p.key(), written(group, tp, err, p));
            });
            return new GroupOutcome(group, null, false, null, w.outcomes);
        });
    }

    /** One partition's write as the destination answered it: {@code err} null when it took the start offset. */
    private PartitionOutcome written(String group, TopicPartition tp, Throwable err, PlannedPartition p) {
        if (err == null) {
            denials.succeeded(RequiredAcl.Cluster.DESTINATION, group);
            return new PartitionOutcome(PositionStatus.APPLIED, p.translatedOffset(), true);
        } else if (err instanceof UnknownTopicOrPartitionException) {
            return new PartitionOutcome(PositionStatus.TOPIC_NOT_MIRRORED, -1);
        } else if (err instanceof TopicAuthorizationException denied) {
            denials.denied(RequiredAcl.Cluster.DESTINATION, denied, group);
            return new PartitionOutcome(PositionStatus.PENDING, -1);
        }
        log.debug("Writing {} of share group {} failed, will retry: {}", tp, group, err.toString());
        return new PartitionOutcome(PositionStatus.PENDING, -1);
    }

    @Override
    public int unanswered() {
        return handedOver.unanswered();
    }

    @Override
    public long answered() {
        return handedOver.answeredSoFar();
    }

    /**
     * Of the given partitions, each holding an applied start offset, those whose destination start offset is now
     * below it or gone. Share offsets carry no mark, so this is the one sign a late write of an older position (from
     * the instance that owned the task before) landed over it: the source's start offset only moves forward, but for
     * an explicit reset. Read only in the audit window after an assignment, when the group has no members on the
     * destination (writes to an active group are refused, so a live consumer's progress is never read as this).
     */
    @Override
    public CompletableFuture<List<PositionKey>> overwritten(Map<String, List<PlannedPartition>> applied) {
        Map<String, Set<TopicPartition>> partitions = new HashMap<>();
        applied.forEach((group, parts) -> partitions.put(group,
                parts.stream().map(PlannedPartition::destination).collect(Collectors.toSet())));
        Map<String, CompletableFuture<Map<TopicPartition, Long>>> read = client.auditShareGroupOffsets(partitions);
        List<PositionKey> out = new CopyOnWriteArrayList<>();
        CompletableFuture<?>[] all = applied.entrySet().stream().map(e -> read.get(e.getKey())
                .thenAccept(now -> e.getValue().forEach(p -> {
                    Long there = now.get(p.destination());
                    if (there == null || there < p.translatedOffset()) {
                        out.add(p.key());
                    }
                }))).toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(all).thenApply(v -> List.copyOf(out));
    }

    private GroupOutcome classify(String group, List<PlannedPartition> parts, Throwable err) {
        if (err instanceof WriteLeaseExpiredException) {
            return GroupOutcome.cancelled(group);
        }
        if (err instanceof GroupNotEmptyException) {
            return GroupOutcome.refused(group, parts, Reason.GROUP_ACTIVE, PositionStatus.GROUP_ACTIVE, err);
        }
        if (err instanceof GroupIdNotFoundException) {
            return GroupOutcome.refused(group, parts, Reason.TYPE_CONFLICT, PositionStatus.TYPE_CONFLICT, err);
        }
        Optional<AuthorizationException> denied = AccessDenials.authorization(err);
        if (denied.isPresent()) {
            denials.denied(RequiredAcl.Cluster.DESTINATION, denied.get(), group); // logged there, once a minute
            return GroupOutcome.retry(group, err);
        }
        log.atWarn().addKeyValue("group", group)
                .log("Cannot apply share group {} on the destination now, will retry: {}", group, err.toString());
        return GroupOutcome.retry(group, err);
    }
}
