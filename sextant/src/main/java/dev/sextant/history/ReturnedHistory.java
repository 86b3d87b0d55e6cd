package dev.sextant.history;

import dev.sextant.clients.TopicLog;
import dev.sextant.state.InMemorySyncHistory;
import dev.sextant.state.OffsetSyncHistoryLoader;
import dev.sextant.translate.OffsetSyncPoint;
import dev.sextant.translate.SyncHistory;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.CommonClientConfigs;
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
    private final ScheduledExecutorService reloads = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "sextant-returned-history");
        thread.setDaemon(true);
        return thread;
    });
    private volatile InMemorySyncHistory inverted = new InMemorySyncHistory();

    /**
     * @param topic    the forward Sextant's history topic on the destination cluster
     * @param mirrorOf the name on this Sextant's source of the mirror of a destination topic ({@code orders} to
     *                 {@code source.orders})
     */
    public ReturnedHistory(Map<String, Object> destinationClientConfig, String topic, UnaryOperator<String> mirrorOf,
                           Duration timeout) {
        this.destinationClientConfig = destinationClientConfig;
        this.topic = topic;
        this.mirrorOf = mirrorOf;
        this.timeout = timeout;
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
        try (TopicLog forward = new TopicLog(destinationClientConfig, topic, "the destination cluster ("
                + destinationClientConfig.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG) + ")", timeout)) {
            inverted = OffsetSyncHistoryLoader.load(forward).inverted(mirrorOf);
        }
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
