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
 * id is the only evidence. The topics are asked for their ids in checks: those with syncs stored since their id was
 * last confirmed at every check, the others every few seconds.
 *
 * <p>A sync stored before a check was sent that answered the topic's known id was emitted before that answer, so it
 * belongs to that incarnation. When a check answers a new id, the topic's history is forgotten except the syncs
 * stored since the last check that confirmed the old one was sent: those may be of either incarnation. MirrorMaker 2
 * mirrors the new incarnation after the old records, so an old sync kept there can only make a commit replay old
 * records, never skip a record of the new one. Without any confirming check (a writer that just started, with the id
 * recorded by an earlier one), only the syncs stored since the check that saw the new id was sent are kept.
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

    /** Beyond this many syncs of a topic stored since its last confirmation, later ones are not kept on a change. */
    static final int MAX_RECENT = 100_000;

    /** A stored sync and the number of checks sent before it was stored. */
    private record Stored(OffsetSyncPoint sync, long checksBefore) {
    }

    /** What is known of one topic. */
    private static final class Topic {
        Uuid id;
        /** The number of the last check (counted from 1) that answered {@link #id}; 0: none. */
        long confirmedBy;
        /** Syncs stored since that check was sent. */
        final List<Stored> recent = new ArrayList<>();
    }

    private final Function<String, Optional<Uuid>> recorded;
    private final Map<String, Topic> topics = new HashMap<>();
    private long checksSent;
    private Set<String> asked = Set.of();

    /** @param recorded the id the history records for a topic (its incarnation record), read when first needed */
    public SourceIncarnations(Function<String, Optional<Uuid>> recorded) {
        this.recorded = recorded;
    }

    /** The topic has history (read at start): it is checked too. */
    public void hasHistory(String topic) {
        topic(topic);
    }

    /** A sync was stored in the history. */
    public void stored(OffsetSyncPoint sync) {
        Topic t = topic(sync.topic());
        if (t.recent.size() < MAX_RECENT) {
            t.recent.add(new Stored(sync, checksSent));
        }
    }

    /**
     * A sync skipped as one of records copied again (upstream behind the newest sync, downstream ahead). A topic
     * recreated and mirrored again from its start by a MirrorMaker 2 task that noticed the deletion looks the same,
     * so the sync counts as stored here: its topic's id is asked at the next check, and should the id be new the sync
     * is kept as the new incarnation's (else its records' translations would be lost with the skip: MirrorMaker 2's
     * topic keeps only the newest sync of a partition). When the id is confirmed, it is dropped, as it was.
     */
    public void skipped(OffsetSyncPoint sync) {
        stored(sync);
    }

    /** True when the id the topic's history belongs to is known (seen, answered, or recorded on the history). */
    public boolean knows(String topic) {
        return id(topic(topic), topic) != null;
    }

    /**
     * The topic's id as seen when its first syncs were checked (the offset-sync gate's fetch): its history begins
     * with that incarnation. Ignored when an id is known already.
     */
    public void seen(String topic, Uuid id) {
        Topic t = topic(topic);
        if (valid(id) && id(t, topic) == null) {
            t.id = id;
        }
    }

    /**
     * A check is sent: the topics whose ids it asks for, every topic with history when {@code all}, else those with
     * syncs stored since their id was last confirmed.
     */
    public Set<String> checkSent(boolean all) {
        Set<String> out = new LinkedHashSet<>();
        topics.forEach((name, t) -> {
            if (all || !t.recent.isEmpty()) {
                out.add(name);
            }
        });
        checksSent++;
        asked = Set.copyOf(out);
        return asked;
    }

    /**
     * The answer to the last check sent: each topic's id. A topic that does not exist is absent and keeps its
     * history: the old incarnation's groups may still fail over through it.
     */
    public List<Change> answered(Map<String, Uuid> ids) {
        long check = checksSent;
        List<Change> changes = new ArrayList<>();
        for (String name : asked) {
            Uuid id = ids.get(name);
            Topic t = topics.get(name);
            if (!valid(id) || t == null) {
                continue;
            }
            Uuid was = id(t, name);
            if (was != null && !was.equals(id)) {
                long keepFrom = t.confirmedBy > 0 ? t.confirmedBy : check;
                List<OffsetSyncPoint> keep = t.recent.stream().filter(s -> s.checksBefore() >= keepFrom)
                        .map(Stored::sync).toList();
                changes.add(new Change(name, was, id, keep));
            } else if (was == null) {
                changes.add(new Change(name, null, id, List.of()));
            }
            t.id = id;
            t.confirmedBy = check;
            // stored before this check was sent: of the incarnation it answered, or forgotten with the change
            t.recent.removeIf(s -> s.checksBefore() < check);
        }
        asked = Set.of();
        return changes;
    }

    /** The last check failed: nothing it asked is confirmed. */
    public void checkFailed() {
        asked = Set.of();
    }

    private Topic topic(String name) {
        return topics.computeIfAbsent(name, n -> new Topic());
    }

    private Uuid id(Topic t, String name) {
        if (t.id == null) {
            t.id = recorded.apply(name).filter(SourceIncarnations::valid).orElse(null);
        }
        return t.id;
    }

    private static boolean valid(Uuid id) {
        return id != null && !Uuid.ZERO_UUID.equals(id);
    }
}
