package dev.sextant.source;

import java.util.Optional;
import org.apache.kafka.common.Uuid;

/**
 * Names of source topics by topic id, for share state (keyed by topic id). Topic ids are per cluster: the
 * destination's copy of a topic has another id, so only the name is ever carried over.
 */
public interface SourceTopicNames extends AutoCloseable {

    /** The name if known now; an unknown id is looked up in the background and known on a later call. */
    Optional<String> name(Uuid topicId);

    @Override
    void close();
}
