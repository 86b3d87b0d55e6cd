package dev.sextant.adopt;

import dev.sextant.apply.DestinationGroup;
import dev.sextant.apply.DestinationSession;
import dev.sextant.apply.GroupGuard;
import dev.sextant.apply.GroupOutcome;
import dev.sextant.apply.OffsetOwnership;
import dev.sextant.apply.TranslatedPosition;
import dev.sextant.client.SextantClient;
import dev.sextant.client.SextantClientException;
import dev.sextant.command.CommandContext;
import dev.sextant.config.SextantConfig;
import dev.sextant.domain.GroupKind;
import dev.sextant.state.PositionKey;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
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

    private final CommandContext context;
    private final SextantConfig config;

    public GroupAdoption(CommandContext context) {
        this.context = context;
        this.config = context.config();
    }

    /** @throws IllegalStateException when the destination cannot be read */
    public List<Group> run(Predicate<String> selected, SextantClient instance, boolean apply) {
        try (DestinationSession destination = context.destination(null, true)) {
            OffsetOwnership ownership = destination.ownership();
            Map<String, DestinationGroup> groups = new LinkedHashMap<>();
            destination.groups().values().stream()
                    .filter(g -> g.type() == GroupKind.CONSUMER && selected.test(g.groupId())
                            && config.includesGroup(g.groupId()))
                    .sorted(Comparator.comparing(DestinationGroup::groupId))
                    .forEach(g -> groups.put(g.groupId(), g));
            // one batched read of every selected group's offsets, not a round trip per group
            Map<String, Map<TopicPartition, OffsetAndMetadata>> offsets = destination.consumerOffsets(groups.keySet());
            List<Group> out = new ArrayList<>();
            Map<String, List<TranslatedPosition>> adoptable = new LinkedHashMap<>();
            for (DestinationGroup group : groups.values()) {
                out.add(judge(group, offsets.getOrDefault(group.groupId(), Map.of()), ownership, instance,
                        adoptable));
            }
            if (apply && !adoptable.isEmpty()) {
                Map<String, GroupOutcome> outcomes = destination.write(destination.plan(adoptable), Map.of());
                out.replaceAll(g -> g.verdict() != Verdict.ADOPTABLE ? g : settle(g, outcomes.get(g.group())));
            }
            return out;
        }
    }

    private static Group judge(DestinationGroup group, Map<TopicPartition, OffsetAndMetadata> there,
                               OffsetOwnership ownership, SextantClient instance,
                               Map<String, List<TranslatedPosition>> plans) {
        boolean foreign = there.values().stream().anyMatch(om -> !ownership.owns(om.metadata()));
        if (!foreign) {
            return new Group(group.groupId(), Verdict.ALREADY_SEXTANT, null, asThey(there));
        }
        SextantClient.GroupPositions positions = positions(instance, group.groupId());
        if (positions != null && positions.cutOver() != null) {
            return new Group(group.groupId(), Verdict.REFUSED, "cut over to the destination ('sextant cutover'): "
                    + "its offsets there are its consumers', and adopt leaves it as the sync does", asThey(there));
        }
        return takeOver(group, there, ownership, positions, plans);
    }

    /** A group whose destination offsets are not all Sextant's: adoptable when every translation is at or above. */
    private static Group takeOver(DestinationGroup group, Map<TopicPartition, OffsetAndMetadata> there,
                                  OffsetOwnership ownership, SextantClient.GroupPositions positions,
                                  Map<String, List<TranslatedPosition>> plans) {
        List<Partition> partitions = new ArrayList<>();
        Map<TopicPartition, SextantClient.Partition> known = translations(positions);
        List<TranslatedPosition> plan = new ArrayList<>();
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
                plan.add(TranslatedPosition.of(new PositionKey(group.groupId(), p.topic(), p.partition()), tp,
                        p.sourceOffset(), p.commitTimestamp() == null ? -1 : p.commitTimestamp(), translated,
                        p.bound() == null ? -1 : p.bound()));
            }
        });
        if (GroupGuard.judge(Optional.of(group), GroupKind.CONSUMER) == GroupGuard.GROUP_ACTIVE) {
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

    /** The destination's offsets of the group as they are, without translations. */
    private static List<Partition> asThey(Map<TopicPartition, OffsetAndMetadata> there) {
        List<Partition> partitions = new ArrayList<>();
        there.forEach((tp, om) -> partitions.add(new Partition(tp.topic(), tp.partition(), om.offset(), null)));
        return sorted(partitions);
    }

    /** What the instance holds of the group; null when it does not know it. */
    private static SextantClient.GroupPositions positions(SextantClient instance, String group) {
        try {
            return instance.group(group);
        } catch (SextantClientException e) {
            if (e.status() != 404) {
                throw new IllegalStateException("the Sextant instance did not answer: " + e.getMessage(), e);
            }
            return null;
        }
    }

    /** What the instance translates for the group, by destination partition; nothing when it does not know it. */
    private static Map<TopicPartition, SextantClient.Partition> translations(SextantClient.GroupPositions positions) {
        Map<TopicPartition, SextantClient.Partition> known = new HashMap<>();
        if (positions != null) {
            positions.partitions().forEach(p -> known.put(new TopicPartition(p.destinationTopic(), p.partition()), p));
        }
        return known;
    }

    private static List<Partition> sorted(List<Partition> partitions) {
        partitions.sort(Comparator.comparing(Partition::topic).thenComparingInt(Partition::partition));
        return List.copyOf(partitions);
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
}
