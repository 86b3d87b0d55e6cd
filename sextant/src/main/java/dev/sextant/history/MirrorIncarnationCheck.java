package dev.sextant.history;

import dev.sextant.apply.DestinationView;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.Reason;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.state.MirrorMatch;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.translate.IntervalEvidence;
import dev.sextant.translate.OffsetSyncPoint;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pins each source topic's history to the destination topic its syncs' downstream offsets are of: the mirror's topic
 * id, recorded on the history topic with the first id seen. A new id means the mirror was created again (deleted and
 * re-seeded by MirrorMaker 2, a destination rebuilt at the same address): the old syncs point into a log that is
 * gone, and the new mirror's syncs (upstream behind the newest, downstream behind too) would be skipped as a re-read
 * of known ones, so lagging commits would go on translating through the old log, hundreds of records too far.
 *
 * <p>On a new id the topic's history is forgotten (reset markers, which also make the sync engines plan again what
 * they applied through it), the new id recorded, and an {@code MIRROR_RESEEDED} dead letter written; the new mirror's
 * syncs then start a new history. Ids are seen by the gate's fetch of log ends (read after the syncs it decides
 * arrived, so a sync of a re-seeded mirror is judged after the old history is forgotten) and, for topics no sync
 * arrives for, every {@link #INTERVAL_MS}.
 *
 * <p>A topic's first id is taken as it is seen only while the topic has no syncs (the syncs to come are judged with
 * the fetch that saw it). A history with syncs and no id recorded (an earlier release wrote it) is checked against
 * the mirror before an id is taken ({@link UnrecordedMirrors}): adopting whatever id the mirror has now would keep the
 * syncs of an older mirror created again meanwhile, and translate through its gone log for good. Found another log,
 * the history is forgotten as on a new id.
 */
final class MirrorIncarnationCheck {

    private static final Logger log = LoggerFactory.getLogger(MirrorIncarnationCheck.class);
    /** How often the mirror topic ids of every topic with history are read (one metadata request). */
    static final long INTERVAL_MS = 5_000;

    private final OffsetSyncStore history;
    private final DestinationView destination;
    private final Function<String, String> destinationTopic;
    private final SentSyncs sent;
    private final SextantMetrics metrics;
    private final HistorySink sink;
    private final String instance;
    /** The id each topic's history describes, as recorded or read back from the history. */
    private final Map<String, Uuid> recorded = new HashMap<>();
    /**
     * Ids this instance saw replaced, per topic. Two readers ask for the ids (the gate's fetch and the periodic
     * one), each answer taken in when it is in, so an answer asked before a re-seed may arrive after one asked later:
     * a topic id is never used again, so an id seen replaced is an old answer, not a new mirror.
     */
    private final Map<String, Set<Uuid>> retired = new HashMap<>();
    private final UnrecordedMirrors unrecorded;
    private CompletableFuture<Map<String, Uuid>> reading;
    private long nextCheck;

    /**
     * @param sent     the newest sync the intake sent per partition, which a re-seed forgets
     * @param evidence reads the records at a sync on both clusters, for a history that records no mirror id
     */
    MirrorIncarnationCheck(OffsetSyncStore history, DestinationView destination,
                           Function<String, String> destinationTopic, SentSyncs sent, SextantMetrics metrics,
                           HistorySink sink, String instance, IntervalEvidence evidence) {
        this.unrecorded = new UnrecordedMirrors(destination, destinationTopic, evidence);
        this.sent = sent;
        this.history = history;
        this.destination = destination;
        this.destinationTopic = destinationTopic;
        this.metrics = metrics;
        this.sink = sink;
        this.instance = instance;
    }

    /** Every second: reads the mirror ids of every topic with history when due, and acts on an answer in. */
    void tick(long now) {
        if (reading == null && now >= nextCheck) {
            nextCheck = now + INTERVAL_MS;
            Map<String, String> sourceOf = new HashMap<>();
            sent.topics().forEach(t -> sourceOf.put(destinationTopic.apply(t), t));
            if (!sourceOf.isEmpty()) {
                reading = destination.fetchTopicIds(sourceOf.keySet()).thenApply(byMirror -> byMirror.entrySet()
                        .stream().collect(Collectors.toMap(e -> sourceOf.get(e.getKey()), Map.Entry::getValue)));
            }
        }
        if (reading != null && reading.isDone()) {
            CompletableFuture<Map<String, Uuid>> done = reading;
            reading = null;
            if (!done.isCompletedExceptionally()) {
                seen(done.join(), now);
            }
        }
        for (UnrecordedMirrors.Outcome checked : unrecorded.decided(now)) {
            checked(checked, now);
        }
    }

    /** The mirrors of these source topics have these ids now: a new one forgets the topic's history. */
    void seen(Map<String, Uuid> bySource, long now) {
        bySource.forEach((topic, id) -> {
            if (!MirrorMatch.recorded(id) || retired.getOrDefault(topic, Set.of()).contains(id)) {
                return; // a destination that names no topic ids, or an answer asked before the mirror was created again
            }
            Uuid before = recorded.computeIfAbsent(topic, t -> history.mirrorIncarnation(t)
                    .filter(MirrorMatch::recorded).orElse(null));
            if (before == null) {
                firstSeen(topic, id, now);
            } else if (!before.equals(id)) {
                reseeded(topic, "mirror topic " + destinationTopic.apply(topic) + " was created again on the "
                        + "destination (topic id " + before + " is now " + id + ")", id, now);
                retired.computeIfAbsent(topic, t -> new HashSet<>()).add(before);
            }
        });
    }

    /** No id recorded for the topic: taken at once when it has no syncs, else once its syncs were checked. */
    private void firstSeen(String topic, Uuid id, long now) {
        if (unrecorded.checking(topic, id)) {
            return;
        }
        List<OffsetSyncPoint> newest = sent.newestOf(topic);
        if (newest.isEmpty()) {
            recorded.put(topic, id);
            sink.mirrorIncarnation(topic, id, now);
        } else {
            log.info("The offset-sync history of {} records no mirror id (an earlier release wrote it): checking its "
                    + "{} partition(s) against mirror topic {} ({}) before translating through it", topic,
                    newest.size(), destinationTopic.apply(topic), id);
            unrecorded.check(topic, id, newest, now);
        }
    }

    /** The check of a history without a recorded id ended: the id taken, or the history forgotten. */
    private void checked(UnrecordedMirrors.Outcome checked, long now) {
        String topic = checked.topic();
        if (recorded.get(topic) != null) {
            return; // an id was taken meanwhile (another answer, a history read back): its own checks apply
        }
        switch (checked.result().verdict()) {
            case RESEEDED -> reseeded(topic, checked.result().reason(), checked.id(), now);
            case MATCHES -> {
                log.info("The offset-sync history of {} describes mirror topic {}: its newest syncs' records match on "
                        + "both clusters; recorded its id {}", topic, destinationTopic.apply(topic), checked.id());
                recorded.put(topic, checked.id());
                sink.mirrorIncarnation(topic, checked.id(), now);
            }
            case UNPROVEN -> {
                log.warn("{}; its id {} is taken on the log ends alone (forgetting it would leave lagging groups "
                        + "untranslatable until MirrorMaker 2 emits new syncs)", checked.result().reason(),
                        checked.id());
                recorded.put(topic, checked.id());
                sink.mirrorIncarnation(topic, checked.id(), now);
            }
        }
    }

    /** The topic's history describes another mirror than the one with {@code now}: forgotten, {@code now} recorded. */
    private void reseeded(String topic, String why, Uuid now, long at) {
        Set<Integer> partitions = sent.forget(topic, Set.of(), at);
        recorded.put(topic, now);
        sink.mirrorIncarnation(topic, now, at);
        metrics.offsetSyncHistoryResets(partitions.size());
        String detail = why + ": the offset-sync history of " + topic + " (" + partitions.size()
                + " partition(s)) is forgotten, and the positions written through it are planned again through the "
                + "new mirror's offset syncs (untranslatable until MirrorMaker 2 writes them)";
        log.warn("{}", detail);
        sink.deadLetter(new DeadLetterRecord(null, null, Reason.MIRROR_RESEEDED, List.of(), detail, null, at,
                instance), at);
    }

}
