package dev.sextant.sync;

import dev.sextant.domain.MirrorRewind;
import dev.sextant.state.OffsetSyncStore;
import java.util.Optional;
import org.apache.kafka.common.Uuid;

/**
 * What the offset-sync history records of each source topic's mirror, for the planner: the mirror topic's id its
 * syncs describe, and where each mirror partition last went back. Without a history (identity translation) neither
 * is recorded.
 */
interface MirrorRecords {

    /** No history: nothing recorded. */
    MirrorRecords NONE = new MirrorRecords() {
        @Override
        public Optional<Uuid> recordedMirror(String sourceTopic) {
            return Optional.empty();
        }

        @Override
        public MirrorRewind rewind(String sourceTopic, int partition) {
            return MirrorRewind.NONE;
        }
    };

    /**
     * The destination id of the mirror the topic's history describes, as the writes are checked against it (an id no
     * mirror has while a history without one is being checked: {@code OffsetSyncStore.describedMirror}).
     */
    Optional<Uuid> recordedMirror(String sourceTopic);

    /** Where the partition's mirror last went back, as recorded; {@link MirrorRewind#NONE} when it never did. */
    MirrorRewind rewind(String sourceTopic, int partition);

    /** What {@code history} records. */
    static MirrorRecords of(OffsetSyncStore history) {
        return new MirrorRecords() {
            @Override
            public Optional<Uuid> recordedMirror(String sourceTopic) {
                return history.describedMirror(sourceTopic);
            }

            @Override
            public MirrorRewind rewind(String sourceTopic, int partition) {
                return history.rewind(sourceTopic, partition);
            }
        };
    }
}
