package dev.sextant.history;

import dev.sextant.translate.OffsetSyncPoint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.common.Uuid;

/**
 * Tells the incarnations of a source topic apart by its topic id: a topic deleted and created again under the same
 * name gets a new id. MirrorMaker 2 may go on mirroring the new incarnation after the old records without a sign in
 * its syncs or in the log ends (its task resumes at its old position when the new log already reaches it), so the
 * id is the only evidence; the topics with history are asked for it every few seconds.
 *
 * <p>When the id changed, the old incarnation's syncs must not translate commits of the new one: the topic's history
 * is forgotten, except the syncs stored since the last check that still saw the old id. Those may be of either
 * incarnation: MirrorMaker 2 mirrors the new one after the old records, so an old sync kept can only make a commit
 * replay old records, never skip a record of the new incarnation. When no answer saw the old id in this writer's
 * lifetime (the writer moved, or the topic was recreated while it was down), only the syncs stored since the check
 * that saw the new id was sent are kept.
 *
 * <p>Not thread-safe: the history writer's stream thread only. Pure: the caller asks the source and writes the
 * history.
 */
public final class SourceIncarnations {

    /**
     * What an answer changes for one topic.
     *
     * @param from the id the history belonged to, null when none was recorded yet (then nothing is forgotten)
     * @param to   the topic's id now
     * @param keep the syncs to store again after forgetting the history, oldest first
     */
    public record Change(String topic, Uuid from, Uuid to, List<OffsetSyncPoint> keep) {

        /** True when the topic was recreated; false when its id is only being recorded. */
        public boolean recreated() {
            return from != null;
        }
    }

    /** Beyond this many syncs stored between two checks, later ones are not kept on a change (it forgets more). */
    static final int MAX_RECENT = 100_000;

    private final Function<String, Optional<Uuid>> recorded;
    private final Map<String, Uuid> known = new HashMap<>();
    private final Set<String> topics = new LinkedHashSet<>();
    private Map<String, List<OffsetSyncPoint>> sinceLastCheck = new HashMap<>();
    private Map<String, List<OffsetSyncPoint>> sincePreviousCheck = new HashMap<>();
    private int recent;
    private boolean checkedBefore;

    /** @param recorded the id the history records for a topic (its incarnation record), read when first needed */
    public SourceIncarnations(Function<String, Optional<Uuid>> recorded) {
        this.recorded = recorded;
    }

    /** The topic has history (read at start): it is checked too. */
    public void hasHistory(String topic) {
        topics.add(topic);
    }

    /** A sync was stored in the history. */
    public void stored(OffsetSyncPoint sync) {
        topics.add(sync.topic());
        if (recent < MAX_RECENT) {
            sinceLastCheck.computeIfAbsent(sync.topic(), t -> new ArrayList<>()).add(sync);
            recent++;
        }
    }

    /** True when the id the topic's history belongs to is known (seen, answered, or recorded on the history). */
    public boolean knows(String topic) {
        return known(topic) != null;
    }

    /**
     * The topic's id as seen when its first syncs were checked (the offset-sync gate's fetch): its history belongs
     * to that incarnation. Ignored when an id is known already.
     */
    public void seen(String topic, Uuid id) {
        if (id != null && !Uuid.ZERO_UUID.equals(id) && known(topic) == null) {
            known.put(topic, id);
        }
    }

    private Uuid known(String topic) {
        Uuid id = known.get(topic);
        if (id == null) {
            id = recorded.apply(topic).orElse(null);
            if (id != null) {
                known.put(topic, id);
            }
        }
        return id;
    }

    /** A check is sent: the topics whose ids it asks for. */
    public Set<String> checkSent() {
        sincePreviousCheck = checkedBefore ? sinceLastCheck : new HashMap<>();
        sinceLastCheck = new HashMap<>();
        recent = sincePreviousCheck.values().stream().mapToInt(List::size).sum();
        return Set.copyOf(topics);
    }

    /** A check failed: syncs stored before it are no longer known to be bracketed by two answers. */
    public void checkFailed() {
        checkedBefore = false;
    }

    /**
     * The answer to the last check sent: each topic's id (a topic that does not exist is absent, and keeps its
     * history: the old incarnation's groups may still fail over through it).
     */
    public List<Change> answered(Map<String, Uuid> ids) {
        List<Change> changes = new ArrayList<>();
        ids.forEach((topic, id) -> {
            if (id == null || Uuid.ZERO_UUID.equals(id)) {
                return;
            }
            Uuid was = known(topic);
            if (was == null) {
                changes.add(new Change(topic, null, id, List.of()));
            } else if (!was.equals(id)) {
                List<OffsetSyncPoint> keep = new ArrayList<>();
                if (checkedBefore) {
                    keep.addAll(sincePreviousCheck.getOrDefault(topic, List.of()));
                }
                keep.addAll(sinceLastCheck.getOrDefault(topic, List.of()));
                changes.add(new Change(topic, was, id, List.copyOf(keep)));
            }
            known.put(topic, id);
        });
        checkedBefore = true;
        return changes;
    }
}
