package dev.sextant.history;

import dev.sextant.apply.DestinationView;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.Reason;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.state.OffsetSyncStore;
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
    private CompletableFuture<Map<String, Uuid>> reading;
    private long nextCheck;

    /** @param sent the newest sync the intake sent per partition, which a re-seed forgets */
    MirrorIncarnationCheck(OffsetSyncStore history, DestinationView destination,
                           Function<String, String> destinationTopic, SentSyncs sent, SextantMetrics metrics,
                           HistorySink sink, String instance) {
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
    }

    /** The mirrors of these source topics have these ids now: a new one forgets the topic's history. */
    void seen(Map<String, Uuid> bySource, long now) {
        bySource.forEach((topic, id) -> {
            Uuid before = recorded.computeIfAbsent(topic, t -> history.mirrorIncarnation(t).orElse(null));
            if (retired.getOrDefault(topic, Set.of()).contains(id)) {
                return; // an answer asked before the mirror was created again
            }
            if (before == null) {
                recorded.put(topic, id);
                sink.mirrorIncarnation(topic, id, now);
            } else if (!before.equals(id)) {
                reseeded(topic, before, id, now);
            }
        });
    }

    private void reseeded(String topic, Uuid before, Uuid now, long at) {
        retired.computeIfAbsent(topic, t -> new HashSet<>()).add(before);
        Set<Integer> partitions = sent.forget(topic, Set.of(), at);
        recorded.put(topic, now);
        sink.mirrorIncarnation(topic, now, at);
        metrics.offsetSyncHistoryResets(partitions.size());
        String mirror = destinationTopic.apply(topic);
        String detail = "mirror topic " + mirror + " was created again on the destination (topic id " + before
                + " is now " + now + "): the offset-sync history of " + topic + " (" + partitions.size()
                + " partition(s)) is forgotten, and the positions written through it are planned again through the "
                + "new mirror's offset syncs (untranslatable until MirrorMaker 2 writes them)";
        log.warn("{}", detail);
        sink.deadLetter(new DeadLetterRecord(null, null, Reason.MIRROR_RESEEDED, List.of(), detail, null, at,
                instance), at);
    }

}
