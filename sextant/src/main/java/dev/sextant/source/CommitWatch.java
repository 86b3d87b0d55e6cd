package dev.sextant.source;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.common.TopicPartition;

/**
 * Commits of chosen groups seen on the source from the moment the watch was opened, including one that commits the
 * offset already there (an idle {@code assign()} consumer with auto-commit does that every five seconds, and the
 * committed offsets alone never show it). What a cutover's fence listens to; {@link SourceCommitWatch} reads them from
 * {@code __consumer_offsets}.
 */
public interface CommitWatch extends AutoCloseable {

    /** A commit seen: what a refusal names. */
    record Commit(String group, TopicPartition partition, long offset, long commitTimestamp) {

        @Override
        public String toString() {
            return partition + " offset " + offset + " (committed at " + Instant.ofEpochMilli(commitTimestamp) + ")";
        }
    }

    /** Reads what arrived, for up to {@code wait}. */
    void poll(Duration wait);

    /** The commits of {@code group} seen since the watch was opened, oldest first. */
    List<Commit> commits(String group);

    @Override
    void close();
}
