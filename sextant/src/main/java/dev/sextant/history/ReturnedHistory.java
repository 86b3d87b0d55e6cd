package dev.sextant.history;

import dev.sextant.clients.TopicLog;
import dev.sextant.source.SourceOffsets;
import dev.sextant.state.InMemorySyncHistory;
import dev.sextant.state.MirrorMatch;
import dev.sextant.state.OffsetSyncHistoryLoader;
import dev.sextant.translate.OffsetSyncPoint;
import dev.sextant.translate.SyncHistory;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Failback's reverse checkpointing: the forward flow's offset syncs, inverted, as a history of the mirrors on this
 * Sextant's source of the destination's own topics. The forward Sextant kept them in its history topic on what is
 * this Sextant's destination ({@code failback.history.topic}); each sync (U on {@code orders}, D on
 * {@code source.orders}) is read here as one of {@code source.orders} from D to U, so the translation rule turns a
 * commit on the mirror into an offset of the original: exact at a sync (or in a proven interval), else just after the
 * sync below it, which replays the records in between and never skips one.
 *
 * <p>Checked at every read as the forward sync checked it ({@link ForwardHistoryCheck}): a history whose pinned
 * destination cluster is not this Sextant's source translates nothing, and a topic whose mirror here is not the one
 * the history recorded (created again since) is not inverted; its commits stay untranslatable, as the forward sync
 * would have left them. Said in the log (an error for the cluster, a warning per topic) whenever it changes.
 *
 * <p>Read whole at the start (the sync plans nothing before) and again every {@link #RELOAD}, in case the forward
 * flow still runs; a failed reload keeps the copy it has. Thread-safe: a reload swaps the whole copy.
 */
public final class ReturnedHistory implements SyncHistory, AutoCloseable {

    static final Duration RELOAD = Duration.ofSeconds(30);
    private static final Logger log = LoggerFactory.getLogger(ReturnedHistory.class);

    private final Map<String, Object> destinationClientConfig;
    private final String topic;
    private final UnaryOperator<String> mirrorOf;
    private final Duration timeout;
    private final SourceOffsets source;
    private final String sourceCluster;
    private final ScheduledExecutorService reloads = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "sextant-returned-history");
        thread.setDaemon(true);
        return thread;
    });
    private volatile InMemorySyncHistory inverted = new InMemorySyncHistory();
    /** What the last check found wrong, as logged; null while nothing was. */
    private String reported;

    /**
     * @param topic         the forward Sextant's history topic on the destination cluster
     * @param mirrorOf      the name on this Sextant's source of the mirror of a destination topic ({@code orders} to
     *                      {@code source.orders})
     * @param source        this Sextant's source, where the forward mirrors are: their ids and log ends
     * @param sourceCluster this Sextant's source cluster's id, which the forward history must pin
     */
    public ReturnedHistory(Map<String, Object> destinationClientConfig, String topic, UnaryOperator<String> mirrorOf,
                           Duration timeout, SourceOffsets source, String sourceCluster) {
        this.destinationClientConfig = destinationClientConfig;
        this.topic = topic;
        this.mirrorOf = mirrorOf;
        this.timeout = timeout;
        this.source = source;
        this.sourceCluster = sourceCluster;
    }

    /**
     * Reads the forward history once, then again every {@link #RELOAD}.
     *
     * @throws IllegalStateException when it cannot be read (the topic does not exist on the destination)
     */
    public void start() {
        reload();
        log.info("Failback: {} offset syncs of {} read from the destination's {}, inverted", inverted.size(),
                inverted.partitions() + " partition(s)", topic);
        reloads.scheduleWithFixedDelay(() -> {
            try {
                reload();
            } catch (RuntimeException e) {
                log.warn("Failback: could not read {} on the destination again; the copy read before is kept: {}",
                        topic, e.getMessage());
            }
        }, RELOAD.toMillis(), RELOAD.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void reload() {
        InMemorySyncHistory forward;
        try (TopicLog log = new TopicLog(destinationClientConfig, topic, "the destination cluster ("
                + destinationClientConfig.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG) + ")", timeout)) {
            forward = OffsetSyncHistoryLoader.load(log);
        }
        ForwardHistoryCheck.Result checked;
        try {
            checked = check(forward);
        } catch (IllegalStateException e) {
            log.warn("Failback: {}; the copy checked before is kept (none at the start: nothing translates through "
                    + "the forward history until it is checked), checked again in {} s", e.getMessage(),
                    RELOAD.toSeconds());
            return;
        }
        report(checked);
        inverted = checked.refusal() != null ? new InMemorySyncHistory()
                : forward.inverted(mirrorOf, checked::keeps);
    }

    /**
     * The forward history checked against the mirrors on this source as they are now.
     *
     * @throws IllegalStateException when this source does not answer
     */
    private ForwardHistoryCheck.Result check(InMemorySyncHistory forward) {
        Set<String> mirrors = new HashSet<>();
        forward.topics().forEach(t -> mirrors.add(mirrorOf.apply(t)));
        Map<String, Uuid> ids = await(source.topicIds(mirrors), "the ids of the forward mirror topics");
        Set<TopicPartition> unrecorded = new HashSet<>();
        forward.topics().stream().filter(t -> forward.mirrorIncarnation(t).filter(MirrorMatch::recorded).isEmpty())
                .forEach(t -> forward.newest(t).forEach(s -> unrecorded.add(new TopicPartition(mirrorOf.apply(t),
                        s.partition()))));
        Map<TopicPartition, Long> ends = unrecorded.isEmpty() ? Map.of()
                : await(source.logEnds(unrecorded), "the log ends of the forward mirror topics");
        return ForwardHistoryCheck.judge(forward, sourceCluster, ids, ends, mirrorOf);
    }

    private <T> T await(CompletableFuture<T> future, String what) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read " + what + " on this Sextant's source: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading " + what, e);
        }
    }

    /** Logs what the check found wrong when it changed since the last reload. */
    private synchronized void report(ForwardHistoryCheck.Result checked) {
        String now = checked.refusal() != null ? checked.refusal()
                : checked.refused().isEmpty() && checked.unproven().isEmpty() ? null
                : checked.refused() + " " + checked.unproven();
        if (Objects.equals(now, reported)) {
            return;
        }
        reported = now;
        if (checked.refusal() != null) {
            log.error("Failback: {}; the commits on its mirrors stay untranslatable", checked.refusal());
            return;
        }
        checked.refused().forEach((t, why) -> log.warn("Failback: {}; its syncs are not inverted (MIRROR_RESEEDED), "
                + "and commits on {} stay untranslatable", why, mirrorOf.apply(t)));
        checked.unproven().forEach((t, why) -> log.warn("Failback: {}; inverted all the same", why));
    }

    /** Syncs held, over every partition. */
    public long size() {
        return inverted.size();
    }

    @Override
    public Optional<OffsetSyncPoint> latestAtOrBelow(String topic, int partition, long upstreamOffset) {
        return inverted.latestAtOrBelow(topic, partition, upstreamOffset);
    }

    @Override
    public Optional<OffsetSyncPoint> earliestAbove(String topic, int partition, long upstreamOffset) {
        return inverted.earliestAbove(topic, partition, upstreamOffset);
    }

    @Override
    public void close() {
        reloads.shutdownNow();
    }
}
