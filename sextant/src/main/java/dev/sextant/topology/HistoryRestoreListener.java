package dev.sextant.topology;

import dev.sextant.history.OffsetSyncCatchUp;
import dev.sextant.state.OffsetSyncStore;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateRestoreListener;

/**
 * Tells the start-up wait ({@link OffsetSyncCatchUp}) how far the global store's start read the offset-sync history:
 * Kafka Streams reads it from the store's checkpoint to the end before any stream thread runs, and only what lies
 * past the checkpoint is processed again. To be set on the client as its global state restore listener.
 */
public final class HistoryRestoreListener implements StateRestoreListener {

    private final OffsetSyncCatchUp catchUp;

    public HistoryRestoreListener(OffsetSyncCatchUp catchUp) {
        this.catchUp = catchUp;
    }

    @Override
    public void onRestoreStart(TopicPartition partition, String store, long startingOffset, long endingOffset) {
        if (OffsetSyncStore.NAME.equals(store)) {
            catchUp.read(partition.partition(), endingOffset - 1);
        }
    }

    @Override
    public void onBatchRestored(TopicPartition partition, String store, long batchEndOffset, long numRestored) {
    }

    @Override
    public void onRestoreEnd(TopicPartition partition, String store, long totalRestored) {
    }
}
