package dev.sextant.history;

import dev.sextant.state.InMemorySyncHistory;
import dev.sextant.state.MirrorMatch;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * Whether the forward Sextant's history, which failback inverts ({@link ReturnedHistory}), describes this Sextant's
 * source as it is now, checked as the forward sync checked it. The forward flow mirrored onto what is this Sextant's
 * source, so the history's pinned destination cluster must be this source's cluster (else its syncs describe mirrors
 * somewhere else: the cluster was rebuilt, or {@code failback-config} was run on another pair's file), and each
 * forward mirror topic, now a topic of this source, the one the history recorded ({@link MirrorMatch}; a history
 * that records none is judged by the mirror's log ends: no records are read here). A topic whose mirror was created
 * again is not inverted; a history of another cluster not at all. Pure.
 */
final class ForwardHistoryCheck {

    /**
     * @param refusal  why nothing of the history translates (another cluster); null when it may
     * @param refused  the forward source topics whose syncs are not inverted, with why
     * @param unproven the forward source topics inverted without a proof that they describe their mirror, with why
     */
    record Result(String refusal, Map<String, String> refused, Map<String, String> unproven) {

        boolean keeps(String topic) {
            return refusal == null && !refused.containsKey(topic);
        }
    }

    private ForwardHistoryCheck() {
    }

    /**
     * @param here       this Sextant's source cluster's id (the forward destination, as the history pins it)
     * @param mirrorIds  the ids of the forward mirror topics on this source, by name; absent ones left out
     * @param mirrorEnds the log ends of the forward mirror partitions on this source, for the topics whose history
     *                   records no mirror id; a partition not read left out
     * @param mirrorOf   the name on this source of a forward source topic's mirror
     */
    static Result judge(InMemorySyncHistory forward, String here, Map<String, Uuid> mirrorIds,
                        Map<TopicPartition, Long> mirrorEnds, UnaryOperator<String> mirrorOf) {
        Optional<String> pinned = forward.destinationCluster();
        if (pinned.isPresent() && !pinned.get().equals(here)) {
            return new Result("the forward Sextant's history pins destination cluster " + pinned.get() + ", and this "
                    + "Sextant's source is cluster " + here + ": its offset syncs describe mirrors on another cluster "
                    + "(the one the forward flow mirrored to was rebuilt, or failback.history.topic names another "
                    + "pair's history); nothing translates through it", Map.of(), Map.of());
        }
        Map<String, String> refused = new TreeMap<>();
        Map<String, String> unproven = new TreeMap<>();
        for (String topic : forward.topics()) {
            String mirror = mirrorOf.apply(topic);
            Uuid seen = mirrorIds.get(mirror);
            if (seen == null) {
                continue; // no such mirror here: nothing commits on it
            }
            Optional<Uuid> recorded = forward.mirrorIncarnation(topic).filter(MirrorMatch::recorded);
            MirrorMatch.Result result;
            if (recorded.isPresent()) {
                result = MirrorMatch.byId(topic, mirror, recorded.get(), seen);
            } else {
                Map<Integer, Long> ends = new TreeMap<>();
                mirrorEnds.forEach((tp, end) -> {
                    if (tp.topic().equals(mirror)) {
                        ends.put(tp.partition(), end);
                    }
                });
                result = MirrorMatch.bySyncs(topic, mirror, forward.newest(topic), ends, Map.of());
            }
            if (result.verdict() == MirrorMatch.Verdict.RESEEDED) {
                refused.put(topic, result.reason());
            } else if (result.verdict() == MirrorMatch.Verdict.UNPROVEN) {
                unproven.put(topic, result.reason());
            }
        }
        return new Result(null, refused, unproven);
    }
}
