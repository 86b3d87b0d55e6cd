package dev.sextant.history;

import dev.sextant.apply.DestinationView;
import dev.sextant.decode.OffsetSync;
import dev.sextant.history.OffsetSyncCheck.LogEnds;
import dev.sextant.history.OffsetSyncCheck.Result;
import dev.sextant.history.OffsetSyncCheck.Verdict;
import dev.sextant.source.SourceOffsets;
import dev.sextant.state.SyncHolds;
import dev.sextant.translate.OffsetSyncPoint;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds each offset sync until the two logs' ends show whether it describes them ({@link OffsetSyncCheck}), then
 * hands it on with the verdict, in arrival order per source partition.
 *
 * <pre>
 *   sync ──▶ known log ends cover it? ──yes──▶ verdict
 *                   │ no (they are older than the sync)
 *                   ▼
 *            held (changelogged store) ──▶ ends fetched (source and destination, one request each) ──▶ verdict
 * </pre>
 *
 * <p>MirrorMaker 2 emits a sync for a record it has mirrored, so ends fetched after the sync arrived cover every
 * genuine one: a sync waits for at most one fetch. Invariants: a sync is decided only with ends fetched after it
 * arrived, or older ends that already cover it; while a partition has a held sync, later syncs of that partition
 * wait behind it; held syncs are in a changelogged store, so a crash or a rebalance loses none. Runs on the stream
 * thread only; fetches complete on Admin threads and are taken in by {@link #drain}.
 */
public final class OffsetSyncGate {

    /** What to do with a decided sync. */
    public interface Decision {
        void decided(OffsetSync sync, long timestamp, Result result);
    }

    /** Beyond this many held syncs, new ones are refused rather than held without bound (the ends cannot be read). */
    static final int MAX_HELD = 100_000;
    /** After a failed fetch of log ends, the next waits this long: a silent cluster is not asked at every drain. */
    private static final long FETCH_RETRY_MS = 1_000;
    private static final Logger log = LoggerFactory.getLogger(OffsetSyncGate.class);

    private record Held(long seq, OffsetSync sync, long timestamp) {
    }

    private record Ends(long sourceEnd, long destinationEnd, long asOfSeq) {
    }

    /**
     * One fetch's answer: the ends of each partition asked, the source topic ids of their topics, and the ids of
     * their mirrors on the destination (by source topic).
     */
    private record Fetched(Map<TopicPartition, Ends> ends, Map<String, Uuid> topicIds, Map<String, Uuid> mirrorIds) {
    }

    private final SyncHolds holds;
    private final SourceOffsets source;
    private final DestinationView destination;
    private final Function<String, String> destinationTopic;
    private final Function<TopicPartition, OffsetSyncPoint> newest;
    private final Consumer<Map<String, Uuid>> mirrorIds;
    private final Clock clock;
    private final Map<TopicPartition, ArrayDeque<Held>> queues = new LinkedHashMap<>();
    private final Map<TopicPartition, Ends> ends = new HashMap<>();
    /** The source topic ids the fetches saw, by topic: which incarnation the syncs decided with them describe. */
    private final Map<String, Uuid> topicIds = new HashMap<>();
    private final Set<TopicPartition> wanted = new HashSet<>();
    private CompletableFuture<Fetched> fetching;
    private long nextFetchAt;
    private long seq;
    private int held;

    /**
     * @param newest    the partition's newest sync in the history as the writer knows it, or null
     * @param mirrorIds told the destination ids of the mirror topics (by source topic) a fetch saw, before the syncs
     *                  held for it are decided: a re-seeded mirror's history is forgotten first
     */
    public OffsetSyncGate(SyncHolds holds, SourceOffsets source, DestinationView destination,
                   Function<String, String> destinationTopic, Function<TopicPartition, OffsetSyncPoint> newest,
                   Consumer<Map<String, Uuid>> mirrorIds, Clock clock) {
        this.mirrorIds = mirrorIds;
        this.holds = holds;
        this.source = source;
        this.destination = destination;
        this.destinationTopic = destinationTopic;
        this.newest = newest;
        this.clock = clock;
        holds.forEach((heldSeq, value) -> {
            Held h = decode(heldSeq, value);
            queue(h);
            seq = Math.max(seq, h.seq());
        });
        wanted.addAll(queues.keySet());
    }

    /** Number of syncs waiting for log ends. */
    public int held() {
        return held;
    }

    /** A sync just read: decided now when the known ends allow, else held. */
    public void offer(OffsetSync sync, long timestamp, Decision decision) {
        Held h = new Held(++seq, sync, timestamp);
        TopicPartition tp = new TopicPartition(sync.topic(), sync.partition());
        ArrayDeque<Held> queue = queues.get(tp);
        if (queue == null || queue.isEmpty()) {
            Result result = check(h);
            if (result.verdict() != Verdict.WAIT_FOR_LOG_ENDS) {
                decision.decided(sync, timestamp, result);
                return;
            }
        }
        if (held >= MAX_HELD) {
            decision.decided(sync, timestamp, Result.reject(held + " offset syncs already wait for log ends that "
                    + "cannot be read"));
            return;
        }
        holds.put(h.seq(), encode(h));
        queue(h);
        wanted.add(tp);
        drain(decision);
    }

    /** Takes in fetched ends, decides what they allow, and starts the next fetch; call it periodically. */
    public void drain(Decision decision) {
        if (fetching != null && fetching.isDone()) {
            CompletableFuture<Fetched> done = fetching;
            fetching = null;
            if (done.isCompletedExceptionally()) {
                log.warn("Cannot read the log ends that check offset syncs; {} sync(s) wait",
                        held, done.handle((v, e) -> e).join());
                nextFetchAt = clock.millis() + FETCH_RETRY_MS;
            } else {
                ends.putAll(done.join().ends());
                topicIds.putAll(done.join().topicIds());
                mirrorIds.accept(done.join().mirrorIds());
            }
        }
        for (Iterator<Map.Entry<TopicPartition, ArrayDeque<Held>>> it = queues.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<TopicPartition, ArrayDeque<Held>> e = it.next();
            ArrayDeque<Held> queue = e.getValue();
            while (!queue.isEmpty()) {
                Held h = queue.peekFirst();
                Result result = check(h);
                if (result.verdict() == Verdict.WAIT_FOR_LOG_ENDS) {
                    wanted.add(e.getKey());
                    break;
                }
                queue.removeFirst();
                held--;
                holds.delete(h.seq());
                decision.decided(h.sync(), h.timestamp(), result);
            }
            if (queue.isEmpty()) {
                it.remove();
            }
        }
        // ends of partitions that do not exist only served to refuse their syncs: not kept (anyone can name any)
        ends.values().removeIf(e -> e.sourceEnd() < 0 || e.destinationEnd() < 0);
        fetchIfIdle(decision);
    }

    private void fetchIfIdle(Decision decision) {
        if (fetching != null || wanted.isEmpty() || clock.millis() < nextFetchAt) {
            return;
        }
        long asOf = seq;
        Set<TopicPartition> partitions = Set.copyOf(wanted);
        wanted.clear();
        Map<TopicPartition, TopicPartition> mirrors = new HashMap<>();
        partitions.forEach(tp -> mirrors.put(tp,
                new TopicPartition(destinationTopic.apply(tp.topic()), tp.partition())));
        Set<String> topics = new HashSet<>();
        partitions.forEach(tp -> topics.add(tp.topic()));
        // the ids are a hint for the history writer (which incarnation a new topic's history starts with): a failure
        // to read them holds no sync back
        CompletableFuture<Map<String, Uuid>> ids = source.topicIds(topics).exceptionally(e -> Map.of());
        Map<String, String> sourceOf = new HashMap<>();
        topics.forEach(t -> sourceOf.put(destinationTopic.apply(t), t));
        // read after the syncs arrived, as the ends are: a mirror re-seeded before them is seen by this fetch
        CompletableFuture<Map<String, Uuid>> mirrored = destination.fetchTopicIds(sourceOf.keySet())
                .thenApply(byMirror -> {
                    Map<String, Uuid> bySource = new HashMap<>();
                    byMirror.forEach((mirror, id) -> bySource.put(sourceOf.get(mirror), id));
                    return bySource;
                }).exceptionally(e -> Map.of());
        fetching = source.logEnds(partitions).thenCombine(destination.fetchEndOffsets(Set.copyOf(mirrors.values())),
                (sourceEnds, destinationEnds) -> {
                    Map<TopicPartition, Ends> out = new HashMap<>();
                    partitions.forEach(tp -> out.put(tp, new Ends(sourceEnds.getOrDefault(tp, -1L),
                            destinationEnds.getOrDefault(mirrors.get(tp), -1L), asOf)));
                    return out;
                }).thenCombine(ids, (out, sourceIds) -> Map.entry(out, sourceIds))
                .thenCombine(mirrored, (both, mirrorIdsSeen) -> new Fetched(both.getKey(), both.getValue(),
                        mirrorIdsSeen));
        if (fetching.isDone()) {
            drain(decision); // answered at once (tests, or a cached client): no need to wait for the next tick
        }
    }

    /**
     * The source topic's id as the latest fetch of log ends saw it, when one did: a topic's first sync is always
     * decided with ends fetched after it arrived, so this is the incarnation its history begins with.
     */
    public Optional<Uuid> topicId(String topic) {
        return Optional.ofNullable(topicIds.get(topic));
    }

    private Result check(Held h) {
        TopicPartition tp = new TopicPartition(h.sync().topic(), h.sync().partition());
        Ends known = ends.get(tp);
        LogEnds logEnds = known == null ? null
                : new LogEnds(known.sourceEnd(), known.destinationEnd(), known.asOfSeq() >= h.seq());
        return OffsetSyncCheck.check(h.sync().upstreamOffset(), h.sync().downstreamOffset(), newest.apply(tp),
                logEnds, destinationTopic.apply(tp.topic()) + "-" + tp.partition());
    }

    private void queue(Held h) {
        queues.computeIfAbsent(new TopicPartition(h.sync().topic(), h.sync().partition()), tp -> new ArrayDeque<>())
                .addLast(h);
        held++;
    }

    /** [int16 topic length][topic][int32 partition][int64 upstream][int64 downstream][int64 timestamp] */
    private static byte[] encode(Held h) {
        byte[] name = h.sync().topic().getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(Short.BYTES + name.length + Integer.BYTES + 3 * Long.BYTES)
                .putShort((short) name.length).put(name)
                .putInt(h.sync().partition()).putLong(h.sync().upstreamOffset())
                .putLong(h.sync().downstreamOffset()).putLong(h.timestamp()).array();
    }

    private static Held decode(long seq, byte[] value) {
        ByteBuffer buf = ByteBuffer.wrap(value);
        byte[] name = new byte[buf.getShort()];
        buf.get(name);
        OffsetSync sync = new OffsetSync(new String(name, StandardCharsets.UTF_8), buf.getInt(), buf.getLong(),
                buf.getLong());
        return new Held(seq, sync, buf.getLong());
    }
}
