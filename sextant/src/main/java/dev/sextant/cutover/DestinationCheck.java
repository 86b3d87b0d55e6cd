package dev.sextant.cutover;

import dev.sextant.apply.DestinationGroup;
import dev.sextant.apply.DestinationSession;
import dev.sextant.apply.GroupGuard;
import dev.sextant.domain.GroupKind;
import dev.sextant.domain.Reason;
import dev.sextant.state.CutoverRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The destination read directly, before a group is recorded as cut over: it must hold exactly what the sync reports
 * it wrote. Refused, as the sync refuses: members there, another type there, an offset that differs or (consumer
 * groups) carries no mark of this Sextant.
 */
final class DestinationCheck {

    record Problem(Reason reason, String message) {
    }

    private DestinationCheck() {
    }

    /** @param there the group as the destination listed it for this batch, null when it does not */
    static Optional<Problem> check(String group, String type, List<CutoverRecord.Partition> partitions,
                                   DestinationSession destination, DestinationGroup there) {
        GroupKind kind = "share".equals(type) ? GroupKind.SHARE : GroupKind.CONSUMER;
        GroupGuard guard = GroupGuard.judge(Optional.ofNullable(there), kind);
        if (guard == GroupGuard.TYPE_CONFLICT) {
            return Optional.of(new Problem(guard.reason(), "the group exists on the destination as a "
                    + there.typeLabel() + " group"));
        }
        if (guard == GroupGuard.GROUP_ACTIVE) {
            return Optional.of(new Problem(guard.reason(), "the group has members on the destination (state "
                    + there.state() + "): its consumers already run there; stop them, then run the cutover again"));
        }
        List<String> differ = kind == GroupKind.SHARE ? shareDifferences(group, partitions, destination)
                : consumerDifferences(group, partitions, destination);
        return differ.isEmpty() ? Optional.empty() : Optional.of(new Problem(Reason.DESTINATION_DIVERGED,
                "the destination does not hold what the sync wrote (" + String.join(", ",
                        differ.stream().limit(5).toList()) + (differ.size() > 5 ? ", ..." : "") + ")"));
    }

    private static List<String> consumerDifferences(String group, List<CutoverRecord.Partition> partitions,
                                                    DestinationSession destination) {
        Map<TopicPartition, OffsetAndMetadata> held = destination.consumerOffsets(Set.of(group))
                .getOrDefault(group, Map.of());
        List<String> differ = new ArrayList<>();
        for (CutoverRecord.Partition p : partitions) {
            OffsetAndMetadata at = held.get(new TopicPartition(p.destinationTopic(), p.partition()));
            if (at == null || at.offset() != p.destinationOffset()) {
                differ.add(p.destinationTopic() + "-" + p.partition() + " holds "
                        + (at == null ? "nothing" : at.offset()) + ", not " + p.destinationOffset());
            } else if (!destination.owns(at.metadata())) {
                differ.add(p.destinationTopic() + "-" + p.partition() + " was committed by someone else");
            }
        }
        return differ;
    }

    private static List<String> shareDifferences(String group, List<CutoverRecord.Partition> partitions,
                                                 DestinationSession destination) {
        Map<TopicPartition, Long> held = destination.shareOffsets(Set.of(group)).getOrDefault(group, Map.of());
        List<String> differ = new ArrayList<>();
        for (CutoverRecord.Partition p : partitions) {
            Long at = held.get(new TopicPartition(p.destinationTopic(), p.partition()));
            if (at == null || at != p.destinationOffset()) {
                differ.add(p.destinationTopic() + "-" + p.partition() + " holds " + (at == null ? "nothing" : at)
                        + ", not " + p.destinationOffset());
            }
        }
        return differ;
    }
}
