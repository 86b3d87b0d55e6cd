package dev.sextant.failover;

import dev.sextant.apply.DestinationGroup;
import dev.sextant.apply.DestinationSession;
import dev.sextant.apply.GroupOutcome;
import dev.sextant.apply.OffsetOwnership;
import dev.sextant.apply.PlannedPartition;
import dev.sextant.apply.TranslatedPosition;
import dev.sextant.client.SextantClient;
import dev.sextant.command.CommandContext;
import dev.sextant.config.SextantConfig;
import dev.sextant.domain.GroupKind;
import dev.sextant.domain.LogRange;
import dev.sextant.failover.FailoverReport.GroupState;
import dev.sextant.failover.FailoverReport.Report;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;

/**
 * A failover read from the destination, for the day the source is gone: what every selected group holds on the
 * destination, how exact it is (from the mark Sextant writes with each offset), how old its last sync is; and, when a
 * Sextant instance still answers, the positions it translated but did not apply yet, which {@code apply} writes.
 * These are the steps that read and write; what they mean is {@link FailoverVerdict}'s, the result a
 * {@link FailoverReport}.
 *
 * <pre>
 *   destination: listGroups ─▶ committed offsets (consumer) / start offsets (share) ─▶ marks: commit time, bound
 *   instance (optional): GET /v1/groups/{group} ─▶ translations the destination lacks ─▶ apply: appliers, guards
 * </pre>
 *
 * <p>Invariants: the source cluster is never contacted; nothing is written without {@code apply}, and then only
 * through a {@link DestinationSession}: inside each partition's log, through the sync's appliers and their guards
 * (never onto a group active on the destination, of another type, or whose offsets Sextant did not write, never
 * over a newer commit).
 */
public final class DestinationFailover {

    private final CommandContext context;
    private final SextantConfig config;
    private final Clock clock;

    public DestinationFailover(CommandContext context, Clock clock) {
        this.context = context;
        this.config = context.config();
        this.clock = clock;
    }

    /**
     * @param selected  which groups (the configuration's group filters apply too)
     * @param instance  a Sextant instance to ask for positions not applied yet, or empty
     * @param apply     write those positions
     * @param progress  receives a line per step, for a terminal
     * @throws IllegalStateException when the destination cannot be read within the context's timeout
     */
    public Report run(Predicate<String> selected, Optional<SextantClient> instance, boolean apply,
                      Consumer<String> progress) {
        long started = clock.millis();
        try (DestinationSession destination = context.destination(null, false)) {
            OffsetOwnership ownership = destination.ownership();
            progress.accept("reading the destination's groups");
            Map<String, DestinationGroup> onDestination = new HashMap<>();
            destination.groups().values().stream()
                    .filter(g -> g.type() != null && selected.test(g.groupId()) && config.includesGroup(g.groupId()))
                    .forEach(g -> onDestination.put(g.groupId(), g));
            InstancePositions known = instance.map(i -> InstancePositions.ask(i,
                    g -> selected.test(g) && config.includesGroup(g), onDestination.keySet(), progress))
                    .orElse(InstancePositions.NONE);
            Map<String, DestinationGroup> groups = new TreeMap<>(onDestination);
            known.types().forEach((group, type) -> groups.computeIfAbsent(group,
                    g -> FailoverVerdict.absent(g, type)));
            progress.accept("reading the offsets of " + onDestination.size() + " group(s)");
            var consumerOffsets = destination.consumerOffsets(ofKind(onDestination, GroupKind.CONSUMER));
            var shareOffsets = destination.shareOffsets(ofKind(onDestination, GroupKind.SHARE));
            long now = clock.millis();
            List<GroupState> states = new ArrayList<>();
            for (DestinationGroup group : groups.values()) {
                String id = group.groupId();
                states.add(FailoverVerdict.state(group, known.types().get(id),
                        consumerOffsets.getOrDefault(id, Map.of()), shareOffsets.getOrDefault(id, Map.of()),
                        known.of(id), known.cutovers().get(id), ownership, now));
            }
            Set<TopicPartition> pending = FailoverVerdict.pendingPartitions(states);
            if (!pending.isEmpty()) {
                Map<TopicPartition, LogRange> logs = destination.logRanges(pending);
                states.replaceAll(s -> FailoverVerdict.withinLogs(s, logs));
            }
            if (apply) {
                writePending(destination, groups, states, known, progress);
            }
            String problem = instance.isPresent() ? known.problem() : "no Sextant instance asked: groups and "
                    + "partitions the destination lacks, and positions not applied yet, cannot be checked (give --url)";
            return new Report(states, instance.isPresent() ? "asked" : null, problem, clock.millis() - started);
        }
    }

    private static Set<String> ofKind(Map<String, DestinationGroup> groups, GroupKind kind) {
        return groups.values().stream().filter(g -> g.type() == kind).map(DestinationGroup::groupId)
                .collect(Collectors.toSet());
    }

    /** Writes the positions not on the destination yet, through the session, and settles the groups' states. */
    private static void writePending(DestinationSession destination, Map<String, DestinationGroup> groups,
                                     List<GroupState> states, InstancePositions known, Consumer<String> progress) {
        Map<String, List<TranslatedPosition>> consumers = new LinkedHashMap<>();
        Map<String, List<TranslatedPosition>> shares = new LinkedHashMap<>();
        for (GroupState state : states) {
            if (FailoverVerdict.writes(state)) {
                (groups.get(state.group()).type() == GroupKind.SHARE ? shares : consumers).put(state.group(),
                        FailoverVerdict.toWrite(state.group(), known.of(state.group()), state));
            }
        }
        if (consumers.isEmpty() && shares.isEmpty()) {
            return;
        }
        Map<String, List<PlannedPartition>> consumerPlans = destination.plan(consumers);
        Map<String, List<PlannedPartition>> sharePlans = destination.plan(shares);
        progress.accept("writing " + (consumerPlans.size() + sharePlans.size()) + " group(s)");
        Map<String, GroupOutcome> outcomes = destination.write(consumerPlans, sharePlans);
        states.replaceAll(s -> {
            List<PlannedPartition> planned = consumerPlans.getOrDefault(s.group(), sharePlans.get(s.group()));
            return planned == null ? s : FailoverVerdict.settle(s, planned, outcomes.get(s.group()));
        });
    }
}
