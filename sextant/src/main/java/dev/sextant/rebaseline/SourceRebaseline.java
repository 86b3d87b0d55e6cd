package dev.sextant.rebaseline;

import dev.sextant.apply.DestinationGroup;
import dev.sextant.apply.DestinationSession;
import dev.sextant.apply.GroupGuard;
import dev.sextant.apply.OffsetOwnership;
import dev.sextant.command.CommandContext;
import dev.sextant.domain.GroupKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The operator's answer to a replaced source cluster: the destination offsets Sextant wrote name the source cluster
 * they came from ({@code c=} in the mark), and a new source (its {@code __consumer_offsets} starting again at 0) cannot
 * order its commits against them, so the sync refuses those groups ({@code SOURCE_CHANGED}). This finds them and, with
 * {@code apply}, releases their marks in place: the same offsets, under a mark that names no source commit, which the
 * next commit of the new source replaces. A group with members on the destination is left as it is (the sync would
 * not write it either).
 */
public final class SourceRebaseline {

    /** What became of one group's marks. */
    public enum Status {
        /** Marks of another source found (a dry run). */
        FOUND,
        /** Released: the sync writes the group again from the next commit on. */
        RELEASED,
        /** The group has members on the destination: left as it is. */
        ACTIVE,
        /** The destination refused the rewrite (its offsets moved meanwhile, or an error): left as it is. */
        FAILED
    }

    /**
     * @param group      the destination group
     * @param clusters   the source clusters its marks name
     * @param partitions the partitions whose marks name them
     * @param status     what this run did
     * @param detail     why it failed, or null
     */
    public record GroupResult(String group, Set<String> clusters, List<String> partitions, Status status,
                              String detail) {
    }

    /**
     * @param source the source cluster answering now
     * @param groups the groups whose destination offsets name another source cluster, by name
     */
    public record Result(String source, List<GroupResult> groups) {

        /** True when every group found was released (or none was found). */
        public boolean clean() {
            return groups.stream().allMatch(g -> g.status() == Status.RELEASED);
        }
    }

    private final CommandContext context;

    public SourceRebaseline(CommandContext context) {
        this.context = context;
    }

    /** @throws IllegalStateException when a cluster does not answer within the context's timeout */
    public Result run(boolean apply) {
        String source = context.sourceClusterId();
        try (DestinationSession destination = context.destination(source, false)) {
            Map<String, DestinationGroup> all = destination.groups();
            Set<String> consumers = all.values().stream().filter(g -> g.type() == GroupKind.CONSUMER)
                    .map(DestinationGroup::groupId).collect(Collectors.toCollection(TreeSet::new));
            Map<String, Map<TopicPartition, OffsetAndMetadata>> offsets = destination.consumerOffsets(consumers);
            List<GroupResult> results = new ArrayList<>();
            for (Map.Entry<String, Map<TopicPartition, OffsetAndMetadata>> e : new TreeMap<>(offsets).entrySet()) {
                Map<TopicPartition, OffsetOwnership.Mark> marks = destination.marksOfAnotherSource(e.getValue());
                if (marks.isEmpty()) {
                    continue;
                }
                Set<String> clusters = marks.values().stream().map(OffsetOwnership.Mark::sourceCluster)
                        .collect(Collectors.toCollection(TreeSet::new));
                List<String> partitions = marks.keySet().stream().map(TopicPartition::toString).sorted().toList();
                results.add(release(destination, e.getKey(), e.getValue(), all.get(e.getKey()), clusters,
                        partitions, apply));
            }
            return new Result(source, List.copyOf(results));
        }
    }

    private static GroupResult release(DestinationSession destination, String group,
                                       Map<TopicPartition, OffsetAndMetadata> offsets, DestinationGroup there,
                                       Set<String> clusters, List<String> partitions, boolean apply) {
        if (GroupGuard.judge(Optional.ofNullable(there), GroupKind.CONSUMER) == GroupGuard.GROUP_ACTIVE) {
            return new GroupResult(group, clusters, partitions, Status.ACTIVE, "the group has members on the "
                    + "destination (" + there.state() + "): its offsets are its consumers' now");
        }
        if (!apply) {
            return new GroupResult(group, clusters, partitions, Status.FOUND, null);
        }
        try {
            List<String> failed = new ArrayList<>();
            destination.releaseMarks(group, offsets).forEach((tp, err) -> {
                if (err != null) {
                    failed.add(tp + ": " + err.getMessage());
                }
            });
            return failed.isEmpty() ? new GroupResult(group, clusters, partitions, Status.RELEASED, null)
                    : new GroupResult(group, clusters, partitions, Status.FAILED, String.join("; ", failed));
        } catch (IllegalStateException ex) {
            return new GroupResult(group, clusters, partitions, Status.FAILED, ex.getMessage());
        }
    }
}
