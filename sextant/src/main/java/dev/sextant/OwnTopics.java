package dev.sextant;

import dev.sextant.config.SextantConfig;
import dev.sextant.source.SourceTopicCreator;
import dev.sextant.sync.SyncSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;

/**
 * The topics Sextant writes on the source cluster, created at start when missing (brokers usually have topic
 * auto-creation off, and a global store whose topic is missing stops the Kafka Streams client): the dead-letter
 * topic; the offset-sync history (one compacted partition: every instance reads all of it); the share positions,
 * partitioned like {@code __consumer_offsets} so a share position reaches the task that owns its group.
 */
final class OwnTopics {

    private OwnTopics() {
    }

    static List<NewTopic> wanted(SextantConfig config, SyncSettings settings, int consumerOffsetsPartitions) {
        Optional<Short> replication = config.dlqTopicReplicationFactor() < 0 ? Optional.empty()
                : Optional.of(config.dlqTopicReplicationFactor());
        List<NewTopic> wanted = new ArrayList<>();
        wanted.add(new NewTopic(config.dlqTopic(), Optional.of(config.dlqTopicPartitions()), replication));
        if (!settings.identityTranslation()) {
            wanted.add(new NewTopic(settings.historyTopic(), Optional.of(1), replication)
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)));
        }
        if (settings.syncShareGroups()) {
            wanted.add(new NewTopic(settings.sharePositionsTopic(), Optional.of(consumerOffsetsPartitions),
                    replication));
        }
        return wanted;
    }

    /** Creates those that are missing. */
    static void create(SextantConfig config, SyncSettings settings) {
        try (SourceTopicCreator creator = new SourceTopicCreator(config.sourceClientConfig())) {
            int partitions = settings.syncShareGroups() ? creator.consumerOffsetsPartitions() : 0;
            creator.createMissing(wanted(config, settings, partitions));
        }
    }
}
