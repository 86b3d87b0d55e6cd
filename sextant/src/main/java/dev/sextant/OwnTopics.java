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
import org.apache.kafka.common.internals.Topic;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topics Sextant writes on the source cluster, created at start when missing (brokers usually have topic
 * auto-creation off, and a global store whose topic is missing stops the Kafka Streams client): the dead-letter
 * topic; the offset-sync history and the cutovers (one compacted partition each: every instance reads all of it);
 * the share positions, partitioned like {@code __consumer_offsets} so a share position reaches the task that owns
 * its group; with {@code source.offsets.read=admin}, the commits read through the Admin API (compacted, partitioned
 * the same way).
 */
final class OwnTopics {

    private static final Logger log = LoggerFactory.getLogger(OwnTopics.class);
    /** Kafka's default {@code offsets.topic.num.partitions}. */
    static final int DEFAULT_OFFSETS_PARTITIONS = 50;

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
        // a tombstone (cutover --undo) kept for ever: an instance that comes back after any time away still reads it
        wanted.add(new NewTopic(settings.cutoversTopic(), Optional.of(1), replication)
                .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                        TopicConfig.DELETE_RETENTION_MS_CONFIG, String.valueOf(Long.MAX_VALUE))));
        if (settings.syncShareGroups()) {
            wanted.add(new NewTopic(settings.sharePositionsTopic(), Optional.of(consumerOffsetsPartitions),
                    replication));
        }
        if (!settings.commitsTopic().equals(Topic.GROUP_METADATA_TOPIC_NAME)) {
            // source.offsets.read=admin: the commits as __consumer_offsets holds them, compacted as it is
            wanted.add(new NewTopic(settings.commitsTopic(), Optional.of(consumerOffsetsPartitions), replication)
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)));
        }
        return wanted;
    }

    /** Creates those that are missing, then checks those that existed: a wrong one stops the start (exit 2). */
    static void create(SextantConfig config, SyncSettings settings) {
        try (SourceTopicCreator creator = new SourceTopicCreator(config.sourceClientConfig())) {
            int partitions = settings.syncShareGroups() ? creator.consumerOffsetsPartitions()
                    : settings.commitsTopic().equals(Topic.GROUP_METADATA_TOPIC_NAME) ? 0 : commitsPartitions(creator);
            List<NewTopic> wanted = wanted(config, settings, partitions);
            creator.createMissing(wanted);
            Map<String, SourceTopicCreator.Existing> existing = creator.describe(
                    wanted.stream().map(NewTopic::name).collect(Collectors.toSet()));
            check(settings, wanted, existing).ifPresent(problem -> {
                throw new InvalidConfigurationException(ConfigKeys.APPLICATION_ID_CONFIG,
                        config.applicationId(), problem);
            });
            tombstonesExpire(settings, existing).ifPresent(warning -> log.warn("{}", warning));
        }
    }

    /**
     * With {@code source.offsets.read=admin}, as many partitions for the commits topic as {@code __consumer_offsets}
     * has (a task then holds the groups it would hold reading the log), or Kafka's default of
     * {@value #DEFAULT_OFFSETS_PARTITIONS} where the source does not let Sextant describe that topic.
     */
    private static int commitsPartitions(SourceTopicCreator creator) {
        try {
            return creator.consumerOffsetsPartitions();
        } catch (RuntimeException e) {
            log.info("Cannot read how many partitions __consumer_offsets has ({}); Sextant's commits topic gets {}",
                    e.getMessage(), DEFAULT_OFFSETS_PARTITIONS);
            return DEFAULT_OFFSETS_PARTITIONS;
        }
    }

    /**
     * A warning when the cutovers topic removes tombstones ({@code delete.retention.ms}, one day by default on a topic
     * made by hand or by a release before this one): an instance away from the cluster for longer than that restores
     * its global store from its checkpoint past a {@code cutover --undo} compacted away, and goes on holding the group.
     * Not a refusal to start: the risk needs an instance away that long, and the fix is one command.
     */
    static Optional<String> tombstonesExpire(SyncSettings settings, Map<String, SourceTopicCreator.Existing> existing) {
        SourceTopicCreator.Existing there = existing.get(settings.cutoversTopic());
        if (there == null || there.deleteRetentionMs() == null || there.deleteRetentionMs() == Long.MAX_VALUE) {
            return Optional.empty();
        }
        return Optional.of("topic " + settings.cutoversTopic() + " removes tombstones after delete.retention.ms="
                + there.deleteRetentionMs() + ": an instance stopped for longer than that (or its state directory "
                + "restored from a backup that old) misses a 'cutover --undo' and goes on holding the group; keep "
                + "them: kafka-configs.sh --alter --entity-type topics --entity-name " + settings.cutoversTopic()
                + " --add-config delete.retention.ms=" + Long.MAX_VALUE);
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
