package dev.sextant.history;

import dev.sextant.apply.DestinationView;
import dev.sextant.state.MirrorMatch;
import dev.sextant.translate.IntervalEvidence;
import dev.sextant.translate.OffsetSyncPoint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * The check of a topic whose history has syncs but records no mirror id, before an id is taken for it: a history an
 * earlier release wrote (an upgrade), or one whose first syncs were kept while the mirror's id could not be read.
 * Taking whatever id the mirror has now would keep the syncs of an older mirror at the same name, created again
 * while no instance looked (the history survives the upgrade; the log it describes may not), and commits would go
 * on translating into that gone log. So the history is judged against the mirror first ({@link MirrorMatch#bySyncs}):
 * the mirror's log ends, fetched; then, where they do not contradict it, the records at each partition's newest sync
 * on both clusters (asked of the interval evidence, which reads them on its own thread under
 * {@code translation.interpolation=verified}). Meanwhile the sync writes nothing through the topic's syncs
 * ({@code OffsetSyncStore.describedMirror}).
 *
 * <p>A verdict of {@code MATCHES} or {@code RESEEDED} ends the check at once. An unproven one (records deleted or not
 * read yet, an end not read) is asked again until {@link #PROOF_WAIT_MS} after the check began, then ends as it
 * stands: the id is taken on the log ends alone; at once when no record is ever read (interpolation {@code off} or
 * {@code unverified}). Forgetting every history an upgrade cannot prove would leave the lagging groups of every topic
 * untranslatable until MirrorMaker 2 emits new syncs (never, on a topic no one writes); the rarer miss is a mirror
 * created again that already grew past the old newest syncs, with its records unreadable. Syncs kept while a check
 * runs go with the history it forgets (their reset markers follow them): commits below the mirror's next sync wait
 * for it, which is slower, never wrong. Runs on the intake's thread; nothing blocks.
 */
final class UnrecordedMirrors {

    /** How long an unproven verdict is asked again (the records read, a fetch that failed) before it stands. */
    static final long PROOF_WAIT_MS = 30_000;

    /** A verdict reached: the check of {@code topic}, whose mirror has {@code id}, ended. */
    record Outcome(String topic, Uuid id, MirrorMatch.Result result) {
    }

    private record Check(Uuid id, long since, List<OffsetSyncPoint> newest,
                         CompletableFuture<Map<TopicPartition, Long>> ends) {
    }

    private final DestinationView destination;
    private final Function<String, String> destinationTopic;
    private final IntervalEvidence evidence;
    private final Map<String, Check> checks = new HashMap<>();

    UnrecordedMirrors(DestinationView destination, Function<String, String> destinationTopic,
                      IntervalEvidence evidence) {
        this.destination = destination;
        this.destinationTopic = destinationTopic;
        this.evidence = evidence;
    }

    /** True while {@code topic}'s history is checked against its mirror with {@code id}. */
    boolean checking(String topic, Uuid id) {
        Check check = checks.get(topic);
        return check != null && check.id().equals(id);
    }

    /** Starts the check of {@code topic}'s history (its newest syncs: {@code newest}) against the mirror {@code id}. */
    void check(String topic, Uuid id, List<OffsetSyncPoint> newest, long now) {
        checks.put(topic, new Check(id, now, List.copyOf(newest), fetchEnds(topic, newest)));
    }

    /** The checks that reached their verdict now; each ends with it. */
    List<Outcome> decided(long now) {
        List<Outcome> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, Check>> it = checks.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Check> e = it.next();
            Check check = e.getValue();
            if (!check.ends().isDone()) {
                continue;
            }
            String topic = e.getKey();
            String mirror = destinationTopic.apply(topic);
            Map<Integer, Long> ends = new HashMap<>();
            check.ends().getNow(Map.of()).forEach((tp, end) -> ends.put(tp.partition(), end));
            MirrorMatch.Result byEnds = MirrorMatch.bySyncs(topic, mirror, check.newest(), ends, Map.of());
            MirrorMatch.Result result = byEnds.verdict() == MirrorMatch.Verdict.RESEEDED ? byEnds
                    : MirrorMatch.bySyncs(topic, mirror, check.newest(), ends, check.newest().stream().collect(
                            Collectors.toMap(OffsetSyncPoint::partition, s -> MirrorMatch.records(evidence, s))));
            boolean endsMissing = ends.size() < check.newest().size();
            if (result.verdict() == MirrorMatch.Verdict.UNPROVEN && now - check.since() < PROOF_WAIT_MS
                    && (endsMissing || MirrorMatch.readsRecords(evidence))) {
                if (endsMissing) {
                    e.setValue(new Check(check.id(), check.since(), check.newest(), fetchEnds(topic,
                            check.newest())));
                }
                continue; // the records are asked again at the next tick: the evidence reads them meanwhile
            }
            it.remove();
            out.add(new Outcome(topic, check.id(), result));
        }
        return out;
    }

    private CompletableFuture<Map<TopicPartition, Long>> fetchEnds(String topic, List<OffsetSyncPoint> newest) {
        String mirror = destinationTopic.apply(topic);
        Set<TopicPartition> partitions = newest.stream().map(s -> new TopicPartition(mirror, s.partition()))
                .collect(Collectors.toSet());
        return destination.fetchEndOffsets(partitions).exceptionally(failed -> Map.of());
    }
}
