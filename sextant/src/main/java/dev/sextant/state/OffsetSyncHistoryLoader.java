package dev.sextant.state;

import dev.sextant.clients.TopicLog;
import org.apache.kafka.common.utils.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds Sextant's offset-sync history from its history topic ({@code <application.id>-offset-sync-history} on its
 * source; for failback, the forward Sextant's, read on the destination) without Kafka Streams: reads the topic from
 * the start to its end and replays it in order, as the global store's updater does: a sync is stored, a tombstone
 * deletes one, a reset marker forgets the partition's history.
 */
public final class OffsetSyncHistoryLoader {

    private static final Logger log = LoggerFactory.getLogger(OffsetSyncHistoryLoader.class);

    private OffsetSyncHistoryLoader() {
    }

    /**
     * @param history the history topic, on the cluster that holds it
     * @throws IllegalStateException when the topic does not exist or cannot be read to its end within the timeout
     */
    public static InMemorySyncHistory load(TopicLog history) {
        InMemorySyncHistory loaded = new InMemorySyncHistory();
        long[] skipped = new long[1];
        boolean exists = history.readToEnd((key, value) -> {
            try {
                HistoryRecords.replay(key == null ? null : Bytes.wrap(key), value, loaded);
            } catch (IllegalArgumentException e) {
                skipped[0]++; // as the global store does: not a record Sextant writes
            }
        });
        if (!exists) {
            throw new IllegalStateException("the offset-sync history topic " + history.topic() + " does not exist on "
                    + history.cluster() + ": has Sextant run there with this application.id?");
        }
        if (skipped[0] > 0) {
            log.warn("Skipped {} record(s) of {} that Sextant does not write", skipped[0], history.topic());
        }
        return loaded;
    }
}
