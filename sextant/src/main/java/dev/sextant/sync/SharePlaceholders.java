package dev.sextant.sync;

import dev.sextant.source.SourceTopicNames;
import dev.sextant.state.GroupRecord;
import java.util.Optional;
import org.apache.kafka.common.Uuid;

/**
 * Names the topic of a share partition, known by id only. Until a name is known the position is stored under
 * {@code #<topic id>}, a name no Kafka topic can have ('#' is not allowed), and resolved at a later flush.
 */
final class SharePlaceholders {

    private static final String PREFIX = "#";

    private SharePlaceholders() {
    }

    static String name(GroupRecord group, Uuid topicId, SourceTopicNames names) {
        String known = group.shareTopics().get(topicId.toString());
        if (known != null) {
            return known;
        }
        return names.name(topicId).orElse(PREFIX + topicId);
    }

    static boolean isPlaceholder(String topic) {
        return topic.startsWith(PREFIX);
    }

    /** The real name of a placeholder, if now known. */
    static Optional<String> resolve(GroupRecord group, String placeholder, SourceTopicNames names) {
        Uuid id = Uuid.fromString(placeholder.substring(PREFIX.length()));
        String name = name(group, id, names);
        return isPlaceholder(name) ? Optional.empty() : Optional.of(name);
    }
}
