package dev.sextant.failover;

import dev.sextant.apply.DestinationSession;
import dev.sextant.state.InMemorySyncHistory;
import dev.sextant.state.MirrorMatch;
import dev.sextant.translate.IntervalEvidence;
import dev.sextant.translate.OffsetSyncPoint;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * Whether the offset-sync history {@code failover --from-source} loaded still describes the mirror topics the
 * destination holds, judged as the running sync judges it ({@link MirrorMatch}): with the sync stopped, nothing else
 * would notice a mirror deleted and mirrored again since, and the history's translations would point into its gone
 * log. Reads on the caller's thread: the mirrors' ids, and for a history that records none, their log ends and the
 * records at each partition's newest sync (with {@code translation.interpolation=verified}).
 */
final class HistoryMirrors {

    private HistoryMirrors() {
    }

    /**
     * The verdict for each of {@code topics} the history has syncs of and whose mirror the destination has.
     *
     * @throws IllegalStateException when the destination cannot be read
     */
    static Map<String, MirrorMatch.Result> judge(InMemorySyncHistory history, Set<String> topics,
                                                 DestinationSession destination, UnaryOperator<String> mirrorOf,
                                                 IntervalEvidence evidence) {
        Map<String, String> mirrors = new HashMap<>();
        topics.stream().filter(t -> !history.newest(t).isEmpty()).forEach(t -> mirrors.put(t, mirrorOf.apply(t)));
        Map<String, Uuid> ids = destination.topicIds(new HashSet<>(mirrors.values()));
        Map<String, MirrorMatch.Result> out = new HashMap<>();
        mirrors.forEach((topic, mirror) -> {
            Uuid seen = ids.get(mirror);
            if (seen == null) {
                return; // not on the destination: --apply refuses it as not mirrored
            }
            Optional<Uuid> recorded = history.mirrorIncarnation(topic).filter(MirrorMatch::recorded);
            out.put(topic, recorded.isPresent() ? MirrorMatch.byId(topic, mirror, recorded.get(), seen)
                    : bySyncs(topic, mirror, history.newest(topic), destination, evidence));
        });
        return out;
    }

    private static MirrorMatch.Result bySyncs(String topic, String mirror, List<OffsetSyncPoint> newest,
                                              DestinationSession destination, IntervalEvidence evidence) {
        Set<TopicPartition> partitions = new HashSet<>();
        newest.forEach(s -> partitions.add(new TopicPartition(mirror, s.partition())));
        Map<Integer, Long> ends = new HashMap<>();
        destination.logRanges(partitions).forEach((tp, log) -> {
            if (log.end() >= 0) {
                ends.put(tp.partition(), log.end());
            }
        });
        MirrorMatch.Result byEnds = MirrorMatch.bySyncs(topic, mirror, newest, ends, Map.of());
        if (byEnds.verdict() == MirrorMatch.Verdict.RESEEDED) {
            return byEnds;
        }
        Map<Integer, IntervalEvidence.Verdict> records = new HashMap<>();
        newest.forEach(s -> records.put(s.partition(), MirrorMatch.records(evidence, s)));
        return MirrorMatch.bySyncs(topic, mirror, newest, ends, records);
    }
}
