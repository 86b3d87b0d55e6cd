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
 * group per flush. The call creates a share group that does not exist on the destination yet; it fails with
 * {@code GroupNotEmptyException} while the group has members ({@code GROUP_ACTIVE}) and with
 * {@code GroupIdNotFoundException} when the id belongs to a consumer or streams group ({@code TYPE_CONFLICT}).
 *
 * <p>Share offsets carry no metadata, so unlike consumer groups Sextant cannot tell its own writes from a destination
 * consumer's: the {@code DESTINATION_DIVERGED} guard does not exist for share groups, and the active-group guard is
 * what keeps a live share group on the destination untouched. The takeover audit ({@link #overwritten}) reads the
 * start offsets instead: one below what was applied is a late write of the previous owner.
 */
public final class ShareGroupApplier implements GroupApplier {

    private static final Logger log = LoggerFactory.getLogger(ShareGroupApplier.class);

    private final DestinationClient client;
    private final AccessDenials denials;
    private final UnansweredWrites handedOver = new UnansweredWrites();

    public ShareGroupApplier(DestinationClient client) {
        this(client, new AccessDenials(Clock.systemUTC()));
    }

    /** @param denials where the destination's authorization errors are reported (they are retried too) */
    public ShareGroupApplier(DestinationClient client, AccessDenials denials) {
        this.client = client;
        this.denials = denials;
    }

    @Override
    public void apply(Map<String, List<PlannedPartition>> plans, WriteLease lease, Consumer<GroupOutcome> done) {
        plans.forEach((group, parts) -> {
            Map<TopicPartition, Long> offsets = new HashMap<>();
            Map<TopicPartition, PlannedPartition> byPartition = new HashMap<>();
            parts.forEach(p -> {
                offsets.put(p.destination(), p.translatedOffset());
                byPartition.put(p.destination(), p);
            });
            // the client checks the lease when it sends, which may be after earlier groups' writes are absorbed
            client.alterShareGroupOffsets(group, offsets, lease)
                    .thenApply(errors -> {
                        Map<PositionKey, PartitionOutcome> outcomes = new HashMap<>();
                        errors.forEach((tp, err) -> {
                            PlannedPartition p = byPartition.get(tp);
                            if (err == null) {
                                outcomes.put(p.key(),
                                        new PartitionOutcome(PositionStatus.APPLIED, p.translatedOffset(), true));
                                denials.succeeded(RequiredAcl.Cluster.DESTINATION, group);
                            } else if (err instanceof UnknownTopicOrPartitionException) {
                                outcomes.put(p.key(), new PartitionOutcome(PositionStatus.TOPIC_NOT_MIRRORED, -1));
                            } else if (err instanceof TopicAuthorizationException denied) {
                                denials.denied(RequiredAcl.Cluster.DESTINATION, denied, group);
                                outcomes.put(p.key(), new PartitionOutcome(PositionStatus.PENDING, -1));
                            } else {
                                log.debug("Writing {} of share group {} failed, will retry: {}", tp, group,
                                        err.toString());
                                outcomes.put(p.key(), new PartitionOutcome(PositionStatus.PENDING, -1));
                            }
                        });
                        return new GroupOutcome(group, null, false, null, outcomes);
                    })
                    .exceptionally(err -> classify(group, parts, KafkaFutures.unwrap(err)))
                    .thenAccept(outcome -> {
                        handedOver.answered();
                        done.accept(outcome);
                    });
            handedOver.handedOver();
        });
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
