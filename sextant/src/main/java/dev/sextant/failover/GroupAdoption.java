package dev.sextant.failover;

import dev.sextant.apply.AdminDestinationClient;
import dev.sextant.apply.ConsumerGroupApplier;
import dev.sextant.apply.DestinationGroup;
import dev.sextant.apply.GroupOutcome;
import dev.sextant.apply.OffsetOwnership;
import dev.sextant.apply.PlannedPartition;
import dev.sextant.client.SextantClient;
import dev.sextant.client.SextantClientException;
import dev.sextant.config.RewindPolicy;
import dev.sextant.config.SextantConfig;
import dev.sextant.domain.GroupKind;
import dev.sextant.state.PositionKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * {@code sextant adopt}: the one-off take-over of consumer groups whose destination offsets Sextant did not write
 * (MirrorMaker 2's group sync), group by group, with the rule of {@code sync.foreign.offsets=adopt-forward}: only a
 * group without members on the destination, and only when every translation a running Sextant instance holds is at or
 * above what the destination has.
 *
 * <pre>
 * destination: listGroups, committed offsets ─▶ offsets not Sextant's
 * instance:    GET /v1/groups/{group}        ─▶ translations ─▶ ADOPTABLE | REFUSED | WAITING ─▶ apply (adopt-forward)
 * </pre>
 */
public final class GroupAdoption {

    public enum Verdict { ADOPTABLE, ADOPTED, ALREADY_SEXTANT, WAITING, REFUSED, FAILED }

    /** @param translated the instance's translation, null when it has none */
    public record Partition(String topic, int partition, long offset, Long translated) {
    }

    public record Group(String group, Verdict verdict, String detail, List<Partition> partitions) {
    }

    private final SextantConfig config;

    public GroupAdoption(SextantConfig config) {
        this.config = config;
    }

    /** @throws IllegalStateException when the destination cannot be read */
    public List<Group> run(Predicate<String> selected, SextantClient instance, boolean apply, Duration timeout) {
        try (AdminDestinationClient destination = new AdminDestinationClient(config.destinationClientConfig());
             Admin admin = Admin.create(config.destinationClientConfig())) {
            Map<String, DestinationGroup> groups = new LinkedHashMap<>();
            get(destination.listGroups(), timeout).values().stream()
                    .filter(g -> g.type() == GroupKind.CONSUMER && selected.test(g.groupId())
                            && config.includesGroup(g.groupId()))
                    .sorted(Comparator.comparing(DestinationGroup::groupId))
                    .forEach(g -> groups.put(g.groupId(), g));
            OffsetOwnership ownership = new OffsetOwnership(config.applicationId());
            List<Group> out = new ArrayList<>();
            Map<String, List<PlannedPartition>> plans = new LinkedHashMap<>();
            // one batched read of every selected group's offsets, not a round trip per group
            Map<String, ListConsumerGroupOffsetsSpec> specs = new LinkedHashMap<>();
            groups.keySet().forEach(g -> specs.put(g, new ListConsumerGroupOffsetsSpec()));
            var offsets = specs.isEmpty() ? null : admin.listConsumerGroupOffsets(specs);
            for (DestinationGroup group : groups.values()) {
                Map<TopicPartition, OffsetAndMetadata> there = new HashMap<>();
                get(offsets.partitionsToOffsetAndMetadata(group.groupId()).toCompletionStage().toCompletableFuture(),
                        timeout).forEach((tp, om) -> {
                            if (om != null) {
                                there.put(tp, om);
                            }
                        });
                Group verdict = judge(group, there, ownership, instance, plans);
                out.add(verdict);
            }
            if (apply && !plans.isEmpty()) {
                Map<String, GroupOutcome> outcomes = write(destination, plans, timeout);
                out.replaceAll(g -> g.verdict() != Verdict.ADOPTABLE ? g : settle(g, outcomes.get(g.group())));
            }
            return out;
        }
    }

    private static Group judge(DestinationGroup group, Map<TopicPartition, OffsetAndMetadata> there,
                               OffsetOwnership ownership, SextantClient instance,
                               Map<String, List<PlannedPartition>> plans) {
        boolean foreign = there.values().stream().anyMatch(om -> !ownership.owns(om.metadata()));
        List<Partition> partitions = new ArrayList<>();
        if (!foreign) {
            there.forEach((tp, om) -> partitions.add(new Partition(tp.topic(), tp.partition(), om.offset(), null)));
            return new Group(group.groupId(), Verdict.ALREADY_SEXTANT, null, sorted(partitions));
        }
        Map<TopicPartition, SextantClient.Partition> known = translations(instance, group.groupId());
        List<PlannedPartition> plan = new ArrayList<>();
        List<String> below = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        there.forEach((tp, om) -> {
            SextantClient.Partition p = known.get(tp);
            Long translated = p == null ? null : p.translatedOffset();
            partitions.add(new Partition(tp.topic(), tp.partition(), om.offset(), translated));
            if (translated == null) {
                missing.add(tp.toString());
            } else if (!ownership.owns(om.metadata()) && translated < om.offset()) {
                below.add(tp + " " + translated + " < " + om.offset());
            } else {
                plan.add(planned(group.groupId(), tp, p));
            }
        });
        if (group.active()) {
            return new Group(group.groupId(), Verdict.REFUSED, "it has members on the destination (" + group.state()
                    + ")", sorted(partitions));
        }
        if (!below.isEmpty()) {
            return new Group(group.groupId(), Verdict.REFUSED, "the translation is below the destination's offset, "
                    + "taking it over would move the group backwards: " + String.join(", ", below), sorted(partitions));
        }
        if (!missing.isEmpty()) {
            return new Group(group.groupId(), Verdict.WAITING, "the Sextant instance has no translation yet for "
                    + String.join(", ", missing), sorted(partitions));
        }
        plans.put(group.groupId(), plan);
        return new Group(group.groupId(), Verdict.ADOPTABLE, null, sorted(partitions));
    }

    /** What the instance translates for the group, by destination partition; nothing when it does not know it. */
    private static Map<TopicPartition, SextantClient.Partition> translations(SextantClient instance, String group) {
        Map<TopicPartition, SextantClient.Partition> known = new HashMap<>();
        try {
            instance.group(group).partitions().forEach(p ->
                    known.put(new TopicPartition(p.destinationTopic(), p.partition()), p));
        } catch (SextantClientException e) {
            if (e.status() != 404) {
                throw new IllegalStateException("the Sextant instance did not answer: " + e.getMessage(), e);
            }
        }
        return known;
    }

    private static PlannedPartition planned(String group, TopicPartition destination, SextantClient.Partition p) {
        return new PlannedPartition(new PositionKey(group, p.topic(), p.partition()), destination,
                p.sourceOffset(), p.commitTimestamp() == null ? -1 : p.commitTimestamp(), p.translatedOffset(),
                p.bound() == null ? -1 : p.bound());
    }

    private static List<Partition> sorted(List<Partition> partitions) {
        partitions.sort(Comparator.comparing(Partition::topic).thenComparingInt(Partition::partition));
        return List.copyOf(partitions);
    }

    private Map<String, GroupOutcome> write(AdminDestinationClient destination,
                                            Map<String, List<PlannedPartition>> plans, Duration timeout) {
        ConsumerGroupApplier applier = new ConsumerGroupApplier(destination,
                new OffsetOwnership(config.applicationId()), config.rewindPolicy() == RewindPolicy.FOLLOW_SOURCE, true);
        Map<String, GroupOutcome> outcomes = new ConcurrentHashMap<>();
        CountDownLatch done = new CountDownLatch(plans.size());
        applier.apply(plans, outcome -> {
            outcomes.put(outcome.group(), outcome);
            done.countDown();
        });
        try {
            done.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Map.copyOf(outcomes);
    }

    private static Group settle(Group group, GroupOutcome outcome) {
        if (outcome == null || outcome.retry()) {
            return new Group(group.group(), Verdict.FAILED, outcome == null ? "no answer from the destination in time"
                    : outcome.detail(), group.partitions());
        }
        if (outcome.reason() != null) {
            return new Group(group.group(), Verdict.REFUSED, outcome.reason() + ": " + outcome.detail(),
                    group.partitions());
        }
        return new Group(group.group(), Verdict.ADOPTED, null, group.partitions());
    }

    private static <T> T get(CompletableFuture<T> future, Duration timeout) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("reading the destination failed: " + e.getCause().getMessage(),
                    e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the destination did not answer within " + timeout.toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
