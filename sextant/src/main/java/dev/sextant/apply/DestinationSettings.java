package dev.sextant.apply;

import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the destination's brokers are set to that the sync adapts to: whether they take a Kafka Streams group (their
 * features, and the version the operator states) and how long they keep a group's offsets
 * ({@code offsets.retention.minutes}). Both are read at the first refresh, then every
 * {@link #READ_INTERVAL_MS} and after every outage; a read refused (no permission) is no outage.
 *
 * <p>Guarded as {@link DestinationView} says: each field holds an immutable value, replaced whole under this object's
 * monitor and read without it.
 */
final class DestinationSettings {

    /** The view's logger: what the destination's picture says is found under one name. */
    private static final Logger log = LoggerFactory.getLogger(DestinationView.class);

    /**
     * The brokers' config is read again this often, and after every outage: a retention lowered under the refresh
     * interval in use (an operator's rolling restart) would delete applied offsets before they are written again. One
     * DescribeConfigs request of one broker each time; offsets the retention took before it was read are found gone
     * by {@code VanishedGroups}.
     */
    static final long READ_INTERVAL_MS = 10_000;

    private final DestinationClient client;
    /** The destination brokers' Kafka version as the operator states it, for what their protocol cannot tell. */
    private final Optional<String> declaredVersion;
    /** When both are read again, epoch ms (0: at the next refresh). */
    private volatile long dueAt;
    private volatile long offsetsRetentionMs = -1;
    private volatile StreamsGroupSupport streamsGroups = StreamsGroupSupport.UNKNOWN;

    DestinationSettings(DestinationClient client, Optional<String> declaredVersion) {
        this.client = client;
        this.declaredVersion = declaredVersion;
    }

    /** Whether a Kafka Streams group may be written, from the features last read; unknown before the first read. */
    StreamsGroupSupport streamsGroups() {
        return streamsGroups;
    }

    /** {@code offsets.retention.minutes} in ms, as last read; -1 while it could not be. */
    long offsetsRetentionMs() {
        return offsetsRetentionMs;
    }

    /** Starts reading both when a refresh starting {@code now} is due to; what they answer is kept when it comes. */
    void readIfDue(long now) {
        if (due(now)) {
            readFeatures();
            readOffsetsRetention();
        }
    }

    private synchronized boolean due(long now) {
        if (now < dueAt) {
            return false;
        }
        dueAt = now + READ_INTERVAL_MS;
        return true;
    }

    /** The next refresh reads both again (the destination may have been restarted with others meanwhile). */
    synchronized void readAtNextRefresh() {
        dueAt = 0;
    }

    private void readFeatures() {
        KafkaFutures.asked(client::features).whenComplete((read, err) -> {
            if (read != null) {
                supports(StreamsGroupSupport.of(read, declaredVersion));
            }
        });
    }

    private synchronized void supports(StreamsGroupSupport support) {
        if (support.refused() && !streamsGroups.refused()) {
            log.warn("Kafka Streams groups are not written on the destination: {}", support.detail());
        }
        streamsGroups = support;
    }

    private void readOffsetsRetention() {
        KafkaFutures.asked(client::offsetsRetentionMs).whenComplete((ms, err) -> {
            if (ms != null && ms > 0) {
                retains(ms);
            } else if (err != null) {
                log.info("Cannot read the destination's offsets.retention.minutes ({}); applied offsets are written "
                        + "again as if it were the broker default of 7 days, unless sync.offsets.refresh.ms says "
                        + "otherwise", KafkaFutures.unwrap(err).toString());
            }
        });
    }

    private synchronized void retains(long ms) {
        if (ms != offsetsRetentionMs) {
            log.info("The destination keeps the offsets of a group without members {} min after their commit "
                    + "(offsets.retention.minutes)", ms / 60_000);
        }
        offsetsRetentionMs = ms;
    }
}
