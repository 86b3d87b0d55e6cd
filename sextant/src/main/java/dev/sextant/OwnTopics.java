package dev.sextant;

import dev.sextant.config.ConfigKeys;
import dev.sextant.config.InvalidConfigurationException;
import dev.sextant.config.SextantConfig;
import dev.sextant.source.SourceTopicCreator;
import dev.sextant.sync.SyncSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;

/**
 * The topics Sextant writes on the source cluster, created at start when missing (brokers usually have topic
 * auto-creation off, and a global store whose topic is missing stops the Kafka Streams client): the dead-letter
 * topic; the offset-sync history and the cutovers (one compacted partition each: every instance reads all of it);
 * the share positions, partitioned like {@code __consumer_offsets} so a share position reaches the task that owns
 * its group.
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
        wanted.add(new NewTopic(settings.cutoversTopic(), Optional.of(1), replication)
                .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)));
        if (settings.syncShareGroups()) {
            wanted.add(new NewTopic(settings.sharePositionsTopic(), Optional.of(consumerOffsetsPartitions),
                    replication));
        }
        return wanted;
    }

    /** Creates those that are missing, then checks those that existed: a wrong one stops the start (exit 2). */
    static void create(SextantConfig config, SyncSettings settings) {
        try (SourceTopicCreator creator = new SourceTopicCreator(config.sourceClientConfig())) {
            int partitions = settings.syncShareGroups() ? creator.consumerOffsetsPartitions() : 0;
            List<NewTopic> wanted = wanted(config, settings, partitions);
            creator.createMissing(wanted);
            Map<String, SourceTopicCreator.Existing> existing = creator.describe(
                    wanted.stream().map(NewTopic::name).collect(Collectors.toSet()));
            check(settings, wanted, existing).ifPresent(problem -> {
                throw new InvalidConfigurationException(ConfigKeys.APPLICATION_ID_CONFIG,
                        config.applicationId(), problem);
            });
        }
    }

    /**
     * What is wrong with Sextant's topics as they are, or empty: the share positions must have as many partitions as
     * {@code __consumer_offsets} (a position goes to the partition of its group's task; with another count it reaches
     * a task that does not hold the group, and is never applied); the offset-sync history must be compacted (deleted
     * by retention, the history a restarted instance reads back would lose its oldest syncs, and lagging groups their
     * translation); so must the cutovers (or a cut-over group is moved from the source again once its record expired).
     * A policy the broker did not let Sextant read is not judged.
     */
    static Optional<String> check(SyncSettings settings, List<NewTopic> wanted,
                                  Map<String, SourceTopicCreator.Existing> existing) {
        List<String> problems = new ArrayList<>();
        for (NewTopic topic : wanted) {
            SourceTopicCreator.Existing there = existing.get(topic.name());
            if (there == null) {
                continue;
            }
            if (topic.name().equals(settings.sharePositionsTopic()) && topic.numPartitions() > 0
                    && there.partitions() != topic.numPartitions()) {
                problems.add("topic " + topic.name() + " has " + there.partitions() + " partitions where Sextant "
                        + "needs " + topic.numPartitions() + ", as many as __consumer_offsets, so that a share "
                        + "position reaches the task that holds its group: delete it (kafka-topics.sh --delete "
                        + "--topic " + topic.name() + ") and start Sextant again, which creates it right");
            }
            if ((topic.name().equals(settings.historyTopic()) || topic.name().equals(settings.cutoversTopic()))
                    && there.cleanupPolicy() != null
                    && !there.cleanupPolicy().contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
                problems.add("topic " + topic.name() + " has cleanup.policy=" + there.cleanupPolicy() + " where "
                        + "Sextant needs compact, or retention deletes what it holds: kafka-configs.sh "
                        + "--alter --entity-type topics --entity-name " + topic.name()
                        + " --add-config cleanup.policy=compact");
            }
        }
        return problems.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", problems));
    }
}
